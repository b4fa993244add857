import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditTrail } from '../../src/store/audit.js';
import { DIALECTS } from '../support/databases.js';
import { openWebSocket } from '../support/websocket-client.js';
import {
  BANK,
  BANK_FLOW,
  BANK_SCRIPT,
  DESK_PHONE,
  eventually,
  startGateway,
  type GatewayHarness,
} from './support.js';

const HOLD_LINE = '+13125550199';

type Json = Record<string, unknown>;

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason)(`gateway REST API on ${dialect.name}`, () => {
    let harness: GatewayHarness;
    let token: string;
    let api: (
      path: string,
      init?: RequestInit & { json?: unknown },
    ) => Promise<{ status: number; body: Json }>;

    beforeAll(async () => {
      harness = await startGateway(dialect, {
        carrier: {
          scripts: {
            [BANK]: BANK_SCRIPT,
            [HOLD_LINE]: {
              ringMs: 20,
              start: 'q',
              nodes: { q: { play: [{ kind: 'music', ms: 500 }], loop: true } },
            },
          },
        },
      });
      token = await harness.staffToken('sam');
      api = async (path, init = {}) => {
        const { json, ...rest } = init;
        const response = await fetch(`${harness.server.url}/api${path}`, {
          ...rest,
          headers: {
            authorization: `Bearer ${token}`,
            ...(json === undefined ? {} : { 'content-type': 'application/json' }),
            ...(rest.headers as Record<string, string> | undefined),
          },
          ...(json === undefined ? {} : { body: JSON.stringify(json) }),
        });
        const text = await response.text();
        return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Json) };
      };
    });

    afterAll(async () => {
      await harness?.dispose();
    });

    describe('access', () => {
      it('answers 401 without a staff token', async () => {
        for (const path of [
          '/gateway/status',
          '/calls',
          '/calls/call_x',
          '/call-flows',
          '/devices',
          '/tokens',
        ]) {
          const response = await fetch(`${harness.server.url}/api${path}`);
          expect(response.status).toBe(401);
        }
        const wrong = await fetch(`${harness.server.url}/api/calls`, {
          headers: { authorization: 'Bearer hd_pat_nope' },
        });
        expect(wrong.status).toBe(401);
      });

      it('refuses unknown Host and Origin headers (DNS rebinding)', async () => {
        const origin = await api('/gateway/status', { headers: { origin: 'https://evil.example' } });
        expect(origin.status).toBe(403);
      });
    });

    describe('calls', () => {
      it('places a call, shows it, lists it as active, and hangs it up', async () => {
        const placed = await api('/calls', {
          method: 'POST',
          json: { number: HOLD_LINE, mode: 'hold_slayer' },
        });
        expect(placed).toMatchObject({ status: 201, body: { status: 'initiating', placed_by: 'sam' } });
        const id = placed.body.call_id as string;
        expect(await api(`/calls/${id}`)).toMatchObject({
          status: 200,
          body: { call_id: id, recent_transcript: [] },
        });
        await eventually(async () =>
          (await api(`/calls/${id}`)).body.status === 'on_hold' ? true : undefined,
        );
        const active = await api('/calls?active=true');
        expect((active.body.calls as Json[]).map((c) => c.call_id)).toEqual([id]);
        expect(await api(`/calls/${id}/summary`)).toMatchObject({
          status: 409,
          body: { error: 'call_not_completed' },
        });
        const hung = await api(`/calls/${id}/hangup`, { method: 'POST' });
        expect(hung).toMatchObject({ status: 200, body: { status: 'ended', end_reason: 'hung_up' } });
        expect(await api(`/calls/${id}/hangup`, { method: 'POST' })).toMatchObject({
          status: 409,
          body: { error: 'call_not_active' },
        });
        expect(await api(`/calls/${id}/summary`)).toMatchObject({
          status: 200,
          body: { action_items: [expect.stringContaining('no person was reached') as string] },
        });
        expect(await api(`/calls/${id}/recording`)).toMatchObject({
          status: 404,
          body: { error: 'no_recording' },
        });
        const entries = await auditTrail(harness.store.db, harness.officeId, harness.store.dialect).list({
          targetId: id,
        });
        expect(entries.map((e) => [e.action, e.actor_id])).toEqual([
          ['call.hung_up', 'sam'],
          ['call.placed', 'sam'],
        ]);
      });

      it('answers refusals with a status and a code', async () => {
        expect(await api('/calls', { method: 'POST', json: { number: '+44 999' } })).toMatchObject({
          status: 400,
          body: { error: 'emergency_number', message: expect.any(String) as string },
        });
        expect(await api('/calls', { method: 'POST', json: { number: BANK, mode: 'turbo' } })).toMatchObject({
          status: 400,
          body: { error: 'invalid_request' },
        });
        expect(await api('/calls', { method: 'POST', json: { number: BANK, extra: 1 } })).toMatchObject({
          status: 400,
          body: { error: 'invalid_request' },
        });
        expect(
          await api('/calls', {
            method: 'POST',
            body: 'number=911',
            headers: { 'content-type': 'text/plain' },
          }),
        ).toMatchObject({ status: 415 });
        expect(
          await api('/calls', { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } }),
        ).toMatchObject({
          status: 400,
          body: { error: 'invalid_json' },
        });
        expect(await api('/calls/call_missing')).toMatchObject({ status: 404, body: { error: 'not_found' } });
        expect(await api('/calls?limit=500')).toMatchObject({ status: 400 });
      });
    });

    describe('call flows', () => {
      it('creates one flow per number and finds it by number or id', async () => {
        const created = await api('/call-flows', {
          method: 'POST',
          json: { name: 'Acme Bank', phone_number: '+1 312 555 0100', steps: BANK_FLOW },
        });
        expect(created).toMatchObject({
          status: 201,
          body: { phone_number: BANK, version: 1, steps: BANK_FLOW },
        });
        expect(await api(`/call-flows?phone_number=${encodeURIComponent(BANK)}`)).toMatchObject({
          status: 200,
          body: { call_flow_id: created.body.call_flow_id },
        });
        expect(await api(`/call-flows/${created.body.call_flow_id as string}`)).toMatchObject({
          status: 200,
        });
        expect(
          await api('/call-flows', {
            method: 'POST',
            json: { name: 'Again', phone_number: BANK, steps: BANK_FLOW },
          }),
        ).toMatchObject({
          status: 409,
          body: { error: 'flow_exists', call_flow_id: created.body.call_flow_id },
        });
        expect(await api('/call-flows')).toMatchObject({
          status: 200,
          body: { call_flows: [expect.anything()] },
        });
      });

      it('refuses invalid steps and flows for numbers that cannot be dialled', async () => {
        expect(
          await api('/call-flows', {
            method: 'POST',
            json: {
              name: 'X',
              phone_number: '+13125550123',
              steps: [{ expect: 'menu', press: '2', say: 'two' }],
            },
          }),
        ).toMatchObject({
          status: 400,
          body: { error: 'invalid_call_flow', message: expect.stringContaining('step 1') as string },
        });
        expect(
          await api('/call-flows', {
            method: 'POST',
            json: { name: 'X', phone_number: '911', steps: [{ wait: 1 }] },
          }),
        ).toMatchObject({ status: 400, body: { error: 'emergency_number' } });
        expect(
          await api('/call-flows', {
            method: 'POST',
            json: { name: 'X', phone_number: '+13125550124', steps: [{ press: '123456789' }] },
          }),
        ).toMatchObject({ status: 400, body: { error: 'sensitive_number' } });
        expect(await api('/call-flows?phone_number=%2B13125550188')).toMatchObject({ status: 404 });
      });
    });

    describe('devices', () => {
      it("adds, lists and removes the staff member's own devices", async () => {
        const phone = await api('/devices', {
          method: 'POST',
          json: { name: 'Mobile', kind: 'phone', address: '+1 (312) 555-0177' },
        });
        expect(phone).toMatchObject({
          status: 201,
          body: { kind: 'phone', address: '+13125550177', staff: 'sam', online: true },
        });
        const sip = await api('/devices', {
          method: 'POST',
          json: { name: 'Desk', kind: 'sip', address: DESK_PHONE },
        });
        expect(sip).toMatchObject({ status: 201, body: { online: true } });
        expect(
          await api('/devices', {
            method: 'POST',
            json: { name: 'Again', kind: 'sip', address: DESK_PHONE },
          }),
        ).toMatchObject({
          status: 409,
          body: { error: 'device_exists' },
        });
        expect(
          await api('/devices', { method: 'POST', json: { name: 'Bad', kind: 'sip', address: 'desk' } }),
        ).toMatchObject({
          status: 400,
          body: { error: 'invalid_device' },
        });
        expect(
          await api('/devices', { method: 'POST', json: { name: 'Bad', kind: 'phone', address: '112' } }),
        ).toMatchObject({
          status: 400,
          body: { error: 'emergency_number' },
        });
        const alex = await harness.staffToken('alex');
        const removeAsAlex = await fetch(
          `${harness.server.url}/api/devices/${phone.body.device_id as string}`,
          {
            method: 'DELETE',
            headers: { authorization: `Bearer ${alex}` },
          },
        );
        expect(removeAsAlex.status).toBe(404);
        expect(await api(`/devices/${phone.body.device_id as string}`, { method: 'DELETE' })).toMatchObject({
          status: 200,
          body: { removed: true },
        });
        expect((await api('/devices?mine=true')).body.devices).toEqual([
          expect.objectContaining({ name: 'Desk' }),
        ]);
      });

      it('transfers a call to a device on request', async () => {
        const placed = await api('/calls', {
          method: 'POST',
          json: { number: HOLD_LINE, mode: 'hold_slayer' },
        });
        const id = placed.body.call_id as string;
        await eventually(async () =>
          (await api(`/calls/${id}`)).body.status === 'on_hold' ? true : undefined,
        );
        expect(
          await api(`/calls/${id}/transfer`, { method: 'POST', json: { device: 'nothing' } }),
        ).toMatchObject({
          status: 404,
          body: { error: 'unknown_device' },
        });
        expect(await api(`/calls/${id}/transfer`, { method: 'POST', json: { device: 'sip' } })).toMatchObject(
          { status: 200 },
        );
        await eventually(async () =>
          (await api(`/calls/${id}`)).body.status === 'bridged' ? true : undefined,
        );
        await api(`/calls/${id}/hangup`, { method: 'POST' });
        expect(await api(`/calls/${id}`)).toMatchObject({
          body: { status: 'ended', end_reason: 'completed' },
        });
      });
    });

    describe('tokens', () => {
      it('lists your tokens without secrets, refuses to mint with a token, and revokes', async () => {
        const own = await harness.staffToken('tia');
        const as = (t: string) => ({ authorization: `Bearer ${t}` });
        const listed = await fetch(`${harness.server.url}/api/tokens`, { headers: as(own) }).then(
          (r) => r.json() as Promise<Json>,
        );
        const tokens = listed.tokens as Json[];
        expect(tokens).toEqual([expect.objectContaining({ staff: 'tia', state: 'active' })]);
        expect(JSON.stringify(listed)).not.toMatch(/hd_pat_|token_hash/);
        const mint = await fetch(`${harness.server.url}/api/tokens`, {
          method: 'POST',
          headers: { ...as(own), 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'another' }),
        });
        expect(mint.status).toBe(403);
        expect(await mint.json()).toMatchObject({ error: 'session_required' });
        const foreign = await fetch(`${harness.server.url}/api/tokens/${tokens[0]!.token_id as string}`, {
          method: 'DELETE',
          headers: as(token),
        });
        expect(foreign.status).toBe(404);
        const revoked = await fetch(`${harness.server.url}/api/tokens/${tokens[0]!.token_id as string}`, {
          method: 'DELETE',
          headers: as(own),
        });
        expect(revoked.status).toBe(200);
        expect((await fetch(`${harness.server.url}/api/tokens`, { headers: as(own) })).status).toBe(401);
      });
    });

    describe('the event stream', () => {
      it('needs a staff token and a WebSocket', async () => {
        expect((await openWebSocket(`${harness.server.url}/api/events`)).status).toBe(401);
        expect(
          (await openWebSocket(`${harness.server.url}/api/events`, { authorization: 'Bearer hd_pat_x' }))
            .status,
        ).toBe(401);
        expect(
          (
            await openWebSocket(`${harness.server.url}/api/events`, {
              authorization: `Bearer ${token}`,
              origin: 'https://evil.example',
            })
          ).status,
        ).toBe(403);
        expect(await api('/events')).toMatchObject({ status: 426, body: { error: 'upgrade_required' } });
      });

      it('sends a snapshot, then only the events of the call it was asked for', async () => {
        const first = await api('/calls', {
          method: 'POST',
          json: { number: HOLD_LINE, mode: 'hold_slayer' },
        });
        const firstId = first.body.call_id as string;
        const stream = await openWebSocket(`${harness.server.url}/api/events?call_id=${firstId}`, {
          authorization: `Bearer ${token}`,
        });
        expect(stream.status).toBe(101);
        const hello = (await stream.next((m) => (m as Json).type === 'hello')) as { active_calls: Json[] };
        expect(hello.active_calls.map((c) => c.call_id)).toEqual([firstId]);
        const second = await api('/calls', {
          method: 'POST',
          json: { number: HOLD_LINE, mode: 'hold_slayer' },
        });
        await api(`/calls/${second.body.call_id as string}/hangup`, { method: 'POST' });
        await api(`/calls/${firstId}/hangup`, { method: 'POST' });
        await stream.next((m) => (m as { call?: Json }).call?.status === 'ended');
        const ids = new Set(
          (stream.messages as { call?: Json; call_id?: string }[])
            .filter((m) => m.call !== undefined || m.call_id !== undefined)
            .map((m) => m.call?.call_id ?? m.call_id),
        );
        expect(ids).toEqual(new Set([firstId]));
        await stream.close();
      });
    });
  });
}

describe('stopping the server', () => {
  it('closes open event streams with "going away" instead of waiting for them', async () => {
    const harness = await startGateway(DIALECTS[0]!);
    const token = await harness.staffToken('sam');
    const stream = await openWebSocket(`${harness.server.url}/api/events`, {
      authorization: `Bearer ${token}`,
    });
    await stream.next((m) => (m as Json).type === 'hello');
    const started = Date.now();
    await harness.dispose();
    expect((await stream.closed).code).toBe(1001);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
