import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/commands/serve.js';
import { DIALECTS } from '../support/databases.js';
import { callTool, connectClient, startTestServer, type TestServer } from '../support/server.js';
import { DESK_SETTINGS, DeskClient, EventReader, holdArgs, openSlots, startInstanceOn } from './support.js';

const isQueue = (action: string) => (e: { event: string; data: string }) =>
  e.event === 'queue' && (JSON.parse(e.data) as { action: string }).action === action;

/**
 * What a desk on another instance hears: the change itself through PostgreSQL notifications; on
 * SQLite only that something changed (the polled counter moved).
 */
const isRemote = (dialect: string, action: string) =>
  dialect === 'sqlite' ? isQueue('changed') : isQueue(action);

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason !== undefined)(`live desk updates on ${dialect.name}`, () => {
    let first: TestServer;
    let second: RunningServer;
    let mcp: Client;
    const slots = openSlots();

    beforeAll(async () => {
      first = await startTestServer(dialect, DESK_SETTINGS);
      second = await startInstanceOn(first.database);
      mcp = await connectClient(first.mcpUrl);
    });

    afterAll(async () => {
      await mcp.close();
      await second.close();
      await first.dispose();
    });

    async function openStream(baseUrl: string): Promise<{ desk: DeskClient; events: EventReader }> {
      const desk = await DeskClient.signIn(baseUrl);
      const response = await desk.fetch('/desk/api/events', { headers: { accept: 'text/event-stream' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      expect(response.headers.get('cache-control')).toBe('no-store');
      const events = new EventReader(response);
      await events.next((e) => e.event === 'ready');
      return { desk, events };
    }

    it('tells every open desk, on this instance and another one, about a new hold within a second', async () => {
      // Streams stay open to the end: the servers' shutdown drains them.
      const here = await openStream(first.url);
      const there = await openStream(second.url);
      const started = Date.now();
      const placed = await callTool(mcp, 'book_appointment', {
        ...holdArgs(slots.next().value),
        client_name: 'Private Name',
        notes: 'private notes',
      });
      expect(placed.ok).toBe(true);
      const [near, far] = await Promise.all([
        here.events.next(isQueue('hold.placed'), 1000),
        there.events.next(isRemote(dialect.name, 'hold.placed'), 1000),
      ]);
      expect(far.at - started).toBeLessThan(1000);
      expect(near.at - started).toBeLessThan(1000);
      const data = JSON.parse(near.data) as { approval_id: string };
      expect(data.approval_id).toMatch(/^REQ-/);
      // Events name the change, never the caller: desks fetch details through their session.
      expect(near.data).not.toContain('Private');
      expect(far.data).not.toContain('private');

      // A decision on the other instance reaches this one, exactly once.
      const before = here.events.events.length;
      const response = await there.desk.decide(data.approval_id, { decision: 'approve' });
      expect(response.status).toBe(200);
      await here.events.next(isRemote(dialect.name, 'hold.approved'), 1000, before);
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(here.events.events.slice(before).filter((e) => e.event === 'queue')).toHaveLength(1);
    });

    it('announces cancellations and escalations too', async () => {
      const { events } = await openStream(first.url);
      const placed = await callTool(mcp, 'book_appointment', holdArgs(slots.next().value));
      await callTool(mcp, 'cancel_appointment', {
        appointment_id: placed.appointment_id,
        contact: '(312) 555-0199',
      });
      await events.next(isQueue('cancellation.requested'));
      await callTool(mcp, 'request_human_approval', { action: 'callback', summary: 'Please call back' });
      await events.next(isQueue('escalation.opened'));
    });

    it('ends open streams when the server shuts down, without waiting for them', async () => {
      const third = await startInstanceOn(first.database);
      const { events } = await openStream(third.url);
      const started = Date.now();
      await third.close();
      await events.untilClosed(2000);
      expect(Date.now() - started).toBeLessThan(2000);
    });
  });
}
