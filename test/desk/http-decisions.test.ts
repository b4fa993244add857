import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { callTool, connectClient, startTestServer, type TestServer } from '../support/server.js';
import { DESK_SETTINGS, DeskClient, holdArgs, openSlots, type QueueItemJson } from './support.js';

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason !== undefined)(
    `staff desk decisions over HTTP on ${dialect.name}`,
    () => {
      let server: TestServer;
      let mcp: Client;
      let staff: DeskClient;
      let maria: DeskClient;
      const slots = openSlots();

      /** A fresh hold over MCP (a new slot each time) and its request in the queue. */
      async function hold(
        overrides: Record<string, unknown> = {},
      ): Promise<{ appointmentId: string; request: QueueItemJson }> {
        const placed = await callTool(mcp, 'book_appointment', {
          ...holdArgs(slots.next().value),
          ...overrides,
        });
        expect(placed, JSON.stringify(placed)).toMatchObject({ ok: true });
        const appointmentId = placed.appointment_id as string;
        const request = (await staff.approvals()).find(
          (r) => r.appointment?.id === appointmentId && r.kind === 'hold',
        )!;
        return { appointmentId, request };
      }

      beforeAll(async () => {
        server = await startTestServer(dialect, DESK_SETTINGS);
        mcp = await connectClient(server.mcpUrl);
        staff = await DeskClient.signIn(server.url);
        const added = await staff.form('/desk/admin/staff', {
          username: 'maria',
          display_name: 'Maria Chen',
          role: 'staff',
          password: 'maria-password',
        });
        expect(added.status).toBe(200);
        maria = await DeskClient.signIn(server.url, 'maria', 'maria-password');
      });

      afterAll(async () => {
        await mcp.close();
        await server.dispose();
      });

      describe('GET /desk/api/approvals', () => {
        it('lists what waits, with what the caller said and the appointment', async () => {
          const { appointmentId, request } = await hold({ notes: 'Reviewing my home policy' });
          expect(request).toMatchObject({
            kind: 'hold',
            status: 'pending',
            caller_said: 'Reviewing my home policy',
            appointment: {
              id: appointmentId,
              status: 'pending_approval',
              client_name: 'Dana Whitfield',
              contact: '+13125550199',
            },
          });
          await callTool(mcp, 'request_human_approval', {
            action: 'callback',
            summary: 'Call me about bundling',
            urgency: 'high',
          });
          const escalation = (await staff.approvals()).find((r) => r.kind === 'escalation')!;
          expect(escalation).toMatchObject({
            status: 'open',
            caller_said: 'Call me about bundling',
            escalation: { action: 'callback', summary: 'Call me about bundling', urgency: 'high' },
            appointment: null,
          });
        });
      });

      describe('POST /desk/api/approvals/{id}/decision', () => {
        it('approves a hold with the staff member on the record; the caller hears "confirmed" at once', async () => {
          const { appointmentId, request } = await hold();
          const response = await staff.decide(request.id, { decision: 'approve', note: 'See you then' });
          expect(response.status).toBe(200);
          expect(await response.json()).toMatchObject({
            approval: {
              id: request.id,
              status: 'approved',
              decided_by_account: 'staff',
              decided_by_name: 'Front desk',
              decision_note: 'See you then',
              appointment: { id: appointmentId, status: 'confirmed' },
            },
          });
          const status = await callTool(mcp, 'get_appointment_status', {
            appointment_id: appointmentId,
            contact: '0199',
          });
          expect(status).toMatchObject({ ok: true, status: 'confirmed' });
          expect((await staff.approvals()).map((r) => r.id)).not.toContain(request.id);

          const csv = await (await staff.fetch(`/desk/audit.csv?target=${appointmentId}`)).text();
          expect(csv).toMatch(
            new RegExp(`,staff,staff,Front desk,hold\\.approved,appointment,${appointmentId},`),
          );
        });

        it('rejects a cancellation: the appointment stays as it was', async () => {
          const { appointmentId, request } = await hold();
          expect((await staff.decide(request.id, { decision: 'approve' })).status).toBe(200);
          await callTool(mcp, 'cancel_appointment', {
            appointment_id: appointmentId,
            contact: '(312) 555-0199',
            reason: 'maybe',
          });
          const cancellation = (await staff.approvals()).find(
            (r) => r.kind === 'cancellation' && r.appointment?.id === appointmentId,
          )!;
          expect(cancellation.caller_said).toBe('maybe');
          const response = await maria.decide(cancellation.id, { decision: 'reject' });
          expect(response.status).toBe(200);
          expect(await response.json()).toMatchObject({
            approval: {
              status: 'rejected',
              decided_by_name: 'Maria Chen',
              appointment: { status: 'confirmed' },
            },
          });
        });

        it('refuses to decide a hold whose caller asked to cancel: decide the cancellation', async () => {
          const { appointmentId, request } = await hold();
          await callTool(mcp, 'cancel_appointment', {
            appointment_id: appointmentId,
            contact: '(312) 555-0199',
          });
          const response = await staff.decide(request.id, { decision: 'approve' });
          expect(response.status).toBe(409);
          expect(await response.json()).toMatchObject({ error: 'invalid_transition' });
        });

        it('answers 404 for an unknown request and 400 for a malformed decision', async () => {
          expect((await staff.decide('REQ-ZZZZZZ', { decision: 'approve' })).status).toBe(404);
          expect((await staff.decide('x'.repeat(500), { decision: 'approve' })).status).toBe(404);
          const { request } = await hold();
          for (const body of [
            { decision: 'maybe' },
            { decision: 'approve', note: 'x'.repeat(1001) },
            { decision: 'approve', extra: 1 },
            [],
          ]) {
            const response = await staff.decide(request.id, body);
            expect(response.status, JSON.stringify(body)).toBe(400);
          }
          const text = await staff.fetch(`/desk/api/approvals/${request.id}/decision`, {
            method: 'POST',
            headers: { 'content-type': 'text/plain', 'x-csrf-token': staff.csrf },
            body: '{"decision":"approve"}',
          });
          expect(text.status).toBe(415);
          expect((await staff.approvals()).find((r) => r.id === request.id)?.status).toBe('pending');
        });
      });

      describe('CSRF', () => {
        it('refuses a decision without the session’s token, with another session’s, or from another site', async () => {
          const { request } = await hold();
          const attempts: [string, Record<string, string>][] = [
            ['no token', { 'x-csrf-token': '' }],
            ['a wrong token', { 'x-csrf-token': `${staff.csrf.slice(0, -2)}xx` }],
            ['another session’s token', { 'x-csrf-token': maria.csrf }],
            ['a foreign Origin', { origin: 'https://evil.example' }],
            ['an opaque Origin', { origin: 'null' }],
          ];
          for (const [what, headers] of attempts) {
            const response = await staff.decide(request.id, { decision: 'approve' }, headers);
            expect(response.status, what).toBe(403);
            expect(await response.json()).toMatchObject({ error: 'csrf_failed' });
          }
          expect((await staff.approvals()).find((r) => r.id === request.id)?.status).toBe('pending');
          expect(
            (await staff.decide(request.id, { decision: 'approve' }, { origin: server.url })).status,
          ).toBe(200);
        });

        it('refuses a form decision without the hidden token', async () => {
          const { request } = await hold();
          const forged = await staff.form(`/desk/approvals/${request.id}/decision`, {
            decision: 'approve',
            csrf_token: 'forged',
          });
          expect(forged.status).toBe(403);
          const missing = await staff.fetch(`/desk/approvals/${request.id}/decision`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: 'decision=approve',
          });
          expect(missing.status).toBe(403);
          expect((await staff.approvals()).find((r) => r.id === request.id)?.status).toBe('pending');
          const ok = await staff.form(`/desk/approvals/${request.id}/decision`, { decision: 'approve' });
          expect(ok.status).toBe(303);
          expect(ok.headers.get('location')).toBe(`/desk?decided=${request.id}`);
        });
      });

      describe('two people deciding at once', () => {
        it('lands exactly one decision; the other hears who decided', async () => {
          for (let round = 0; round < 4; round++) {
            const { appointmentId, request } = await hold();
            const [a, b] = await Promise.all([
              staff.decide(request.id, { decision: 'approve' }),
              maria.decide(request.id, { decision: 'reject' }),
            ]);
            expect([a.status, b.status].sort()).toEqual([200, 409]);
            const [winner, loser] = a.status === 200 ? [a, b] : [b, a];
            const won = (await winner.json()) as { approval: QueueItemJson };
            const lost = (await loser.json()) as { error: string; decided_by: string; message: string };
            expect(lost.error).toBe('already_decided');
            expect(lost.decided_by).toBe(won.approval.decided_by_name);
            expect(lost.message).toContain(won.approval.decided_by_name);
            const status = await callTool(mcp, 'get_appointment_status', {
              appointment_id: appointmentId,
              contact: '0199',
            });
            expect(status.status).toBe(won.approval.status === 'approved' ? 'confirmed' : 'rejected');
          }
        });
      });
    },
  );
}
