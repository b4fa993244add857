import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ErrorCode,
  McpError,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { refusal } from '../core/result.js';
import type { CallGateway } from './call-gateway.js';
import type { GatewayEvent } from './events.js';
import { STAFF_SERVER_INSTRUCTIONS, STAFF_TOOLS } from './mcp-tools.js';
import { staffOf } from './staff-principal.js';
import { staffToolResult } from './tool-result.js';

export const STAFF_SERVER_NAME = 'holddesk-gateway';

export const RESOURCES = {
  status: 'gateway://status',
  callFlows: 'gateway://call-flows',
  activeCalls: 'gateway://active-calls',
} as const;

/** Which resources an event changes. */
function changedBy(event: GatewayEvent): string[] {
  switch (event.type) {
    case 'call.status':
      return [RESOURCES.activeCalls, RESOURCES.status];
    case 'call_flows.changed':
      return [RESOURCES.callFlows];
    case 'devices.changed':
      return [RESOURCES.status];
    default:
      return [];
  }
}

/** Bursts of changes (a call moving through several states at once) become one notification per resource. */
const NOTIFY_COALESCE_MS = 50;

/**
 * Builds the staff MCP server: the fifteen tools and three resources. With `subscriptions` (stateful
 * mode, where a session has a stream to push to) the resources are subscribable: a subscribed
 * session is sent `notifications/resources/updated` whenever the resource changes (MCP 2025-11-25,
 * "Resources", Subscriptions). Stateless servers do not offer subscriptions: there is nowhere to
 * send them.
 */
export function buildStaffMcpServer(
  gateway: CallGateway,
  version: string,
  subscriptions: boolean,
): McpServer {
  const server = new McpServer(
    { name: STAFF_SERVER_NAME, title: 'HoldDesk call gateway', version },
    {
      instructions: STAFF_SERVER_INSTRUCTIONS,
      capabilities: { logging: {}, resources: { subscribe: subscriptions, listChanged: false } },
    },
  );

  for (const definition of STAFF_TOOLS) {
    server.registerTool(
      definition.name,
      {
        title: definition.title,
        description: definition.description,
        inputSchema: definition.inputSchema,
        outputSchema: definition.outputSchema,
        annotations: { title: definition.title, ...definition.annotations },
      },
      async (args: unknown, extra) => {
        // Fails closed: only a staff principal runs anything here.
        const staff = staffOf(extra.authInfo);
        if (!staff)
          return staffToolResult(refusal('unauthenticated', 'This request carries no staff identity.'));
        return staffToolResult(await definition.run(gateway, staff, args as never));
      },
    );
  }

  const json = (uri: URL, value: unknown) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }],
  });
  server.registerResource(
    'gateway-status',
    RESOURCES.status,
    {
      title: 'Gateway status',
      description: 'Trunk registration, devices, active calls and limits',
      mimeType: 'application/json',
    },
    async (uri) => json(uri, await gateway.status()),
  );
  server.registerResource(
    'call-flows',
    RESOURCES.callFlows,
    { title: 'Call flows', description: 'Every stored IVR call flow', mimeType: 'application/json' },
    async (uri) => json(uri, { call_flows: await gateway.flows() }),
  );
  server.registerResource(
    'active-calls',
    RESOURCES.activeCalls,
    {
      title: 'Active calls',
      description: 'All calls in progress with their status',
      mimeType: 'application/json',
    },
    async (uri) => json(uri, { calls: await gateway.activeCalls() }),
  );

  if (subscriptions) {
    const subscribed = new Set<string>();
    const pending = new Set<string>();
    let flush: NodeJS.Timeout | undefined;
    const known = new Set<string>(Object.values(RESOURCES));
    server.server.setRequestHandler(SubscribeRequestSchema, (request) => {
      if (!known.has(request.params.uri)) {
        throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${request.params.uri}`);
      }
      subscribed.add(request.params.uri);
      return {};
    });
    server.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
      subscribed.delete(request.params.uri);
      return {};
    });
    const stop = gateway.events.subscribe((event) => {
      for (const uri of changedBy(event)) if (subscribed.has(uri)) pending.add(uri);
      if (pending.size === 0 || flush) return;
      flush = setTimeout(() => {
        flush = undefined;
        const uris = [...pending];
        pending.clear();
        for (const uri of uris) void server.server.sendResourceUpdated({ uri }).catch(() => undefined);
      }, NOTIFY_COALESCE_MS);
    });
    server.server.onclose = () => {
      clearTimeout(flush);
      stop();
    };
  }
  return server;
}
