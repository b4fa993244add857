import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import {
  callTool,
  connectClient,
  startSiblingServer,
  startTestServer,
  type TestServer,
} from '../support/server.js';
import { cookieFrom, DESK_SETTINGS, DeskClient, holdArgs, openSlots, STAFF } from '../desk/support.js';
import { suiteTitle } from '../reliability/support/titles.js';
import { PUBLIC_URL } from './support.js';

/**
 * Two instances on one PostgreSQL database are one desk: a staff member's browser session, its CSRF
 * token and its end live in the database, so a load balancer may send each request of one browser
 * to either instance. Both instances share the public URL a browser sees (its `Origin`).
 */
const postgres = DIALECTS.find((d) => d.name === 'postgres')!;
const SETTINGS = { ...DESK_SETTINGS, publicUrl: PUBLIC_URL };
const MARIA = { username: 'maria', password: 'maria-password', name: 'Maria Chen' } as const;

/** The same browser session (cookie and CSRF token) sent to another instance. */
function sameSessionOn(client: DeskClient, baseUrl: string): DeskClient {
  const moved = new DeskClient(baseUrl);
  moved.cookie = client.cookie;
  moved.csrf = client.csrf;
  return moved;
}

describe.skipIf(postgres.skipReason !== undefined)(
  suiteTitle('one desk session across instances on postgres', postgres.skipReason),
  () => {
    let a: TestServer;
    let b: TestServer;
    let mcpA: Client;
    let admin: DeskClient;
    const slots = openSlots();

    /** A fresh hold placed over MCP on instance A. */
    async function holdOnA(): Promise<string> {
      const placed = await callTool(mcpA, 'book_appointment', holdArgs(slots.next().value));
      expect(placed, JSON.stringify(placed)).toMatchObject({ ok: true });
      return placed.appointment_id as string;
    }

    /** The pending hold request for an appointment, as one instance's queue lists it. */
    async function requestFor(desk: DeskClient, appointmentId: string): Promise<string> {
      const request = (await desk.approvals()).find(
        (r) => r.kind === 'hold' && r.appointment?.id === appointmentId,
      );
      expect(request, `${appointmentId} in the queue on ${desk.baseUrl}`).toMatchObject({
        status: 'pending',
      });
      return request!.id;
    }

    async function appointmentStatus(appointmentId: string): Promise<unknown> {
      const status = await callTool(mcpA, 'get_appointment_status', {
        appointment_id: appointmentId,
        contact: '0199',
      });
      return status.status;
    }

    beforeAll(async () => {
      a = await startTestServer(postgres, SETTINGS);
      b = await startSiblingServer(a, SETTINGS);
      mcpA = await connectClient(a.mcpUrl);
      admin = await DeskClient.signIn(a.url);
      const added = await admin.form('/desk/admin/staff', {
        username: MARIA.username,
        display_name: MARIA.name,
        role: 'staff',
        password: MARIA.password,
      });
      expect(added.status).toBe(200);
    });

    afterAll(async () => {
      await mcpA?.close();
      await b?.dispose();
      await a?.dispose();
    });

    it('a session started on A works on B: B lists A’s hold, decides it, and A shows it decided by her', async () => {
      const onA = await DeskClient.signIn(a.url, MARIA.username, MARIA.password);
      const onB = sameSessionOn(onA, b.url);
      const session = await onB.fetch('/desk/api/session');
      expect(session.status).toBe(200);
      expect(await session.json()).toMatchObject({
        staff: { username: MARIA.username, display_name: MARIA.name, role: 'staff' },
        csrf_token: onA.csrf,
      });

      const appointmentId = await holdOnA();
      const requestId = await requestFor(onB, appointmentId);
      // A browser behind the load balancer names the public origin, whichever instance answers.
      const decided = await onB.decide(
        requestId,
        { decision: 'approve', note: 'Decided on B' },
        { origin: PUBLIC_URL },
      );
      expect(decided.status).toBe(200);
      expect(await decided.json()).toMatchObject({
        approval: {
          id: requestId,
          status: 'approved',
          decided_by_account: MARIA.username,
          decided_by_name: MARIA.name,
          appointment: { id: appointmentId, status: 'confirmed' },
        },
      });

      expect(await appointmentStatus(appointmentId)).toBe('confirmed');
      expect((await onA.approvals()).map((r) => r.id)).not.toContain(requestId);
      const csv = await admin.fetch(`/desk/audit.csv?target=${appointmentId}`);
      expect(csv.status).toBe(200);
      expect(await csv.text()).toMatch(
        new RegExp(`,staff,${MARIA.username},${MARIA.name},hold\\.approved,appointment,${appointmentId},`),
      );
    });

    it('B still demands the CSRF token of the session A started, and a refused decision changes nothing', async () => {
      const onA = await DeskClient.signIn(a.url);
      const onB = sameSessionOn(onA, b.url);
      const other = await DeskClient.signIn(b.url, MARIA.username, MARIA.password);
      const appointmentId = await holdOnA();
      const requestId = await requestFor(onA, appointmentId);

      const attempts: [string, Record<string, string>][] = [
        ['an empty token', { 'x-csrf-token': '' }],
        ['a wrong token', { 'x-csrf-token': `${onA.csrf.slice(0, -2)}xx` }],
        ['another session’s token', { 'x-csrf-token': other.csrf }],
        ['a foreign Origin', { origin: 'https://evil.example' }],
      ];
      for (const [what, headers] of attempts) {
        const response = await onB.decide(requestId, { decision: 'approve' }, headers);
        expect(response.status, what).toBe(403);
        expect(await response.json(), what).toMatchObject({ error: 'csrf_failed' });
      }
      const noHeader = await onB.fetch(`/desk/api/approvals/${requestId}/decision`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ decision: 'approve' }),
      });
      expect(noHeader.status).toBe(403);
      expect(await noHeader.json()).toMatchObject({ error: 'csrf_failed' });

      for (const desk of [onA, onB]) {
        expect((await desk.approvals()).find((r) => r.id === requestId)?.status).toBe('pending');
      }
      expect(await appointmentStatus(appointmentId)).toBe('pending_approval');

      // The refusals were about the token alone: with it, B decides.
      expect((await onB.decide(requestId, { decision: 'reject' })).status).toBe(200);
      expect(await appointmentStatus(appointmentId)).toBe('rejected');
    });

    it('signing out on B ends the session on A as well', async () => {
      const onA = await DeskClient.signIn(a.url);
      const onB = sameSessionOn(onA, b.url);
      const appointmentId = await holdOnA();
      const requestId = await requestFor(onA, appointmentId);

      const forged = await onB.fetch('/desk/api/logout', { method: 'POST' });
      expect(forged.status).toBe(403);
      expect((await onA.fetch('/desk/api/session')).status).toBe(200);

      const out = await onB.fetch('/desk/api/logout', {
        method: 'POST',
        headers: { 'x-csrf-token': onB.csrf },
      });
      expect(out.status).toBe(200);
      expect(cookieFrom(out, 'holddesk_desk')?.attributes).toContain('Max-Age=0');

      for (const desk of [onA, onB]) {
        for (const path of ['/desk/api/session', '/desk/api/approvals']) {
          const response = await desk.fetch(path);
          expect(response.status, `${path} on ${desk.baseUrl}`).toBe(401);
          expect(await response.json()).toMatchObject({ error: 'unauthorized' });
        }
        const page = await desk.fetch('/desk');
        expect(page.status).toBe(303);
        expect(page.headers.get('location')).toBe('/desk/login');
      }
      const decision = await onA.decide(requestId, { decision: 'approve' });
      expect(decision.status).toBe(401);
      expect(await appointmentStatus(appointmentId)).toBe('pending_approval');
      expect((await admin.approvals()).find((r) => r.id === requestId)?.status).toBe('pending');
    });

    it('a second decision on the other instance is refused as already decided, naming who decided', async () => {
      const staffOnB = sameSessionOn(admin, b.url);
      const maria = await DeskClient.signIn(a.url, MARIA.username, MARIA.password);
      const appointmentId = await holdOnA();
      const requestId = await requestFor(staffOnB, appointmentId);

      expect((await staffOnB.decide(requestId, { decision: 'approve' })).status).toBe(200);
      const again = await maria.decide(requestId, { decision: 'reject' });
      expect(again.status).toBe(409);
      expect(await again.json()).toMatchObject({ error: 'already_decided', decided_by: STAFF.name });
      expect(await appointmentStatus(appointmentId)).toBe('confirmed');
    });

    it('two decisions at once on the two instances land exactly one', async () => {
      const mariaOnB = await DeskClient.signIn(b.url, MARIA.username, MARIA.password);
      for (let round = 0; round < 4; round++) {
        const appointmentId = await holdOnA();
        const requestId = await requestFor(admin, appointmentId);
        const [onA, onB] = await Promise.all([
          admin.decide(requestId, { decision: 'approve' }),
          mariaOnB.decide(requestId, { decision: 'reject' }),
        ]);
        expect([onA.status, onB.status].sort()).toEqual([200, 409]);
        const winner = onA.status === 200 ? onA : onB;
        const loser = onA.status === 200 ? onB : onA;
        const won = (await winner.json()) as { approval: { status: string; decided_by_name: string } };
        expect(await loser.json()).toMatchObject({
          error: 'already_decided',
          decided_by: won.approval.decided_by_name,
        });
        expect(await appointmentStatus(appointmentId)).toBe(
          won.approval.status === 'approved' ? 'confirmed' : 'rejected',
        );
      }
    });
  },
);
