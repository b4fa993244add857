import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/passwords.js';
import { sha256Hex } from '../../src/auth/secrets.js';
import { staffAccounts } from '../../src/store/staff.js';
import { DIALECTS } from '../support/databases.js';
import { connectClient } from '../support/server.js';
import { DESK_PHONE, eventually, staffTool, startGateway, type GatewayHarness } from '../gateway/support.js';
import { DESK_SETTINGS, DeskClient } from './support.js';

/** A line that greets, then plays hold music until someone hangs up. */
const HOLD_LINE = '+13125550177';
const HOLD_SCRIPT = {
  ringMs: 20,
  start: 'greet',
  nodes: {
    greet: {
      play: [{ kind: 'ivr' as const, text: 'Please hold for the next available agent.' }],
      then: 'queue',
    },
    queue: { play: [{ kind: 'music' as const, ms: 1000 }], loop: true },
  },
};

const PASSWORDS = { sam: 'sam desk password 1', riley: 'riley desk password 1' } as const;

/** The minted token and the ids of listed tokens, read from the page's markup. */
function mintedToken(html: string): string | undefined {
  return /<code id="minted-token">(hd_pat_[A-Za-z0-9_-]{43})<\/code>/.exec(html)?.[1];
}
function tokenIds(html: string): string[] {
  return [...html.matchAll(/data-token-id="([^"]+)"/g)].map((m) => m[1]!);
}

