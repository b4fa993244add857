import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditTrail } from '../../src/store/audit.js';
import { DIALECTS } from '../support/databases.js';
import { connectClient } from '../support/server.js';
import { openWebSocket, type TestWebSocket } from '../support/websocket-client.js';
import {
  BANK,
  BANK_FLOW,
  BANK_SCRIPT,
  DESK_PHONE,
  eventually,
  staffTool,
  startGateway,
  untilEnded,
  type GatewayHarness,
} from './support.js';

const HOLD_MUSIC_LINE = {
  ringMs: 20,
  start: 'queue',
  nodes: { queue: { play: [{ kind: 'music' as const, ms: 1000 }], loop: true } },
};

type Message = {
  type: string;
  call?: { call_id: string; status: string };
  call_id?: string;
  line?: { text: string };
};

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason)(`call gateway on ${dialect.name}`, () => {
    let harness: GatewayHarness;
    let sam: Client;
    let samToken: string;

    beforeAll(async () => {
      harness = await startGateway(dialect, {
        carrier: { scripts: { [BANK]: BANK_SCRIPT, '+13125550199': HOLD_MUSIC_LINE } },
        settings: { maxConcurrentCalls: '2', dailyCallLimit: '50' },
      });
      samToken = await harness.staffToken('sam');
      sam = await connectClient(`${harness.server.url}/staff/mcp`, samToken);
      const device = await fetch(`${harness.server.url}/api/devices`, {
        method: 'POST',
        headers: { authorization: `Bearer ${samToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Desk phone', kind: 'sip', address: DESK_PHONE }),
      });
      expect(device.status).toBe(201);
    });

    afterAll(async () => {
      await sam?.close();
      await harness?.dispose();
    });

    describe('a hold_slayer call with a stored flow', () => {
      let stream: TestWebSocket;
      let callId: string;

      beforeAll(async () => {
        stream = await openWebSocket(`${harness.server.url}/api/events`, {
          authorization: `Bearer ${samToken}`,
        });
        await stream.next((m) => (m as Message).type === 'hello');
        const flow = await staffTool(sam, 'create_call_flow', {
          name: 'Acme Bank billing',
          phone_number: BANK,
          steps_json: JSON.stringify(BANK_FLOW),
        });
        expect(flow.ok).toBe(true);
        const placed = await staffTool(sam, 'make_call', {
          number: '+1 (312) 555-0100',
          mode: 'hold_slayer',
          intent: 'dispute the Amazon charge from December 15th',
        });
        expect(placed).toMatchObject({ ok: true, status: 'initiating' });
        callId = placed.call_id as string;
        await untilEnded(sam, callId);
      });

      afterAll(async () => {
        await stream?.close();
      });

      it('goes through IVR, hold, a person and the transfer, and completes', async () => {
        const status = await staffTool(sam, 'get_call_status', { call_id: callId });
        expect(status.call).toMatchObject({
          call_id: callId,
          number: BANK,
          status: 'ended',
          end_reason: 'completed',
          placed_by: 'sam',
          call_flow_id: expect.stringMatching(/^flow_/) as string,
        });
        const events = await fetch(`${harness.server.url}/api/calls/${callId}/events`, {
          headers: { authorization: `Bearer ${samToken}` },
        }).then(
          (r) =>
            r.json() as Promise<{
              events: { seq: number; kind: string; details: Record<string, unknown> }[];
            }>,
        );
        const statuses = events.events.filter((e) => e.kind === 'status').map((e) => e.details.status);
        expect(statuses).toEqual([
          'initiating',
          'ringing',
          'connected',
          'ivr',
          'on_hold',
          'human_detected',
          'transferring',
          'bridged',
          'ended',
        ]);
        expect(events.events.map((e) => e.seq)).toEqual(events.events.map((_, i) => i + 1));
        const pressed = events.events
          .filter((e) => e.kind === 'dtmf')
          .map((e) => [e.details.digits, e.details.source]);
        expect(pressed).toEqual([
          ['2', 'flow'],
          ['12345678#', 'flow'],
        ]);
        expect(harness.carrier.legs.at(-1)).toMatchObject({
          to: BANK,
          dtmf: ['2', '12345678#'],
          bridgedTo: DESK_PHONE,
        });
      });

      it('streams the status changes and transcript over the WebSocket in order', () => {
        const mine = stream.messages as Message[];
        const statuses = mine
          .filter((m) => m.type === 'call.status' && m.call?.call_id === callId)
          .map((m) => m.call!.status)
          .filter((s, i, all) => i === 0 || all[i - 1] !== s);
        expect(statuses).toEqual([
          'initiating',
          'ringing',
          'connected',
          'ivr',
          'on_hold',
          'human_detected',
          'transferring',
          'bridged',
          'ended',
        ]);
        const lines = mine
          .filter((m) => m.type === 'call.transcript' && m.call_id === callId)
          .map((m) => m.line!.text);
        expect(lines[0]).toBe('Thank you for calling Acme Bank. Calls may be recorded.');
        expect(lines).toContain('Hi, this is Dana in billing. How can I help you today?');
      });

      it('keeps the transcript, the recording and a summary', async () => {
        const transcript = await staffTool(sam, 'get_call_transcript', { call_id: callId });
        const lines = transcript.lines as { speaker: string; text: string; offset_ms: number }[];
        expect(lines.map((l) => l.speaker)).toEqual(['ivr', 'ivr', 'ivr', 'ivr', 'agent']);
        expect(lines.map((l) => l.offset_ms)).toEqual(
          [...lines.map((l) => l.offset_ms)].sort((a, b) => a - b),
        );
        const recording = await staffTool(sam, 'get_call_recording', { call_id: callId });
        expect(recording).toMatchObject({
          ok: true,
          format: 'audio/wav',
          location: expect.stringContaining('scripted://') as string,
        });
        const summary = await staffTool(sam, 'get_call_summary', { call_id: callId });
        expect(summary).toMatchObject({ ok: true, sentiment: 'neutral' });
        expect(summary.summary).toContain('Pressed 2, 12345678#');
        expect(summary.summary).toContain('Connected to Desk phone');
      });

      it('puts the call on the audit trail as placed by the token holder', async () => {
        const entries = await auditTrail(harness.store.db, harness.officeId, harness.store.dialect).list({
          targetId: callId,
        });
        expect(entries).toEqual([
          expect.objectContaining({
            action: 'call.placed',
            actor_kind: 'staff',
            actor_id: 'sam',
            details: expect.objectContaining({
              number: BANK,
              via: 'pat',
              credential_id: expect.stringMatching(/^pat_/) as string,
            }) as object,
          }),
        ]);
      });
    });

    describe('an exploration call and learn_call_flow', () => {
      const OTHER_BANK = '+13125550111';
      let explorationId: string;

      beforeAll(async () => {
        // The same bank on another number, with no stored flow: the staff member navigates by hand.
        harness.carrier.addScript(OTHER_BANK, BANK_SCRIPT);
        const placed = await staffTool(sam, 'make_call', { number: OTHER_BANK, mode: 'hold_slayer' });
        explorationId = placed.call_id as string;
        const transcript = async (text: string) =>
          eventually(async () => {
            const t = await staffTool(sam, 'get_call_transcript', { call_id: explorationId });
            return (t.lines as { text: string }[]).some((l) => l.text.includes(text)) ? true : undefined;
          });
        await transcript('For billing, press 2');
        expect(await staffTool(sam, 'send_dtmf', { call_id: explorationId, digits: '2' })).toMatchObject({
          ok: true,
        });
        await transcript('account number');
        for (const key of ['1234', '5678', '#']) {
          expect(await staffTool(sam, 'send_dtmf', { call_id: explorationId, digits: key })).toMatchObject({
            ok: true,
          });
        }
        await untilEnded(sam, explorationId);
      });

      it('learns the menu path, which get_call_flow then returns', async () => {
        const learned = await staffTool(sam, 'learn_call_flow', {
          call_id: explorationId,
          company_name: 'Acme Bank (east)',
        });
        expect(learned).toMatchObject({
          ok: true,
          changed: true,
          name: 'Acme Bank (east)',
          version: 1,
          source: 'learned',
        });
        const flow = await staffTool(sam, 'get_call_flow', { phone_number: OTHER_BANK });
        expect(flow).toMatchObject({
          ok: true,
          call_flow_id: learned.call_flow_id,
          learned_from_call_id: explorationId,
        });
        expect(flow.steps).toEqual([
          { expect: 'for billing press 2', press: '2' },
          { expect: 'please enter your account number followed by pound', press: '12345678#' },
        ]);
        const again = await staffTool(sam, 'learn_call_flow', { call_id: explorationId });
        expect(again).toMatchObject({ ok: true, changed: false, version: 1 });
      });

      it('lets the next call to the number navigate on its own', async () => {
        const placed = await staffTool(sam, 'make_call', { number: OTHER_BANK, mode: 'hold_slayer' });
        const call = await untilEnded(sam, placed.call_id as string);
        expect(call).toMatchObject({
          end_reason: 'completed',
          call_flow_id: expect.stringMatching(/^flow_/) as string,
        });
        expect(harness.carrier.legs.at(-1)?.dtmf).toEqual(['2', '12345678#']);
      });

      it('refuses to learn from a direct call, a call in progress and an unknown call', async () => {
        const live = await staffTool(sam, 'make_call', { number: '+13125550199', mode: 'hold_slayer' });
        expect(await staffTool(sam, 'learn_call_flow', { call_id: live.call_id })).toMatchObject({
          ok: false,
          error: { code: 'call_not_completed' },
        });
        expect(await staffTool(sam, 'hangup', { call_id: live.call_id })).toMatchObject({
          ok: true,
          call: { status: 'ended', end_reason: 'hung_up' },
        });
        expect(await staffTool(sam, 'learn_call_flow', { call_id: live.call_id })).toMatchObject({
          ok: false,
          error: { code: 'exploration_incomplete' },
        });
        const direct = await staffTool(sam, 'make_call', { number: BANK });
        await untilEnded(sam, direct.call_id as string);
        expect(await staffTool(sam, 'learn_call_flow', { call_id: direct.call_id })).toMatchObject({
          ok: false,
          error: { code: 'not_an_exploration_call' },
        });
        expect(await staffTool(sam, 'learn_call_flow', { call_id: 'call_nonexistent' })).toMatchObject({
          ok: false,
          error: { code: 'not_found' },
        });
      });
    });

    describe('history', () => {
      it('searches by part of the number and of the intent, newest first, with a limit', async () => {
        const byNumber = await staffTool(sam, 'search_call_history', { phone_number: '555-0100' });
        const numbers = (byNumber.calls as { number: string }[]).map((c) => c.number);
        expect(numbers.length).toBeGreaterThanOrEqual(2);
        expect(new Set(numbers)).toEqual(new Set([BANK]));
        const byIntent = await staffTool(sam, 'search_call_history', { intent: 'AMAZON charge' });
        expect((byIntent.calls as { intent: string }[]).map((c) => c.intent)).toEqual([
          'dispute the Amazon charge from December 15th',
        ]);
        const none = await staffTool(sam, 'search_call_history', { intent: '100%_' });
        expect(none.calls).toEqual([]);
        const limited = await staffTool(sam, 'search_call_history', { limit: 1 });
        const all = await staffTool(sam, 'search_call_history', { limit: 100 });
        expect(limited.calls).toEqual([(all.calls as unknown[])[0]]);
        const created = (all.calls as { created_at: string }[]).map((c) => c.created_at);
        expect(created).toEqual([...created].sort().reverse());
      });
    });

    describe('refusals', () => {
      const EMERGENCY = [
        '911',
        '9 1 1',
        '9-1-1',
        '1-911',
        '+1911',
        '+1 911',
        '+1 (911) 555-0100',
        '+1 312 911 0100',
        '112',
        '+44 112',
        '+44 999',
        '999',
        '+61 000',
        '000',
        '+49 110',
        '0049 110',
        '110',
        '+81 119',
        '118',
        '122',
        '+33 15',
        '17',
        '18',
        '08',
        '011 1 911',
        '988',
      ];

      it.each(EMERGENCY)('refuses the emergency number %s', async (number) => {
        const result = await staffTool(sam, 'make_call', { number });
        expect(result).toMatchObject({ ok: false, error: { code: 'emergency_number' } });
      });

      it.each([
        '555-0134',
        '3125550134',
        '+0 312 555 0134',
        '+1 312 555 01',
        '+1 112 555 0134',
        'call mom',
        '+44 20 7946 0958 1234',
      ])('refuses %s, which is not E.164', async (number) => {
        expect(await staffTool(sam, 'make_call', { number })).toMatchObject({
          ok: false,
          error: { code: 'invalid_number' },
        });
      });

      it.each([
        '+1 900 555 0134',
        '+1 312 976 1234',
        '+44 909 879 0000',
        '+61 1902 123 456',
        '+881 6 1234 5678',
      ])('refuses the premium-rate number %s', async (number) => {
        expect(await staffTool(sam, 'make_call', { number })).toMatchObject({
          ok: false,
          error: { code: 'premium_rate_number' },
        });
      });

      it.each(['411', '611', '211', '+1 411'])('refuses the short code %s', async (number) => {
        expect(await staffTool(sam, 'make_call', { number })).toMatchObject({
          ok: false,
          error: { code: 'short_code' },
        });
      });

      it('refuses ai_assisted calls without an intent, unknown flows and devices, and sensitive intents', async () => {
        expect(await staffTool(sam, 'make_call', { number: BANK, mode: 'ai_assisted' })).toMatchObject({
          error: { code: 'intent_required' },
        });
        expect(
          await staffTool(sam, 'make_call', {
            number: BANK,
            mode: 'hold_slayer',
            call_flow_id: 'flow_missing',
          }),
        ).toMatchObject({
          error: { code: 'not_found' },
        });
        expect(await staffTool(sam, 'make_call', { number: BANK, device: 'pager' })).toMatchObject({
          error: { code: 'unknown_device' },
        });
        expect(
          await staffTool(sam, 'make_call', {
            number: BANK,
            mode: 'hold_slayer',
            intent: 'pay with 4111 1111 1111 1111',
          }),
        ).toMatchObject({ error: { code: 'sensitive_number' } });
        expect(await staffTool(sam, 'make_call', { number: BANK, call_flow_id: 'flow_x' })).toMatchObject({
          error: { code: 'invalid_mode' },
        });
      });

      it('refuses a call over the concurrency cap, and stores nothing for it', async () => {
        const before = await staffTool(sam, 'search_call_history', { limit: 100 });
        const first = await staffTool(sam, 'make_call', { number: '+13125550199', mode: 'hold_slayer' });
        const second = await staffTool(sam, 'make_call', { number: '+13125550199', mode: 'hold_slayer' });
        expect([first.ok, second.ok]).toEqual([true, true]);
        const third = await staffTool(sam, 'make_call', { number: '+13125550199' });
        expect(third).toMatchObject({
          ok: false,
          error: { code: 'concurrency_limit', active_calls: 2, max_concurrent_calls: 2 },
        });
        const active = await staffTool(sam, 'list_active_calls');
        expect(active.count).toBe(2);
        const after = await staffTool(sam, 'search_call_history', { limit: 100 });
        expect((after.calls as unknown[]).length).toBe((before.calls as unknown[]).length + 2);
        for (const call of [first, second]) {
          expect(await staffTool(sam, 'hangup', { call_id: call.call_id })).toMatchObject({ ok: true });
        }
        expect((await staffTool(sam, 'list_active_calls')).count).toBe(0);
      });

      it('refuses control of calls that have ended or belong to someone else', async () => {
        const alexToken = await harness.staffToken('alex');
        const alex = await connectClient(`${harness.server.url}/staff/mcp`, alexToken);
        try {
          const live = await staffTool(sam, 'make_call', { number: '+13125550199', mode: 'hold_slayer' });
          for (const [tool, args] of [
            ['hangup', {}],
            ['send_dtmf', { digits: '1' }],
            ['transfer_call', { device: 'sip' }],
          ] as const) {
            expect(await staffTool(alex, tool, { call_id: live.call_id, ...args })).toMatchObject({
              ok: false,
              error: { code: 'not_your_call' },
            });
          }
          // Reading is open to every staff member of the office.
          expect(await staffTool(alex, 'get_call_status', { call_id: live.call_id })).toMatchObject({
            ok: true,
          });
          await staffTool(sam, 'hangup', { call_id: live.call_id });
          expect(await staffTool(sam, 'hangup', { call_id: live.call_id })).toMatchObject({
            error: { code: 'call_not_active' },
          });
          expect(await staffTool(sam, 'send_dtmf', { call_id: live.call_id, digits: '1' })).toMatchObject({
            error: { code: 'call_not_active' },
          });
          expect(await staffTool(sam, 'send_dtmf', { call_id: live.call_id, digits: '12x' })).toMatchObject({
            error: { code: 'invalid_digits' },
          });
          expect(await staffTool(sam, 'get_call_status', { call_id: 'call_unknown' })).toMatchObject({
            error: { code: 'not_found' },
          });
        } finally {
          await alex.close();
        }
      });
    });
  });
}
