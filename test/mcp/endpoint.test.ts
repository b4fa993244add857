import { describe, expect, it } from 'vitest';
import { staticAuthenticator } from '../../src/auth/static-auth.js';
import { originPolicy } from '../../src/http/origin-guard.js';
import { createMcpEndpoint } from '../../src/mcp/http.js';
import { buildMcpServer, callerTools } from '../../src/mcp/server.js';
import { createContext } from '../../src/usecases/context.js';
import { FrontDesk } from '../../src/usecases/front-desk.js';
import { createTestStore, DIALECTS } from '../support/databases.js';
import { bundledOfficeData, DEMO_NOW } from '../support/office.js';

const request = (id: number) =>
  new Request('http://127.0.0.1:8641/mcp', {
    method: 'POST',
    headers: {
      host: '127.0.0.1:8641',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'check_availability', arguments: { date: '2026-09-16', service: 'consultation' } },
    }),
  });

describe('stateless MCP endpoint', () => {
  it('builds its protocol server once, not per request', async () => {
    const { store, dispose } = await createTestStore(DIALECTS[0]!);
    const data = await bundledOfficeData();
    const desk = new FrontDesk(createContext(data, store, () => DEMO_NOW));
    let built = 0;
    const endpoint = await createMcpEndpoint({
      stateful: false,
      jsonResponse: true,
      origins: originPolicy(8641, [], []),
      authenticator: staticAuthenticator(undefined),
      buildServer: () => {
        built += 1;
        return buildMcpServer(callerTools(desk), data, 'test');
      },
    });
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => endpoint.handle(request(i))));
    for (const [i, response] of responses.entries()) {
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: i, result: { structuredContent: { ok: true } } });
    }
    expect(built).toBe(1);
    await endpoint.close();
    await dispose();
  });
});
