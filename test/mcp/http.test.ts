import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { callTool, connectClient, startTestServer, type TestServer } from '../support/server.js';

const sqlite = DIALECTS[0]!;
const TOKEN = 'static-token-0123456789abcdef';
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('caller MCP over raw HTTP', () => {
  let server: TestServer;
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(server.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${TOKEN}`, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await startTestServer(sqlite, { bearerToken: TOKEN, allowedOrigins: 'https://sim.example' });
  });

  afterAll(async () => {
    await server.dispose();
  });

  describe('static bearer token', () => {
    it('answers 401 {"error":"unauthorized"} without WWW-Authenticate when no token is sent', async () => {
      const response = await fetch(server.mcpUrl, {
        method: 'POST',
        headers: MCP_HEADERS,
        body: JSON.stringify(INITIALIZE),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBeNull();
      expect(await response.json()).toEqual({ error: 'unauthorized' });
    });

    it('answers 401 for a wrong token, including one that shares a prefix', async () => {
      for (const token of ['wrong', TOKEN.slice(0, -1), `${TOKEN}x`]) {
        const response = await post(INITIALIZE, { authorization: `Bearer ${token}` });
        expect(response.status).toBe(401);
      }
    });

    it('serves the holder of the token with the official client', async () => {
      const client = await connectClient(server.mcpUrl, TOKEN);
      expect(await callTool(client, 'answer_office_faq', { question: 'What are your hours?' })).toMatchObject(
        {
          ok: true,
          grounded: true,
        },
      );
      await client.close();
    });
  });

  describe('DNS-rebinding protection', () => {
    it('answers 421 for an unknown Host', async () => {
      const { hostname, port } = new URL(server.mcpUrl);
      const response = await new Promise<number>((resolve, reject) => {
        // fetch() does not let a caller set Host, so speak HTTP/1.1 directly.
        import('node:net')
          .then(({ connect }) => {
            const socket = connect(Number(port), hostname, () => {
              socket.write(
                `POST /mcp HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer ${TOKEN}\r\n` +
                  'Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
              );
            });
            let text = '';
            socket.on('data', (chunk) => (text += String(chunk)));
            socket.on('end', () => resolve(Number(text.split(' ')[1])));
            socket.on('error', reject);
          })
          .catch(reject);
      });
      expect(response).toBe(421);
    });

    it('answers 403 for an unknown Origin and accepts a configured one', async () => {
      expect((await post(INITIALIZE, { origin: 'https://evil.example' })).status).toBe(403);
      expect((await post(INITIALIZE, { origin: 'https://sim.example' })).status).toBe(200);
    });
  });

  describe('Streamable HTTP conformance', () => {
    it('answers 400 for an unsupported MCP-Protocol-Version header', async () => {
      const response = await post(INITIALIZE, { 'mcp-protocol-version': '1999-01-01' });
      expect(response.status).toBe(400);
    });

    it('accepts the versions clients still send', async () => {
      for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
        const response = await post({
          ...INITIALIZE,
          params: { ...INITIALIZE.params, protocolVersion: version },
        });
        expect(response.status).toBe(200);
        expect(await response.text()).toContain(`"protocolVersion":"${version}"`);
      }
    });

    it('answers 413 for a body over the limit, before parsing it', async () => {
      const response = await post(`{"padding":"${'x'.repeat(1024 * 1024 + 10)}"}`);
      expect(response.status).toBe(413);
    });

    it('answers 400 with a JSON-RPC parse error for broken JSON', async () => {
      const response = await post('{"jsonrpc":');
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: -32700 } });
    });

    it('answers 400 for a body that is not JSON-RPC', async () => {
      const response = await post({ hello: 'world' });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: -32600 } });
    });

    it('answers 202 with no body for notifications', async () => {
      const response = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(response.status).toBe(202);
      expect(await response.text()).toBe('');
    });

    it('answers 406 when the client does not accept both JSON and event streams', async () => {
      expect((await post(INITIALIZE, { accept: 'application/json' })).status).toBe(406);
    });

    it('answers 415 for a body that is not application/json', async () => {
      expect((await post(INITIALIZE, { 'content-type': 'text/plain' })).status).toBe(415);
    });

    it('answers 405 to GET and DELETE in stateless mode', async () => {
      for (const method of ['GET', 'DELETE']) {
        const response = await fetch(server.mcpUrl, {
          method,
          headers: { authorization: `Bearer ${TOKEN}`, accept: 'text/event-stream' },
        });
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe('POST');
      }
    });

    it('keeps the client’s JSON-RPC ids when many clients use the same ones at once', async () => {
      const calls = Array.from({ length: 20 }, (_, i) =>
        post({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'answer_office_faq', arguments: { question: i % 2 ? 'parking' : 'hours' } },
        }),
      );
      for (const response of await Promise.all(calls)) {
        const text = await response.text();
        expect(text).toContain('"id":7');
      }
    });

    it('answers a batch with one event per request', async () => {
      const response = await post([
        { jsonrpc: '2.0', id: 'a', method: 'ping' },
        { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
      ]);
      const text = await response.text();
      expect(text.match(/^event: message$/gm)).toHaveLength(2);
      expect(text).toContain('"id":"a"');
      expect(text).toContain('"id":"b"');
    });
  });

  it('/healthz is public and reports the database', async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('unknown paths are 404 JSON', async () => {
    const response = await fetch(`${server.url}/nope`);
    expect(response.status).toBe(404);
  });
});

describe('persistence across restarts', () => {
  it('a hold made over MCP is still pending after the server restarts', async () => {
    let server = await startTestServer(sqlite);
    let client = await connectClient(server.mcpUrl);
    const hold = await callTool(client, 'book_appointment', {
      client_name: 'Dana Whitfield',
      contact: 'dana@example.com',
      service: 'policy_review',
      date: '2026-09-17',
      start_time: '14:00',
    });
    expect(hold.ok).toBe(true);
    await client.close();
    server = await server.restart();
    client = await connectClient(server.mcpUrl);
    const status = await callTool(client, 'get_appointment_status', {
      appointment_id: hold.appointment_id,
      contact: 'DANA@example.com',
    });
    expect(status).toMatchObject({ ok: true, status: 'pending_approval' });
    await client.close();
    await server.dispose();
  });
});
