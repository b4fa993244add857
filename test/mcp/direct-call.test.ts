import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Authenticator } from '../../src/auth/authenticator.js';
import { originPolicy } from '../../src/http/origin-guard.js';
import { refusal, success } from '../../src/core/result.js';
import type { DirectTool } from '../../src/mcp/direct-call.js';
import { createMcpEndpoint, type McpEndpoint } from '../../src/mcp/http.js';
import type { Principal } from '../../src/mcp/principal.js';
import { buildMcpServer, callerTools } from '../../src/mcp/server.js';
import { responseJson, toolResult } from '../../src/mcp/tool-result.js';
import { createContext } from '../../src/usecases/context.js';
import { FrontDesk } from '../../src/usecases/front-desk.js';
import { createTestStore, DIALECTS } from '../support/databases.js';
import { bundledOfficeData, DEMO_NOW } from '../support/office.js';

/**
 * Plain stateless tool calls skip the SDK's protocol machinery. This suite holds that path to the
 * SDK's: the same requests sent to an endpoint with it and to one without must get the same answers,
 * byte for byte, and only plain calls may take it.
 */
const CALLER: Principal = { subject: 'caller-1', scopes: ['mcp:tools'], tier: 'user', clientId: 'app' };
const SERVICE: Principal = { subject: 'svc', scopes: ['mcp:service'], tier: 'service', clientId: 'app' };

/** Who is calling comes from the test's `x-principal` header: a signed-in caller or a service token. */
const authenticator: Authenticator = {
  authenticate: (request) =>
    Promise.resolve({
      ok: true,
      principal: request.headers.get('x-principal') === 'service' ? SERVICE : CALLER,
      token: 't',
    }),
};

const post = (body: unknown, principal: 'caller' | 'service' = 'caller') =>
  new Request('http://127.0.0.1:8641/mcp', {
    method: 'POST',
    headers: {
      host: '127.0.0.1:8641',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-principal': principal,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const call = (params: unknown, id: number | string = 7) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params,
});

/** A date on which the tools below fail underneath, to compare the error answers. */
const FAILING_DATE = '2026-10-01';

/** Calls the direct path must answer: known tools, arguments that pass their schemas. */
const PLAIN: unknown[] = [
  { name: 'check_availability', arguments: { date: '2026-09-16', service: 'consultation' } },
  {
    name: 'check_availability',
    arguments: { date: '2026-09-16', service: 'policy_review', staff_id: 'maria_chen' },
  },
  { name: 'check_availability', arguments: { date: '2026-09-19', service: 'consultation' } },
  { name: 'check_availability', arguments: { date: '2026-02-30', service: 'consultation' } },
  { name: 'answer_office_faq', arguments: { question: 'Where can I park?' } },
  { name: 'answer_office_faq', arguments: { question: 'Do you sell boats?', extra: 'ignored' } },
  {
    name: 'estimate_home_insurance_quote_range',
    arguments: { state: 'IL', dwelling_coverage: 300_000, year_built: 1990 },
  },
  {
    name: 'get_appointment_status',
    arguments: { appointment_id: 'APT-NOPE00', contact: 'dana@example.com' },
  },
  { name: 'cancel_appointment', arguments: { appointment_id: 'APT-NOPE00', contact: 'dana@example.com' } },
  { name: 'check_availability', arguments: { date: FAILING_DATE, service: 'consultation' } },
  {
    name: 'book_appointment',
    arguments: {
      client_name: 'Dana',
      contact: 'dana@example.com',
      service: 'consultation',
      date: '2026-09-14',
      start_time: '03:00',
    },
  },
];

/** Calls that must go through the SDK: its own errors, progress and task handling apply. */
const IRREGULAR: unknown[] = [
  { name: 'approve_everything', arguments: {} },
  { name: 'check_availability', arguments: { date: 16, service: 'consultation' } },
  { name: 'check_availability', arguments: { date: '2026-09-16' } },
  { name: 'check_availability' },
  { name: 'check_availability', arguments: ['2026-09-16'] },
  { name: 'check_availability', arguments: null },
  {
    name: 'check_availability',
    arguments: { date: '2026-09-16', service: 'consultation' },
    _meta: { progressToken: 1 },
  },
  {
    name: 'check_availability',
    arguments: { date: '2026-09-16', service: 'consultation' },
    task: { ttl: 1000 },
  },
  { name: 42, arguments: {} },
  {},
  undefined,
];

describe('responseJson', () => {
  it('writes a tool result exactly as JSON.stringify does, whatever the text holds', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.oneof(fc.integer(), fc.string()),
        fc.boolean(),
        (said, id, ok) => {
          const result = toolResult(
            ok
              ? success({ spoken_summary: said, quote: `"${said}"\u2028</script>` })
              : refusal('not_found', said),
          );
          const message = { result, jsonrpc: '2.0' as const, id };
          expect(responseJson(message)).toBe(JSON.stringify(message));
        },
      ),
    );
  });

  it('serialises anything else, and a result whose text was changed, as usual', () => {
    const result = toolResult(success({ spoken_summary: 'hi' }));
    const changed = { result, jsonrpc: '2.0' as const, id: 1 };
    (result.content[0] as { text: string }).text = 'edited';
    expect(responseJson(changed)).toBe(JSON.stringify(changed));
    const notification = {
      jsonrpc: '2.0' as const,
      method: 'notifications/message',
      params: { level: 'info' },
    };
    expect(responseJson(notification)).toBe(JSON.stringify(notification));
  });
});

