import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/auth/secrets.js';
import { PersonalTokens } from '../../src/gateway/personal-tokens.js';
import { auditTrail } from '../../src/store/audit.js';
import { calls, type CallRecord } from '../../src/store/calls.js';
import { gatewayDevices } from '../../src/store/gateway-devices.js';
import { gatewayFlows } from '../../src/store/gateway-flows.js';
import { personalTokens } from '../../src/store/personal-tokens.js';
import { staffAccounts } from '../../src/store/staff.js';
import { isUniqueViolation, type Store } from '../../src/store/store.js';
import { createTestStore, DIALECTS } from '../support/databases.js';

const T = (minutes: number) => new Date(Date.UTC(2026, 8, 14, 15, minutes)).toISOString();

function call(id: string, overrides: Partial<CallRecord> = {}): Omit<CallRecord, 'office_id'> {
  return {
    id,
    placed_by: 'sam',
    placed_via: 'pat',
    credential_id: null,
    number: '+13125550100',
    mode: 'hold_slayer',
    intent: null,
    call_flow_id: null,
    device_id: null,
    status: 'on_hold',
    end_reason: null,
    classification: null,
    created_at: T(0),
    answered_at: null,
    hold_started_at: null,
    hold_ms: 0,
    human_at: null,
    bridged_at: null,
    ended_at: null,
    updated_at: T(0),
    lease_until: T(2),
    ...overrides,
  };
}

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason)(`gateway repositories on ${dialect.name}`, () => {
    let store: Store;
    let dispose: () => Promise<void>;
    let offices = 0;
    /** Each test works in an office of its own, with ids of its own, in one database per dialect. */
    let OFFICE = '';
    const id = (name: string) => `${OFFICE}.${name}`;

    beforeAll(async () => {
      ({ store, dispose } = await createTestStore(dialect));
    });

    afterAll(async () => {
      await dispose();
    });

    beforeEach(() => {
      offices += 1;
      OFFICE = `office-${offices}`;
    });

    describe('calls', () => {
      it('counts active calls by their lease, and calls placed since an instant', async () => {
        const repo = calls(store.db, OFFICE);
        await repo.insert(call(id('call_a'), { lease_until: T(5) }));
        await repo.insert(call(id('call_b'), { lease_until: T(1), created_at: T(1) }));
        await repo.insert(call(id('call_c'), { status: 'ended', lease_until: T(9), created_at: T(3) }));
        await calls(store.db, 'elsewhere').insert(call(id('call_d'), { lease_until: T(9) }));
        expect(await repo.countActive(T(0))).toBe(2);
        expect(await repo.countActive(T(1))).toBe(1);
        expect(await repo.countPlacedSince(T(1))).toBe(2);
        expect((await repo.listOrphaned(T(1))).map((c) => c.id)).toEqual([id('call_b')]);
        expect((await repo.listActive()).map((c) => c.id)).toEqual([id('call_a'), id('call_b')]);
        await repo.renewLeases([id('call_b'), id('call_c')], T(10));
        expect((await repo.find(id('call_c')))?.lease_until).toBe(T(9));
        expect(await repo.endOrphan(id('call_b'), T(5))).toBe(false);
        expect(await repo.endOrphan(id('call_b'), T(10))).toBe(true);
        expect(await repo.endOrphan(id('call_b'), T(11))).toBe(false);
        expect(await calls(store.db, 'elsewhere').find(id('call_a'))).toBeUndefined();
      });

      it('searches digits anywhere in the number and words anywhere in the intent, LIKE wildcards literal', async () => {
        const repo = calls(store.db, OFFICE);
        await repo.insert(
          call(id('call_1'), { number: '+18005551234', intent: 'Dispute the 100% fee', created_at: T(1) }),
        );
        await repo.insert(
          call(id('call_2'), { number: '+13125550100', intent: 'billing_address change', created_at: T(2) }),
        );
        await repo.insert(call(id('call_3'), { number: '+13125559999', intent: null, created_at: T(3) }));
        const ids = async (filter: Parameters<typeof repo.search>[0]) =>
          (await repo.search(filter)).map((c) => c.id);
        expect(await ids({ phone: '(312) 555', limit: 10 })).toEqual([id('call_3'), id('call_2')]);
        expect(await ids({ intent: 'DISPUTE', limit: 10 })).toEqual([id('call_1')]);
        expect(await ids({ intent: '100%', limit: 10 })).toEqual([id('call_1')]);
        expect(await ids({ intent: '0%f', limit: 10 })).toEqual([]);
        expect(await ids({ intent: 'g_a', limit: 10 })).toEqual([id('call_2')]);
        expect(await ids({ intent: 'l_a', limit: 10 })).toEqual([]);
        expect(await ids({ phone: 'no digits', intent: ' ', limit: 2 })).toEqual([
          id('call_3'),
          id('call_2'),
        ]);
      });

      it('keeps events, transcript lines, a recording and a summary per call', async () => {
        const repo = calls(store.db, OFFICE);
        await repo.insert(call(id('call_1')));
        expect(await repo.lastEventSeq(id('call_1'))).toBe(0);
        for (const seq of [1, 2, 3]) {
          await repo.appendEvent({
            call_id: id('call_1'),
            seq,
            at: T(seq),
            kind: 'status',
            details_json: '{}',
          });
          await repo.appendLine({
            call_id: id('call_1'),
            seq,
            at: T(seq),
            offset_ms: seq * 100,
            speaker: 'ivr',
            text: `line ${seq}`,
          });
        }
        const duplicate = await repo
          .appendEvent({ call_id: id('call_1'), seq: 2, at: T(9), kind: 'status', details_json: '{}' })
          .catch((e: unknown) => e);
        expect(isUniqueViolation(duplicate)).toBe(true);
        expect(await repo.lastEventSeq(id('call_1'))).toBe(3);
        expect((await repo.listLines(id('call_1'), 2)).map((l) => l.text)).toEqual(['line 2', 'line 3']);
        expect((await repo.listLines(id('call_1'))).map((l) => Number(l.offset_ms))).toEqual([100, 200, 300]);
        await repo.saveRecording({
          call_id: id('call_1'),
          location: 'x',
          format: 'audio/wav',
          duration_ms: 1200,
          created_at: T(4),
        });
        await repo.saveSummary({
          call_id: id('call_1'),
          summary: 's',
          action_items_json: '[]',
          sentiment: 'neutral',
          created_at: T(4),
        });
        expect(await repo.findRecording(id('call_1'))).toMatchObject({ duration_ms: 1200 });
        expect(await repo.findSummary(id('call_1'))).toMatchObject({ sentiment: 'neutral' });
      });
    });

    describe('call flows and devices', () => {
      it('allows one flow per number and revises with compare-and-set', async () => {
        const repo = gatewayFlows(store.db, OFFICE);
        const flow = {
          id: id('flow_1'),
          name: 'Acme',
          phone_number: '+13125550100',
          steps_json: '[{"press":"1"}]',
          notes: null,
          source: 'manual' as const,
          learned_from_call_id: null,
          version: 1,
          created_by: 'sam',
          created_at: T(0),
          updated_at: T(0),
        };
        await repo.insert(flow);
        expect(
          isUniqueViolation(await repo.insert({ ...flow, id: id('flow_2') }).catch((e: unknown) => e)),
        ).toBe(true);
        const change = {
          steps_json: '[{"press":"2"}]',
          notes: null,
          source: 'learned' as const,
          learned_from_call_id: id('call_1'),
          updated_at: T(1),
        };
        expect(await repo.revise(id('flow_1'), 1, change)).toBe(true);
        expect(await repo.revise(id('flow_1'), 1, change)).toBe(false);
        expect(await repo.findByNumber('+13125550100')).toMatchObject({ version: 2, source: 'learned' });
        expect((await repo.list()).map((f) => f.id)).toEqual([id('flow_1')]);
      });

      it('keeps device addresses unique per kind', async () => {
        const repo = gatewayDevices(store.db, OFFICE);
        const device = {
          id: id('dev_1'),
          staff_username: 'sam',
          name: 'Desk',
          kind: 'sip' as const,
          address: 'sip:a@b',
          created_at: T(0),
        };
        await repo.insert(device);
        expect(
          isUniqueViolation(
            await repo
              .insert({ ...device, id: id('dev_2'), staff_username: 'alex' })
              .catch((e: unknown) => e),
          ),
        ).toBe(true);
        await repo.insert({ ...device, id: id('dev_3'), kind: 'phone', address: '+13125550100' });
        expect((await repo.list('sam')).map((d) => d.id)).toEqual([id('dev_1'), id('dev_3')]);
        expect(await repo.remove(id('dev_1'))).toBe(true);
        expect(await repo.remove(id('dev_1'))).toBe(false);
      });
    });

    describe('personal access tokens', () => {
      let now: Date;
      let tokens: PersonalTokens;

      beforeEach(async () => {
        now = new Date('2026-09-14T15:00:00Z');
        tokens = new PersonalTokens(store, OFFICE, () => now);
        for (const [username, role] of [
          ['sam', 'staff'],
          ['ada', 'admin'],
        ] as const) {
          await staffAccounts(store.db, OFFICE).insert({
            username,
            display_name: username.toUpperCase(),
            role,
            password_hash: 'unused',
            created_at: T(0),
            disabled_at: null,
          });
        }
      });

      const mint = async (staff = 'sam', days?: number) => {
        const minted = await tokens.mint({
          staff,
          name: 'laptop',
          expiresInDays: days,
          actor: { kind: 'system', id: 'test' },
        });
        if (!minted.ok) throw new Error(minted.error.message);
        return minted.value;
      };

      it('stores only the SHA-256 of a minted token, and audits the minting', async () => {
        const { token, view } = await mint();
        expect(token).toMatch(/^hd_pat_[A-Za-z0-9_-]{43}$/);
        const [row] = await personalTokens(store.db, OFFICE).list('sam');
        expect(row).toMatchObject({
          id: view.token_id,
          token_hash: sha256Hex(token),
          expires_at: '2026-12-13T15:00:00.000Z',
        });
        expect(JSON.stringify(row)).not.toContain(token.slice(7));
        const [entry] = await auditTrail(store.db, OFFICE, store.dialect).list({ targetId: view.token_id });
        expect(entry).toMatchObject({
          action: 'personal_token.minted',
          actor_kind: 'system',
          actor_id: 'test',
        });
        expect(JSON.stringify(entry)).not.toContain(token);
      });

      it('authenticates a valid token as its staff member, and records its use to the minute', async () => {
        const { token, view } = await mint();
        expect(await tokens.authenticate(token)).toMatchObject({
          kind: 'staff',
          username: 'sam',
          displayName: 'SAM',
          via: 'pat',
          credentialId: view.token_id,
        });
        expect((await personalTokens(store.db, OFFICE).find(view.token_id))?.last_used_at).toBe(
          now.toISOString(),
        );
        const first = now.toISOString();
        now = new Date(now.getTime() + 30_000);
        await tokens.authenticate(token);
        expect((await personalTokens(store.db, OFFICE).find(view.token_id))?.last_used_at).toBe(first);
        now = new Date(now.getTime() + 60_000);
        await tokens.authenticate(token);
        expect((await personalTokens(store.db, OFFICE).find(view.token_id))?.last_used_at).toBe(
          now.toISOString(),
        );
      });

      it('refuses malformed, unknown, expired, revoked and disabled-account tokens', async () => {
        const { token, view } = await mint('sam', 1);
        for (const bad of [
          '',
          'hd_pat_',
          `${token}x`,
          token.slice(0, -1),
          token.replace('hd_pat_', 'hd_pa_'),
          `hd_pat_${'A'.repeat(43)}`,
        ]) {
          expect(await tokens.authenticate(bad)).toBeUndefined();
        }
        now = new Date(now.getTime() + 24 * 60 * 60 * 1000);
        expect(await tokens.authenticate(token)).toBeUndefined();
        const second = await mint();
        expect(await tokens.revoke(second.view.token_id, { kind: 'system', id: 'test' })).toMatchObject({
          ok: true,
        });
        expect(await tokens.authenticate(second.token)).toBeUndefined();
        const third = await mint();
        await staffAccounts(store.db, OFFICE).disable('sam', T(5));
        expect(await tokens.authenticate(third.token)).toBeUndefined();
        expect((await tokens.list('sam')).map((t) => t.state).sort()).toEqual([
          'active',
          'expired',
          'revoked',
        ]);
        expect(view.state).toBe('active');
      });

      it('refuses to mint with a bad name or expiry, for someone else, or for an unknown account', async () => {
        const actor = { kind: 'staff' as const, username: 'sam', name: 'Sam', role: 'staff' };
        expect(await tokens.mint({ staff: 'sam', name: ' ', actor })).toMatchObject({
          error: { code: 'invalid_name' },
        });
        expect(await tokens.mint({ staff: 'sam', name: 'x'.repeat(81), actor })).toMatchObject({
          error: { code: 'invalid_name' },
        });
        for (const days of [0, 366, 1.5]) {
          expect(await tokens.mint({ staff: 'sam', name: 'a', expiresInDays: days, actor })).toMatchObject({
            error: { code: 'invalid_expiry' },
          });
        }
        expect(await tokens.mint({ staff: 'ada', name: 'a', actor })).toMatchObject({
          error: { code: 'not_permitted' },
        });
        expect(
          await tokens.mint({ staff: 'nobody', name: 'a', actor: { kind: 'system', id: 'cli' } }),
        ).toMatchObject({
          error: { code: 'unknown_staff' },
        });
        const admin = { kind: 'staff' as const, username: 'ada', name: 'Ada', role: 'admin' };
        expect(
          await tokens.mint({ staff: 'sam', name: 'for sam', expiresInDays: 365, actor: admin }),
        ).toMatchObject({ ok: true });
      });

      it("lets staff revoke only their own tokens, admins anyone's, and only once", async () => {
        const { view } = await mint('ada');
        const sam = { kind: 'staff' as const, username: 'sam', name: 'Sam', role: 'staff' };
        const ada = { kind: 'staff' as const, username: 'ada', name: 'Ada', role: 'admin' };
        expect(await tokens.revoke(view.token_id, sam)).toMatchObject({ error: { code: 'not_found' } });
        expect(await tokens.revoke('pat_missing', ada)).toMatchObject({ error: { code: 'not_found' } });
        const own = await mint('sam');
        expect(await tokens.revoke(own.view.token_id, ada)).toMatchObject({
          ok: true,
          value: { state: 'revoked' },
        });
        expect(await tokens.revoke(own.view.token_id, sam)).toMatchObject({
          error: { code: 'already_revoked' },
        });
        const [entry] = await auditTrail(store.db, OFFICE, store.dialect).list({
          action: 'personal_token.revoked',
        });
        expect(entry).toMatchObject({ actor_kind: 'staff', actor_id: 'ada', target_id: own.view.token_id });
      });
    });
  });
}
