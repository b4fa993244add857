import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { connectClient } from '../support/server.js';
import { BANK, eventually, staffTool, startGateway, type GatewayHarness } from './support.js';

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason)(`resource subscriptions on ${dialect.name} (stateful)`, () => {
    let harness: GatewayHarness;
    let client: Client;
    const updates: string[] = [];

    beforeAll(async () => {
      harness = await startGateway(dialect, { settings: { stateful: 'true' } });
      client = await connectClient(`${harness.server.url}/staff/mcp`, await harness.staffToken('sam'));
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
        updates.push(notification.params.uri);
      });
    });

    afterAll(async () => {
      await client?.close();
      await harness?.dispose();
    });

    it('offers subscriptions', () => {
      expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    });

    it('notifies a subscriber when the active calls change, and only about what it subscribed to', async () => {
      await client.subscribeResource({ uri: 'gateway://active-calls' });
      const placed = await staffTool(client, 'make_call', { number: BANK });
      await eventually(() => Promise.resolve(updates.includes('gateway://active-calls') ? true : undefined));
      // Nobody has a device here, so the direct call waits connected until it is hung up.
      await staffTool(client, 'hangup', { call_id: placed.call_id });
      const active = await client.readResource({ uri: 'gateway://active-calls' });
      expect(JSON.parse((active.contents[0] as { text: string }).text)).toEqual({ calls: [] });
      expect(updates).not.toContain('gateway://call-flows');
      expect(updates).not.toContain('gateway://status');
    });

    it('notifies about call flows once subscribed, and stops after unsubscribing', async () => {
      await client.subscribeResource({ uri: 'gateway://call-flows' });
      const created = await staffTool(client, 'create_call_flow', {
        name: 'Acme Bank',
        phone_number: BANK,
        steps_json: JSON.stringify([{ expect: 'for billing', press: '2' }]),
      });
      expect(created).toMatchObject({ ok: true });
      await eventually(() => Promise.resolve(updates.includes('gateway://call-flows') ? true : undefined));
      const flows = await client.readResource({ uri: 'gateway://call-flows' });
      expect(
        (JSON.parse((flows.contents[0] as { text: string }).text) as { call_flows: unknown[] }).call_flows,
      ).toEqual([expect.objectContaining({ call_flow_id: created.call_flow_id, phone_number: BANK })]);

      await client.unsubscribeResource({ uri: 'gateway://active-calls' });
      updates.length = 0;
      const placed = await staffTool(client, 'make_call', { number: BANK });
      await staffTool(client, 'hangup', { call_id: placed.call_id });
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(updates).not.toContain('gateway://active-calls');
    });

    it('refuses to subscribe to a resource that does not exist', async () => {
      await expect(client.subscribeResource({ uri: 'gateway://nothing' })).rejects.toThrow(
        /Unknown resource/,
      );
    });

    it("keeps a session to the token that opened it: another staff member's token cannot use it", async () => {
      const other = await harness.staffToken('alex');
      const transport = (client as unknown as { transport: { sessionId?: string } }).transport;
      const response = await fetch(`${harness.server.url}/staff/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${other}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': transport.sessionId!,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
      expect(response.status).toBe(404);
    });
  });
}