describe('plain stateless tool calls answered without the SDK protocol path', () => {
  let dispose: () => Promise<void>;
  let viaSdk: McpEndpoint;
  let direct: McpEndpoint;
  let sseDirect: McpEndpoint;
  let directAnswers = 0;

  beforeAll(async () => {
    const test = await createTestStore(DIALECTS[0]!);
    dispose = test.dispose;
    const data = await bundledOfficeData();
    const real = callerTools(new FrontDesk(createContext(data, test.store, () => DEMO_NOW)));
    // A tool that fails underneath (a lost database, say) on one date, to compare the error answers.
    const tools = new Map<string, DirectTool>(
      [...real].map(([name, tool]) => [
        name,
        {
          ...tool,
          answer: (args, authInfo) =>
            (args as { date?: string }).date === FAILING_DATE
              ? Promise.reject(new Error('connection terminated unexpectedly'))
              : tool.answer(args, authInfo),
        },
      ]),
    );
    // The direct path's own copy of the tools counts what it answers; the SDK servers use the originals.
    const counted = new Map<string, DirectTool>(
      [...tools].map(([name, tool]) => [
        name,
        {
          ...tool,
          answer: (args, authInfo) => {
            directAnswers += 1;
            return tool.answer(args, authInfo);
          },
        },
      ]),
    );
    const base = {
      stateful: false,
      origins: originPolicy(8641, [], []),
      authenticator,
      buildServer: () => buildMcpServer(tools, data, 'test'),
    };
    viaSdk = await createMcpEndpoint({ ...base, jsonResponse: true });
    direct = await createMcpEndpoint({ ...base, jsonResponse: true, directTools: counted });
    sseDirect = await createMcpEndpoint({ ...base, jsonResponse: false, directTools: counted });
  });

  afterAll(async () => {
    await Promise.all([viaSdk.close(), direct.close(), sseDirect.close()]);
    await dispose();
  });

  async function both(body: unknown, principal: 'caller' | 'service' = 'caller') {
    const before = directAnswers;
    const [a, b] = await Promise.all([
      viaSdk.handle(post(body, principal)),
      direct.handle(post(body, principal)),
    ]);
    return {
      sdk: { status: a.status, type: a.headers.get('content-type'), body: await a.text() },
      direct: { status: b.status, type: b.headers.get('content-type'), body: await b.text() },
      tookDirectPath: directAnswers > before,
    };
  }

  it('answers plain calls itself, exactly as the SDK does, for callers and service tokens alike', async () => {
    for (const params of PLAIN) {
      for (const principal of ['caller', 'service'] as const) {
        const { sdk, direct: answer, tookDirectPath } = await both(call(params), principal);
        expect(tookDirectPath, JSON.stringify(params)).toBe(true);
        expect(answer, JSON.stringify(params)).toEqual(sdk);
        expect(JSON.parse(answer.body)).toMatchObject({
          jsonrpc: '2.0',
          id: 7,
          result: { content: [{ type: 'text' }] },
        });
      }
    }
    // A service token is refused the caller's own tools on both paths, as a normal result.
    const cancel = PLAIN.find((params) => (params as { name: string }).name === 'cancel_appointment');
    const refused = await both(call(cancel), 'service');
    // A tool that fails underneath is a tool error on both paths, not a protocol error.
    const failed = await both(
      call({ name: 'check_availability', arguments: { date: FAILING_DATE, service: 'consultation' } }),
    );
    expect(JSON.parse(failed.direct.body)).toMatchObject({
      result: { isError: true, content: [{ type: 'text', text: 'connection terminated unexpectedly' }] },
    });
    expect(JSON.parse(refused.direct.body)).toMatchObject({
      result: { structuredContent: { ok: false, error: { code: 'insufficient_scope' } } },
    });
  });

  it('leaves every irregular call to the SDK, which answers it the same either way', async () => {
    for (const params of IRREGULAR) {
      const { sdk, direct: answer, tookDirectPath } = await both(call(params, 'x-1'));
      expect(tookDirectPath, JSON.stringify(params)).toBe(false);
      expect(answer, JSON.stringify(params)).toEqual(sdk);
    }
    // Batches and notifications go through the SDK too.
    const batch = await both([call(PLAIN[0], 1), call(PLAIN[4], 2)]);
    expect(batch.tookDirectPath).toBe(false);
    expect(batch.direct).toEqual(batch.sdk);
    const notification = await both({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(notification.direct.status).toBe(202);
    expect(notification.direct).toEqual(notification.sdk);
  });

  it('gives the same answers for generated arguments, plain or not', async () => {
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.boolean(),
      fc.constantFrom('2026-09-16', 'consultation', 'maria_chen'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          'check_availability',
          'answer_office_faq',
          'get_appointment_status',
          'estimate_home_insurance_quote_range',
        ),
        fc.dictionary(
          fc.constantFrom(
            'date',
            'service',
            'staff_id',
            'question',
            'appointment_id',
            'contact',
            'state',
            'dwelling_coverage',
            'year_built',
          ),
          value,
        ),
        fc.oneof(fc.integer(), fc.string({ maxLength: 8 })),
        async (name, args, id) => {
          const { sdk, direct: answer } = await both(call({ name, arguments: args }, id));
          expect(answer).toEqual(sdk);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers as server-sent events when JSON responses are off, with the client id restored', async () => {
    const response = await sseDirect.handle(post(call(PLAIN[0], 'abc')));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text();
    expect(text).toMatch(/^event: message\ndata: \{.*\}\n\n$/s);
    const message = JSON.parse(text.slice(text.indexOf('data: ') + 6)) as {
      id: unknown;
      result: { structuredContent: { ok: boolean } };
    };
    expect(message.id).toBe('abc');
    expect(message.result.structuredContent.ok).toBe(true);
  });
});
