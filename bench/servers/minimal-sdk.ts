import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono } from 'hono';
import { z } from 'zod';

/**
 * The framework floor: the official SDK's documented stateless pattern, a new `McpServer` with one
 * trivial tool and a new `WebStandardStreamableHTTPServerTransport` (no session id) for every HTTP
 * request, served by Hono on Node like HoldDesk.
 */
function buildServer(): McpServer {
  const server = new McpServer({ name: 'minimal', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes its text', inputSchema: { text: z.string() } },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

const app = new Hono();
app.all('/mcp', async (c) => {
  const server = buildServer();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  return transport.handleRequest(c.req.raw);
});

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
  process.stdout.write(`listening http://127.0.0.1:${info.port}/mcp\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