/** An MCP initialize request, to see how `/staff/mcp` answers a token. */
function initialize(url: string, token: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
}

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason)(`desk gateway pages on ${dialect.name}`, () => {
    let harness: GatewayHarness;
    let sam: DeskClient;
    let riley: DeskClient;
    const url = () => harness.server.url;

    beforeAll(async () => {
      harness = await startGateway(dialect, {
        settings: { ...DESK_SETTINGS, maxConcurrentCalls: '5' },
        carrier: { scripts: { [HOLD_LINE]: HOLD_SCRIPT } },
      });
      const accounts = staffAccounts(harness.store.db, harness.officeId);
      for (const [username, password] of Object.entries(PASSWORDS)) {
        await accounts.insert({
          username,
          display_name: username.replace(/^./, (c) => c.toUpperCase()),
          role: 'staff',
          password_hash: await hashPassword(password),
          created_at: new Date().toISOString(),
          disabled_at: null,
        });
      }
      sam = await DeskClient.signIn(url(), 'sam', PASSWORDS.sam);
      riley = await DeskClient.signIn(url(), 'riley', PASSWORDS.riley);
    });

    afterAll(async () => {
      await harness?.dispose();
    });

    describe('personal access tokens', () => {
      it('mints a token shown once, stores only its hash, and it works on /staff/mcp until revoked', async () => {
        const empty = await sam.fetch('/desk/tokens');
        expect(empty.status).toBe(200);
        const emptyHtml = await empty.text();
        expect(emptyHtml).toContain('You have no tokens.');
        expect(emptyHtml).toContain('href="/desk/tokens"');
        expect(emptyHtml).toContain('href="/desk/calls"');

        const minted = await sam.form('/desk/tokens', { name: 'laptop assistant', expires_in_days: '30' });
        expect(minted.status).toBe(200);
        expect(minted.headers.get('cache-control')).toBe('no-store');
        const html = await minted.text();
        const token = mintedToken(html);
        expect(token).toMatch(/^hd_pat_/);
        expect(html).toContain('laptop assistant');

        // Shown once: the list afterwards has the token's name but never the token.
        const listed = await (await sam.fetch('/desk/tokens')).text();
        expect(listed).toContain('laptop assistant');
        expect(listed).not.toContain(token);
        expect(listed).toContain('never');
        const [id] = tokenIds(listed);

        const rows = await harness.store.db.selectFrom('personal_access_tokens').selectAll().execute();
        const row = rows.find((r) => r.id === id)!;
        expect(row).toMatchObject({
          staff_username: 'sam',
          name: 'laptop assistant',
          token_hash: sha256Hex(token!),
        });
        expect(JSON.stringify(rows)).not.toContain(token);
        const days = (Date.parse(row.expires_at) - Date.parse(row.created_at)) / 86_400_000;
        expect(days).toBe(30);

        const client = await connectClient(`${url()}/staff/mcp`, token);
        expect(await staffTool(client, 'gateway_status')).toMatchObject({ ok: true });
        await client.close();
        const used = await (await sam.fetch('/desk/tokens')).text();
        expect(used).not.toContain('>never<');

        // Another staff member cannot revoke it, nor even see it.
        const foreign = await riley.form(`/desk/tokens/${id}/revoke`, {});
        expect(foreign.status).toBe(404);
        expect(tokenIds(await foreign.text())).toEqual([]);
        expect((await initialize(`${url()}/staff/mcp`, token!)).status).toBe(200);

        const revoked = await sam.form(`/desk/tokens/${id}/revoke`, {});
        expect(revoked.status).toBe(200);
        expect(await revoked.text()).toContain('revoked');
        expect((await initialize(`${url()}/staff/mcp`, token!)).status).toBe(401);
        const again = await sam.form(`/desk/tokens/${id}/revoke`, {});
        expect(again.status).toBe(409);
      });

      it('refuses bad names and expiries', async () => {
        for (const fields of [
          { name: '', expires_in_days: '30' },
          { name: 'ok', expires_in_days: '0' },
          { name: 'ok', expires_in_days: '366' },
          { name: 'ok', expires_in_days: 'soon' },
        ]) {
          const response = await sam.form('/desk/tokens', fields);
          expect(response.status).toBe(400);
          expect(mintedToken(await response.text())).toBeUndefined();
        }
      });

      it('refuses both token forms without the session CSRF token or from another origin', async () => {
        const before = await harness.store.db.selectFrom('personal_access_tokens').selectAll().execute();
        const bad = await sam.form('/desk/tokens', { name: 'forged', csrf_token: 'x'.repeat(43) });
        expect(bad.status).toBe(403);
        const cross = await sam.form('/desk/tokens', { name: 'forged' }, { origin: 'https://evil.example' });
        expect(cross.status).toBe(403);
        const rileys = await riley.form('/desk/tokens', { name: 'forged', csrf_token: sam.csrf });
        expect(rileys.status).toBe(403);
        expect(await harness.store.db.selectFrom('personal_access_tokens').selectAll().execute()).toEqual(
          before,
        );

        const minted = mintedToken(await (await sam.form('/desk/tokens', { name: 'kept' })).text())!;
        const id = tokenIds(await (await sam.fetch('/desk/tokens')).text())[0]!;
        const forged = await sam.form(`/desk/tokens/${id}/revoke`, { csrf_token: '' });
        expect(forged.status).toBe(403);
        expect((await initialize(`${url()}/staff/mcp`, minted)).status).toBe(200);
      });

      it('sends signed-out visitors to the sign-in page', async () => {
        const anonymous = new DeskClient(url());
        for (const path of ['/desk/tokens', '/desk/calls']) {
          const response = await anonymous.fetch(path);
          expect(response.status).toBe(303);
          expect(response.headers.get('location')).toBe('/desk/login');
        }
        expect((await anonymous.form('/desk/tokens', { name: 'x' })).status).toBe(303);
        expect((await anonymous.fetch('/desk/partials/calls')).status).toBe(401);
      });
    });

    describe('calls', () => {
      let token: string;

      beforeAll(async () => {
        token = mintedToken(await (await sam.form('/desk/tokens', { name: 'calls assistant' })).text())!;
        const device = await fetch(`${url()}/api/devices`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Desk phone', kind: 'sip', address: DESK_PHONE }),
        });
        expect(device.status).toBe(201);
      });

      async function placeHoldCall(): Promise<string> {
        const client = await connectClient(`${url()}/staff/mcp`, token);
        try {
          const placed = await staffTool(client, 'make_call', {
            number: HOLD_LINE,
            mode: 'hold_slayer',
            intent: 'ask about the <b>invoice</b>',
          });
          expect(placed.ok).toBe(true);
          return placed.call_id as string;
        } finally {
          await client.close();
        }
      }

      async function statusOf(callId: string): Promise<string> {
        const response = await fetch(`${url()}/api/calls/${callId}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        return ((await response.json()) as { status: string }).status;
      }

      it('lists a live call with its status, hold time and transcript, and hangs it up', async () => {
        const callId = await placeHoldCall();
        const html = await eventually(async () => {
          const page = await (await sam.fetch('/desk/calls')).text();
          return page.includes('on hold') && page.includes('Please hold for the next') ? page : undefined;
        });
        expect(html).toContain(`data-call-id="${callId}"`);
        expect(html).toContain(HOLD_LINE);
        expect(html).toContain('ask about the &lt;b&gt;invoice&lt;/b&gt;');
        expect(html).toMatch(/class="hold-time">\d+:\d\d</);
        expect(html).toContain('Desk phone');
        const partial = await sam.fetch('/desk/partials/calls');
        expect(partial.status).toBe(200);
        expect(await partial.text()).toContain(`data-call-id="${callId}"`);

        // Someone else's call: the gateway's rule (placer or admin) holds on the desk too.
        const foreign = await riley.form(`/desk/calls/${callId}/hangup`, {});
        expect(foreign.status).toBe(403);
        const forged = await sam.form(`/desk/calls/${callId}/hangup`, { csrf_token: riley.csrf });
        expect(forged.status).toBe(403);
        expect(await statusOf(callId)).toBe('on_hold');

        const ended = await sam.form(`/desk/calls/${callId}/hangup`, {});
        expect(ended.status).toBe(200);
        expect(await ended.text()).toContain('was hung up');
        await eventually(async () => ((await statusOf(callId)) === 'ended' ? true : undefined));
        const after = await (await sam.fetch('/desk/calls')).text();
        expect(after).not.toContain(`data-call-id="${callId}"`);
        expect((await sam.form(`/desk/calls/${callId}/hangup`, {})).status).toBe(409);
        expect((await sam.form('/desk/calls/call_missing/hangup', {})).status).toBe(404);
      });

      it('transfers a call on hold to one of the staff member’s devices', async () => {
        const callId = await placeHoldCall();
        await eventually(async () => ((await statusOf(callId)) === 'on_hold' ? true : undefined));
        expect((await sam.form(`/desk/calls/${callId}/transfer`, { device: 'no such phone' })).status).toBe(
          404,
        );
        expect((await sam.form(`/desk/calls/${callId}/transfer`, {})).status).toBe(400);
        const forged = await sam.form(`/desk/calls/${callId}/transfer`, {
          device: 'Desk phone',
          csrf_token: 'y'.repeat(43),
        });
        expect(forged.status).toBe(403);
        expect(await statusOf(callId)).toBe('on_hold');

        const moved = await sam.form(`/desk/calls/${callId}/transfer`, { device: 'Desk phone' });
        expect(moved.status).toBe(200);
        expect(await moved.text()).toContain('is being transferred');
        await eventually(async () => ((await statusOf(callId)) === 'bridged' ? true : undefined));
        expect(harness.carrier.legs.find((c) => c.to === HOLD_LINE && c.bridgedTo)?.bridgedTo).toBe(
          DESK_PHONE,
        );
        expect((await sam.form(`/desk/calls/${callId}/hangup`, {})).status).toBe(200);
      });
    });
  });
}
