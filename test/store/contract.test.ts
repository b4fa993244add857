import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ApprovalDesk } from '../../src/usecases/approval-desk.js';
import { createContext, repositories, type UseCaseContext } from '../../src/usecases/context.js';
import { FrontDesk, type HoldInput } from '../../src/usecases/front-desk.js';
import type { Store } from '../../src/store/store.js';
import { openStore } from '../../src/store/store.js';
import { createTestStore, DIALECTS } from '../support/databases.js';
import { bundledOfficeData, DEMO_NOW } from '../support/office.js';

const HOLD: HoldInput = {
  client_name: 'Dana Whitfield',
  contact: '(312) 555-0199',
  service: 'consultation',
  date: '2026-09-16',
  start_time: '10:00',
  staff_id: 'maria_chen',
};
const CALLER = 'user:dana';
const STAFF = { account: 'staff', name: 'Sam Rivera' };

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason !== undefined)(`store on ${dialect.name}`, () => {
    let store: Store;
    let dispose: () => Promise<void>;
    let ctx: UseCaseContext;
    let desk: FrontDesk;

    beforeEach(async () => {
      ({ store, dispose } = await createTestStore(dialect));
      ctx = createContext(await bundledOfficeData(), store, () => DEMO_NOW);
      desk = new FrontDesk(ctx);
    });

    afterEach(async () => {
      await dispose();
    });

    describe('migrations', () => {
      it('are idempotent: opening a migrated database again changes nothing', async () => {
        const again = await openStore(store.target);
        await expect(again.ping()).resolves.toBe(true);
        await again.close();
      });
    });

    describe('placing a hold', () => {
      it('writes the hold, its approval request and an audit entry together', async () => {
        const hold = await desk.placeHold(CALLER, HOLD);
        expect(hold.ok).toBe(true);
        if (!hold.ok) return;
        const repo = repositories(ctx);
        const stored = await repo.appointments.findById(hold.value.appointment_id);
        expect(stored).toMatchObject({
          status: 'pending_approval',
          owner_subject: CALLER,
          contact_value: '+13125550199',
        });
        const [request] = await repo.approvals.listAwaiting();
        expect(request).toMatchObject({
          kind: 'hold',
          status: 'pending',
          appointment_id: hold.value.appointment_id,
        });
        const [entry] = await repo.audit.list();
        expect(entry).toMatchObject({
          action: 'hold.placed',
          actor_kind: 'caller',
          actor_id: CALLER,
          seq: 1,
        });
      });

      it('commits nothing when any part of the transaction fails', async () => {
        const hold = await desk.placeHold(CALLER, HOLD);
        expect(hold.ok).toBe(true);
        await expect(
          store.transaction(async (tx) => {
            const repo = repositories(ctx, tx);
            await repo.audit.append({
              at: DEMO_NOW.toISOString(),
              actor_kind: 'system',
              actor_id: 'system',
              actor_name: null,
              action: 'probe',
              target_type: 'none',
              target_id: 'none',
              details: {},
            });
            throw new Error('fails after writing');
          }),
        ).rejects.toThrow('fails after writing');
        expect(await repositories(ctx).audit.list()).toHaveLength(1);
      });

      it('refuses an overlapping hold for the same staff member, with alternatives', async () => {
        expect((await desk.placeHold(CALLER, HOLD)).ok).toBe(true);
        const overlapping = await desk.placeHold('user:other', { ...HOLD, start_time: '10:15' });
        expect(overlapping).toMatchObject({ ok: false, error: { code: 'slot_unavailable' } });
        if (overlapping.ok) return;
        expect((overlapping.error.alternatives as unknown[]).length).toBeGreaterThan(0);
        expect(await repositories(ctx).appointments.count()).toBe(1);
      });

      it('the database itself refuses a second claim on an occupied cell', async () => {
        const hold = await desk.placeHold(CALLER, HOLD);
        if (!hold.ok) throw new Error('hold failed');
        const [cell] = await store.db.selectFrom('slot_cells').selectAll().execute();
        await expect(
          store.db
            .insertInto('slot_cells')
            .values({ ...cell!, appointment_id: hold.value.appointment_id })
            .execute(),
        ).rejects.toThrow();
      });

      it('books another qualified staff member when no one is named and the first is taken', async () => {
        const first = await desk.placeHold(CALLER, { ...HOLD, staff_id: undefined });
        const second = await desk.placeHold('user:other', { ...HOLD, staff_id: undefined });
        expect(first.ok && second.ok).toBe(true);
        if (!first.ok || !second.ok) return;
        expect(second.value.staff_id).not.toBe(first.value.staff_id);
      });

      it('refuses sensitive numbers and stores nothing', async () => {
        const result = await desk.placeHold(CALLER, { ...HOLD, notes: 'my card is 4111 1111 1111 1111' });
        expect(result).toMatchObject({
          ok: false,
          error: { code: 'sensitive_data_refused', field: 'notes' },
        });
        expect(await repositories(ctx).appointments.count()).toBe(0);
        expect(await repositories(ctx).audit.list()).toHaveLength(0);
      });
    });

    describe('busy time', () => {
      it('includes an appointment that started before the window and overlaps it, and nothing outside', async () => {
        const hold = await desk.placeHold(CALLER, { ...HOLD, service: 'policy_review', start_time: '10:00' });
        if (!hold.ok) throw new Error('hold failed');
        const repo = repositories(ctx).appointments;
        const stored = await repo.findById(hold.value.appointment_id);
        const start = Date.parse(stored!.starts_at);
        const minute = 60_000;
        const inside = await repo.listBusy(
          new Date(start + 30 * minute).toISOString(),
          new Date(start + 90 * minute).toISOString(),
        );
        expect(inside).toEqual([
          { staff_id: 'maria_chen', starts_at: stored!.starts_at, ends_at: stored!.ends_at },
        ]);
        expect(await repo.listBusy(stored!.ends_at, new Date(start + 120 * minute).toISOString())).toEqual(
          [],
        );
        expect(await repo.listBusy(new Date(start - 60 * minute).toISOString(), stored!.starts_at)).toEqual(
          [],
        );
      });
    });

    describe('ownership', () => {
      it('finds only the subject’s own booking, and answers not_found alike for every mismatch', async () => {
        const hold = await desk.placeHold(CALLER, HOLD);
        if (!hold.ok) throw new Error('hold failed');
        const id = hold.value.appointment_id;
        const own = await desk.appointmentStatus(CALLER, id, '0199');
        expect(own).toMatchObject({ ok: true, value: { status: 'pending_approval' } });
        const attempts = [
          await desk.appointmentStatus('user:mallory', id, HOLD.contact),
          await desk.appointmentStatus(CALLER, id, '(312) 555-0100'),
          await desk.appointmentStatus(CALLER, 'APT-ZZZZZZ', HOLD.contact),
        ];
        for (const attempt of attempts) expect(attempt).toEqual(attempts[0]);
        expect(attempts[0]).toMatchObject({ ok: false, error: { code: 'not_found' } });
      });

      it('needs the full contact to cancel', async () => {
        const hold = await desk.placeHold(CALLER, HOLD);
        if (!hold.ok) throw new Error('hold failed');
        const id = hold.value.appointment_id;
        expect(await desk.requestCancellation(CALLER, id, '0199', undefined)).toMatchObject({
          ok: false,
          error: { code: 'not_found' },
        });
        expect(await desk.requestCancellation(CALLER, id, HOLD.contact, 'moving away')).toMatchObject({
          ok: true,
          value: { status: 'cancel_requested' },
        });
      });
    });

    describe('staff decisions', () => {
      it('approving a hold confirms it, and the caller sees it at once', async () => {
        const hold = await desk.placeHold(CALLER, HOLD);
        if (!hold.ok) throw new Error('hold failed');
        const [request] = await repositories(ctx).approvals.listAwaiting();
        const decided = await new ApprovalDesk(ctx).decide(request!.id, 'approve', STAFF, 'see you then');
        expect(decided).toMatchObject({
          ok: true,
          value: { status: 'approved', decided_by_name: 'Sam Rivera' },
        });
        const status = await desk.appointmentStatus(CALLER, hold.value.appointment_id, HOLD.contact);
        expect(status).toMatchObject({ ok: true, value: { status: 'confirmed' } });
      });

      it('rejecting a hold frees the slot for someone else', async () => {
        const hold = await desk.placeHold(CALLER, HOLD);
        if (!hold.ok) throw new Error('hold failed');
        const [request] = await repositories(ctx).approvals.listAwaiting();
        await new ApprovalDesk(ctx).decide(request!.id, 'reject', STAFF, undefined);
        expect((await desk.placeHold('user:other', HOLD)).ok).toBe(true);
      });

      it('of two decisions on one request exactly one lands, and the other learns who decided', async () => {
        await desk.placeHold(CALLER, HOLD);
        const [request] = await repositories(ctx).approvals.listAwaiting();
        const approvalDesk = new ApprovalDesk(ctx);
        const results = await Promise.all([
          approvalDesk.decide(request!.id, 'approve', STAFF, undefined),
          approvalDesk.decide(request!.id, 'reject', { account: 'lee', name: 'Lee Park' }, undefined),
        ]);
        expect(results.filter((r) => r.ok)).toHaveLength(1);
        const refused = results.find((r) => !r.ok);
        expect(refused).toMatchObject({ ok: false, error: { code: 'already_decided' } });
      });

      it('a cancelled appointment releases its time', async () => {
        const hold = await desk.placeHold(CALLER, HOLD);
        if (!hold.ok) throw new Error('hold failed');
        const approvalDesk = new ApprovalDesk(ctx);
        const [holdRequest] = await repositories(ctx).approvals.listAwaiting();
        await approvalDesk.decide(holdRequest!.id, 'approve', STAFF, undefined);
        const cancel = await desk.requestCancellation(
          CALLER,
          hold.value.appointment_id,
          HOLD.contact,
          undefined,
        );
        if (!cancel.ok) throw new Error('cancel failed');
        expect((await desk.placeHold('user:other', HOLD)).ok).toBe(false);
        await approvalDesk.decide(cancel.value.approval_id, 'approve', STAFF, undefined);
        expect((await desk.placeHold('user:other', HOLD)).ok).toBe(true);
      });
    });

    describe('audit trail', () => {
      it('chains every entry and verifies intact', async () => {
        await desk.placeHold(CALLER, HOLD);
        await desk.escalate(CALLER, { action: 'callback', summary: 'Please call me about my renewal' });
        const verdict = await repositories(ctx).audit.verify();
        expect(verdict).toMatchObject({ intact: true, entries: 2 });
      });

      it('the database refuses to update or delete an entry', async () => {
        await desk.placeHold(CALLER, HOLD);
        await expect(store.db.updateTable('audit_log').set({ action: 'edited' }).execute()).rejects.toThrow(
          /append-only/,
        );
        await expect(store.db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
      });

      it('detects an entry edited behind the database’s back', async () => {
        await desk.placeHold(CALLER, HOLD);
        await desk.escalate(CALLER, { action: 'callback', summary: 'Call me' });
        if (store.dialect === 'postgres') {
          await sql`alter table audit_log disable trigger audit_log_append_only`.execute(store.db);
        } else {
          await sql`drop trigger audit_log_no_update`.execute(store.db);
        }
        await store.db
          .updateTable('audit_log')
          .set({ actor_id: 'user:someone-else' })
          .where('seq', '=', 1)
          .execute();
        expect(await repositories(ctx).audit.verify()).toMatchObject({ intact: false, broken_at_seq: 1 });
      });
    });

    describe('expiry', () => {
      it('expires an undecided hold once its start passes, closing its request', async () => {
        const hold = await desk.placeHold(CALLER, HOLD);
        if (!hold.ok) throw new Error('hold failed');
        const later = createContext(ctx.data, store, () => new Date('2026-09-16T16:00:00Z'));
        const status = await new FrontDesk(later).appointmentStatus(
          CALLER,
          hold.value.appointment_id,
          HOLD.contact,
        );
        expect(status).toMatchObject({ ok: true, value: { status: 'expired' } });
        expect(await repositories(ctx).approvals.listAwaiting()).toHaveLength(0);
      });
    });

    describe('office isolation', () => {
      it('another office sees none of this office’s rows', async () => {
        await desk.placeHold(CALLER, HOLD);
        const other = { ...ctx, data: { ...ctx.data, office: { ...ctx.data.office, id: 'elsewhere' } } };
        expect(await repositories(other).appointments.count()).toBe(0);
        expect(await repositories(other).audit.list()).toHaveLength(0);
      });
    });
  });
}
