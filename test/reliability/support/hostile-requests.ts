import type { RawRequest, RawResponse } from './raw-http.js';

/**
 * A seeded generator of malformed and hostile HTTP requests against `/mcp`, `/oauth/*` and `/desk/*`,
 * each with the answer that is right for it. A case changes one thing about an otherwise acceptable
 * request, so exactly one check is responsible for the answer. The right answers:
 *
 * | case                                               | right answer                                  |
 * |----------------------------------------------------|-----------------------------------------------|
 * | /mcp body that is not JSON (cut short, garbage)    | 400, JSON-RPC -32700                          |
 * | /mcp JSON that is not JSON-RPC (wrong types, bad   | 400, JSON-RPC -32600                          |
 * |   batch size, an invalid member in a batch)        |                                               |
 * | /mcp unknown JSON-RPC method                       | 200, JSON-RPC error -32601 (the HTTP exchange |
 * |                                                    |   worked; the error travels in JSON-RPC)      |
 * | /mcp tools/call: unknown tool, wrong argument types| 200, tool result with isError (MCP: tool      |
 * |                                                    |   errors are reported in the result)          |
 * | /mcp tools/call whose params are not an object of  | 200, JSON-RPC error (the SDK reports -32603)  |
 * |   the right shape                                  |                                               |
 * | /mcp a response or unknown notification sent to us | 202, no body (Streamable HTTP: accepted input |
 * |                                                    |   that is not a request)                      |
 * | body over 1 MiB, declared or chunked               | 413                                           |
 * | invalid UTF-8 inside a JSON string                 | decoded as U+FFFD: 200, the tool answers      |
 * | invalid UTF-8 where JSON syntax is expected        | 400 (-32700)                                  |
 * | /mcp Content-Type not application/json             | 415                                           |
 * | /mcp Accept without both JSON and event streams    | 406                                           |
 * | /mcp GET, DELETE, PUT, PATCH, OPTIONS, HEAD, ...   | 405 with Allow: POST (stateless server)       |
 * | a method Node's parser does not know (FOO)         | 400 from the HTTP parser                      |
 * | headers over 16 KiB (many, or one huge)            | 431 from the HTTP parser                      |
 * | no Host header                                     | 400 (HTTP/1.1 requires one)                   |
 * | /mcp foreign Host / foreign Origin                 | 421 / 403 (DNS-rebinding protection)          |
 * | /mcp missing or wrong bearer token                 | 401                                           |
 * | /mcp unsupported MCP-Protocol-Version              | 400                                           |
 * | /oauth/token, /revoke: not a form                  | 400 invalid_request                           |
 * | /oauth/token, /revoke: no or wrong client auth     | 401 invalid_client                            |
 * | /oauth/token: bad grant, code, token, scope,       | 400 (invalid_request, unsupported_grant_type, |
 * |   resource or a repeated parameter                 |   invalid_grant, invalid_scope, invalid_target)|
 * | /oauth/authorize: unknown client or redirect URI   | 400 error page, never a redirect (§4.1.2.1)   |
 * | /oauth/authorize: other bad parameters             | 302 back to the client with error= (§4.1.2.1) |
 * | POST /oauth/authorize: not a form / no CSRF pair   | 400 / 401                                     |
 * | /oauth paths that do not exist, or wrong method    | 404 (no route; 405 would do as well)          |
 * | /desk pages without a session                      | 303 to /desk/login                            |
 * | /desk/api/* and /desk/partials without a session   | 401                                           |
 * | POST /desk/login without a matching CSRF pair      | 403; a body that cannot be parsed: 400 or 403 |
 * | POST /desk/api/login: not JSON / bad JSON / foreign| 415 / 400 / 403                               |
 * |   Origin / wrong credentials                       |   / 401, or 429 once the throttle locks       |
 * | /desk decision with a session: no CSRF header or   | 403                                           |
 * |   foreign Origin                                   |                                               |
 * |   ... not JSON / bad body / unknown request        | 415 / 400 / 404                               |
 * | /desk paths that do not exist, or wrong method     | 404                                           |
 */
export interface HostileCase {
  readonly kind: string;
  readonly request: RawRequest;
  readonly expect: readonly number[];
  /** A further check on the answer; returns what is wrong, if anything. */
  readonly check?: (response: RawResponse) => string | undefined;
}

export interface HostileContext {
  /** A live Tier 1 access token for /mcp. */
  readonly serviceToken: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: string;
  /** A signed-in desk session: its cookie value and CSRF token. */
  readonly deskCookie: string;
  readonly deskCsrf: string;
}

/** mulberry32: small, fast and plenty for choosing test inputs reproducibly from a seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Header = readonly [string, string];

export function hostileCases(seed: number, count: number, ctx: HostileContext): HostileCase[] {
  const random = seededRandom(seed);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const word = (length = int(1, 12)) =>
    Array.from({ length }, () => pick([...'abcdefghijklmnopqrstuvwxyz0123456789-_'])).join('');
  const printable = (length: number) =>
    Array.from({ length }, () => String.fromCharCode(int(32, 126))).join('');
  const junkValue = (): unknown =>
    pick([
      () => int(-1e6, 1e6),
      () => random() * 1e9,
      () => true,
      () => null,
      () => [int(0, 9), word()],
      () => ({ [word()]: word() }),
      () => printable(int(0, 40)),
    ])();

  const bearer: Header = ['Authorization', `Bearer ${ctx.serviceToken}`];
  const mcpHeaders: Header[] = [
    bearer,
    ['Content-Type', 'application/json'],
    ['Accept', 'application/json, text/event-stream'],
  ];
  const basic = (id: string, secret: string): Header => [
    'Authorization',
    `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
  ];
  const clientAuth = basic(ctx.clientId, ctx.clientSecret);
  const formType: Header = ['Content-Type', 'application/x-www-form-urlencoded'];
  const session: Header = ['Cookie', `holddesk_desk=${ctx.deskCookie}`];

  const json = (value: unknown) => Buffer.from(JSON.stringify(value));
  const rpc = (method: string, params?: unknown) => ({
    jsonrpc: '2.0',
    id: int(1, 1e6),
    method,
    ...(params === undefined ? {} : { params }),
  });
  const toolCall = (name: string, args: unknown) => rpc('tools/call', { name, arguments: args });
  const validCalls = [
    () => rpc('ping'),
    () => rpc('tools/list'),
    () => toolCall('answer_office_faq', { question: 'What are your hours?' }),
    () => toolCall('check_availability', { date: '2026-09-16', service: 'consultation' }),
  ];
  const mcp = (
    kind: string,
    body: Buffer,
    expect: number[],
    extra: Partial<RawRequest> = {},
    check?: HostileCase['check'],
  ): HostileCase => ({
    kind: `mcp ${kind}`,
    request: { method: 'POST', path: '/mcp', headers: mcpHeaders, body, ...extra },
    expect,
    ...(check ? { check } : {}),
  });
  const contains = (text: string) => (response: RawResponse) =>
    response.body.includes(text) ? undefined : `answer lacks ${text}: ${response.body.slice(0, 200)}`;
  const invalidBytes = () =>
    Buffer.from(
      pick([[0xff], [0xc3, 0x28], [0xe2, 0x28, 0xa1], [0xf0, 0x28, 0x8c, 0x28], [0x80], [0xed, 0xa0, 0x80]]),
    );
  const flood = (): Header[] =>
    random() < 0.5
      ? Array.from({ length: int(500, 900) }, (_, i) => [`X-Flood-${i}`, word(30)] as const)
      : [['X-Huge', 'x'.repeat(int(17_000, 40_000))]];

  const mcpCases: (() => HostileCase)[] = [
    () => {
      const text = JSON.stringify(pick(validCalls)());
      const cut = text.slice(0, int(0, text.length - 1));
      const garbage = pick(['{', '[']) + printable(int(0, 60));
      return mcp('broken JSON', Buffer.from(random() < 0.6 ? cut : garbage), [400]);
    },
    () => {
      const message: Record<string, unknown> = pick(validCalls)();
      const field = pick(['jsonrpc', 'id', 'method', 'params'] as const);
      const wrong = {
        jsonrpc: () => pick(['1.0', '2', 2, null, '', word()]),
        id: () => pick([{}, [], true, null, 1.5, { id: 1 }]),
        method: () => pick([5, null, {}, [], true]),
        params: () => pick(['x', 5, [1, 2], true]),
      }[field]();
      message[field] = wrong;
      return mcp('wrong JSON-RPC types', json(message), [400]);
    },
    () => mcp('JSON that is not a message', json(pick([junkValue(), [junkValue()], 'text', 0])), [400]),
    () =>
      mcp(
        'batch of the wrong size',
        json(random() < 0.3 ? [] : Array.from({ length: int(65, 120) }, () => rpc('ping'))),
        [400],
      ),
    () =>
      mcp('batch with an invalid member', json([rpc('ping'), { jsonrpc: '2.0', id: {}, method: 5 }]), [400]),
    () =>
      mcp(
        'unknown JSON-RPC method',
        json(rpc(`x-hostile/${word()}`, { [word()]: junkValue() })),
        [200],
        {},
        contains('"code":-32601'),
      ),
    () => {
      const bad = pick([
        () => toolCall(`x_${word()}`, {}),
        () => toolCall('check_availability', { date: int(0, 1e6), service: 'consultation' }),
        () => toolCall('check_availability', { date: '2026-09-16', service: word() }),
        () => toolCall('book_appointment', { client_name: int(0, 9) }),
        () => toolCall('answer_office_faq', { question: junkValue() === null ? 5 : { q: word() } }),
        () =>
          toolCall('estimate_home_insurance_quote_range', {
            state: 'IL',
            dwelling_coverage: word(),
            year_built: 1990,
          }),
        () =>
          toolCall('get_appointment_status', { appointment_id: 'x'.repeat(int(41, 200)), contact: 'a@b.c' }),
      ])();
      return mcp('tool call with wrong arguments', json(bad), [200], {}, contains('"isError":true'));
    },
    () => {
      const params = pick([
        { name: int(0, 9) },
        { name: 'answer_office_faq', arguments: [1, 2] },
        { arguments: {} },
      ]);
      return mcp(
        'tools/call with malformed params',
        json(rpc('tools/call', params)),
        [200],
        {},
        contains('"error":{"code":'),
      );
    },
    () =>
      mcp(
        'a response or notification sent to the server',
        json(
          pick([
            { jsonrpc: '2.0', id: int(1, 9), result: { [word()]: junkValue() } },
            { jsonrpc: '2.0', id: int(1, 9), error: { code: int(-32768, 0), message: word() } },
            { jsonrpc: '2.0', method: `notifications/${word()}` },
          ]),
        ),
        [202],
      ),
    () =>
      random() < 0.7
        ? mcp('declared body over 1 MiB', Buffer.alloc(64 * 1024, 0x20), [413], {
            headers: [...mcpHeaders, ['Content-Length', String(int(1024 * 1024 + 1, 50 * 1024 * 1024))]],
          })
        : mcp('chunked body over 1 MiB', Buffer.alloc(1024 * 1024 + int(1, 100_000), 0x20), [413], {
            chunked: 64 * 1024,
          }),
    () => {
      const question = Buffer.concat([Buffer.from(word()), invalidBytes(), Buffer.from(word())]);
      const [head, tail] = JSON.stringify(toolCall('answer_office_faq', { question: '\u0000' })).split(
        '\\u0000',
      );
      return mcp(
        'invalid UTF-8 inside a string',
        Buffer.concat([Buffer.from(head!), question, Buffer.from(tail!)]),
        [200],
        {},
        contains('"grounded"'),
      );
    },
    () => {
      const text = JSON.stringify(pick(validCalls)());
      const structural = [...text.matchAll(/[{}[\]:,"]/g)].map((m) => m.index);
      const at = pick(structural);
      return mcp(
        'invalid UTF-8 instead of JSON syntax',
        Buffer.concat([Buffer.from(text.slice(0, at)), invalidBytes(), Buffer.from(text.slice(at + 1))]),
        [400],
      );
    },
    () => {
      const type = pick([
        'text/plain',
        'application/xml',
        'multipart/form-data; boundary=x',
        'application/x-www-form-urlencoded',
        'application/jsonx',
        'application/json-seq',
        'text/json',
        '*/*',
      ]);
      return mcp('wrong Content-Type', json(rpc('ping')), [415], {
        headers: [bearer, ['Accept', 'application/json, text/event-stream'], ['Content-Type', type]],
      });
    },
    () =>
      mcp('no Content-Type', json(rpc('ping')), [415], {
        headers: [bearer, ['Accept', 'application/json, text/event-stream']],
      }),
    () => {
      const accept = pick(['text/html', 'application/json', 'text/event-stream', 'application/xml', '']);
      return mcp('unacceptable Accept', json(rpc('ping')), [406], {
        headers: [
          bearer,
          ['Content-Type', 'application/json'],
          ...(accept ? [['Accept', accept] as const] : []),
        ],
      });
    },
    () => {
      const method = pick(['GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND']);
      return {
        kind: `mcp HTTP ${method}`,
        request: { method, path: '/mcp', headers: mcpHeaders },
        expect: [405],
      };
    },
    () => ({
      kind: 'mcp unknown HTTP method',
      request: {
        method: pick(['FOO', 'BREW', 'GETS', 'POSTT', 'HACK']),
        path: '/mcp',
        headers: mcpHeaders,
        body: json(rpc('ping')),
      },
      expect: [400],
    }),
    () => mcp('header flood', json(rpc('ping')), [431], { headers: [...mcpHeaders, ...flood()] }),
    () => mcp('no Host', json(rpc('ping')), [400], { noHost: true }),
    () =>
      mcp('foreign Host', json(rpc('ping')), [421], {
        headers: [...mcpHeaders, ['Host', `${word()}.example:${int(1, 65535)}`]],
      }),
    () =>
      mcp('foreign Origin', json(rpc('ping')), [403], {
        headers: [...mcpHeaders, ['Origin', `https://${word()}.example`]],
      }),
    () => {
      const auth = pick<Header | undefined>([
        undefined,
        ['Authorization', `Bearer ${word(43)}`],
        ['Authorization', `Basic ${Buffer.from('a:b').toString('base64')}`],
        ['Authorization', 'Bearer'],
        ['Authorization', `Bearer ${ctx.serviceToken} extra`],
        ['Authorization', `Bearer ${ctx.serviceToken.slice(0, -1)}`],
        ['Authorization', `Bearer ${'A'.repeat(int(1000, 8000))}`],
        ['Authorization', printable(int(1, 100))],
      ]);
      const headers = mcpHeaders.filter(([name]) => name !== 'Authorization');
      return mcp('missing or wrong token', json(rpc('ping')), [401], {
        headers: auth ? [auth, ...headers] : headers,
      });
    },
    () =>
      mcp('unsupported MCP-Protocol-Version', json(rpc('ping')), [400], {
        headers: [
          ...mcpHeaders,
          ['MCP-Protocol-Version', pick(['1999-01-01', word(), '2025-13-45', '2026-01-01'])],
        ],
      }),
  ];

  const form = (params: readonly (readonly [string, string])[]) =>
    Buffer.from(params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));
  const token = (
    kind: string,
    body: Buffer,
    headers: Header[],
    expect: number[],
    path = '/oauth/token',
  ): HostileCase => ({
    kind: `oauth ${kind}`,
    request: { method: 'POST', path, headers, body },
    expect,
  });
  const challenge = () => word(43).replace(/[^A-Za-z0-9_-]/g, 'a');
  const authorizeParams = (): [string, string][] => [
    ['response_type', 'code'],
    ['client_id', ctx.clientId],
    ['redirect_uri', ctx.redirectUri],
    ['code_challenge', challenge()],
    ['code_challenge_method', 'S256'],
    ['state', word()],
  ];
  const query = (params: readonly (readonly [string, string])[]) =>
    params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

  const oauthCases: (() => HostileCase)[] = [
    () =>
      token(
        'token request that is not a form',
        json({ grant_type: 'client_credentials' }),
        [
          ['Content-Type', pick(['application/json', 'text/plain', 'multipart/form-data; boundary=z'])],
          clientAuth,
        ],
        [400],
        pick(['/oauth/token', '/oauth/revoke']),
      ),
    () =>
      token(
        'token request without client authentication',
        form([
          ['grant_type', 'client_credentials'],
          ['scope', 'mcp:service'],
        ]),
        [formType],
        [401],
        pick(['/oauth/token', '/oauth/revoke']),
      ),
    () => {
      const auth = pick<Header>([
        basic(ctx.clientId, word(20)),
        basic(word(), ctx.clientSecret),
        ['Authorization', `Basic ${printable(int(1, 40)).replace(/\s/g, '')}`],
        ['Authorization', `Basic ${Buffer.from(word()).toString('base64')}`],
        ['Authorization', `Basic ${Buffer.from('%zz:%zz').toString('base64')}`],
        ['Authorization', `Bearer ${word(30)}`],
        ['Authorization', word()],
      ]);
      return token(
        'wrong client authentication',
        form([['grant_type', 'client_credentials']]),
        [formType, auth],
        [401],
      );
    },
    () => {
      const body = pick<(readonly [string, string])[]>([
        [],
        [['grant_type', `x-${word()}`]],
        [
          ['grant_type', 'authorization_code'],
          ['code', word(43)],
          ['redirect_uri', ctx.redirectUri],
          ['code_verifier', word(50)],
        ],
        [
          ['grant_type', 'authorization_code'],
          ['code', word(43)],
        ],
        [
          ['grant_type', 'refresh_token'],
          ['refresh_token', word(43)],
        ],
        [['grant_type', 'refresh_token']],
        [
          ['grant_type', 'client_credentials'],
          ['scope', `x-${word()}`],
        ],
        [
          ['grant_type', 'client_credentials'],
          ['resource', `https://${word()}.example/mcp`],
        ],
        [
          ['grant_type', 'client_credentials'],
          ['grant_type', 'client_credentials'],
        ],
      ]);
      return token('bad grant', form(body), [formType, clientAuth], [400]);
    },
    () =>
      token(
        'token body over 1 MiB',
        Buffer.alloc(32 * 1024, 0x61),
        [formType, clientAuth, ['Content-Length', String(int(1024 * 1024 + 1, 1e8))]],
        [413],
      ),
    () =>
      token(
        'invalid UTF-8 in a token form',
        Buffer.concat([Buffer.from('grant_type='), invalidBytes(), Buffer.from(`&scope=${word()}`)]),
        [formType, clientAuth],
        [400],
      ),
    () => {
      const params = pick([
        () => [
          ['client_id', `x-${word()}`],
          ['redirect_uri', ctx.redirectUri],
          ['response_type', 'code'],
        ],
        () => [['redirect_uri', ctx.redirectUri]],
        () => [
          ['client_id', ctx.clientId],
          ['redirect_uri', `https://${word()}.example/cb`],
        ],
        () => [['client_id', ctx.clientId]],
      ])();
      return {
        kind: 'oauth authorize for an unknown client or redirect',
        request: {
          method: 'GET',
          path: `/oauth/authorize?${query(params as [string, string][])}`,
          headers: [],
        },
        expect: [400],
      };
    },
    () => {
      const params = authorizeParams();
      const [name, value] = pick<[string, string]>([
        ['response_type', pick(['token', '', word()])],
        ['code_challenge_method', pick(['plain', '', word()])],
        ['code_challenge', pick(['', 'short', printable(50)])],
        ['scope', `x-${word()}`],
        ['resource', `https://${word()}.example/mcp`],
      ]);
      const changed = params.filter(([k]) => k !== name).concat(value === '' ? [] : [[name, value]]);
      return {
        kind: 'oauth authorize with bad parameters',
        request: { method: 'GET', path: `/oauth/authorize?${query(changed)}`, headers: [] },
        expect: [302],
        check: (response) =>
          response.headers.get('location')?.startsWith(ctx.redirectUri) &&
          response.headers.get('location')?.includes('error=')
            ? undefined
            : `redirect is not an error back to the client: ${response.headers.get('location')}`,
      };
    },
    () => ({
      kind: 'oauth consent post that is not a form',
      request: {
        method: 'POST',
        path: '/oauth/authorize',
        headers: [['Content-Type', pick(['application/json', 'text/plain'])]],
        body: json({ client_id: ctx.clientId }),
      },
      expect: [400],
    }),
    () => ({
      kind: 'oauth consent post without the CSRF pair',
      request: {
        method: 'POST',
        path: '/oauth/authorize',
        headers: [
          formType,
          ...(random() < 0.5 ? [['Cookie', `holddesk_consent_csrf=${word(32)}`] as const] : []),
        ],
        body: form([
          ...authorizeParams(),
          ['csrf_token', word(32)],
          ['username', word()],
          ['password', word()],
          ['decision', 'allow'],
        ]),
      },
      expect: [401],
    }),
    () => ({
      kind: 'oauth path that does not exist, or the wrong method',
      request:
        random() < 0.5
          ? { method: pick(['GET', 'POST', 'PUT']), path: `/oauth/${word()}`, headers: [] }
          : {
              method: pick(['GET', 'PUT', 'DELETE', 'PATCH']),
              path: pick(['/oauth/token', '/oauth/revoke']),
              headers: [],
            },
      expect: [404, 405],
    }),
    () =>
      token(
        'header flood',
        form([['grant_type', 'client_credentials']]),
        [formType, clientAuth, ...flood()],
        [431],
      ),
  ];

  const deskPage = () =>
    pick([
      '/desk',
      '/desk/calendar',
      '/desk/audit',
      '/desk/audit.csv',
      `/desk/calendar?date=${word()}`,
      `/desk/audit?action=${encodeURIComponent(printable(10))}`,
    ]);
  const jsonType: Header = ['Content-Type', 'application/json'];
  const decisionPath = () => `/desk/api/approvals/${encodeURIComponent(word(int(1, 40)))}/decision`;
  const deskCases: (() => HostileCase)[] = [
    () => ({
      kind: 'desk page without a session',
      request: {
        method: 'GET',
        path: deskPage(),
        headers: random() < 0.5 ? [] : [['Cookie', `holddesk_desk=${word(43)}`]],
      },
      expect: [303],
    }),
    () => ({
      kind: 'desk form post without a session',
      request: {
        method: 'POST',
        path: pick([
          `/desk/approvals/${word()}/decision`,
          '/desk/admin/staff',
          `/desk/admin/staff/${word()}/disable`,
        ]),
        headers: [formType],
        body: form([
          ['decision', 'approve'],
          ['csrf_token', word()],
        ]),
      },
      expect: [303],
    }),
    () => {
      const cookie = pick<Header[]>([
        [],
        [['Cookie', `holddesk_desk=${word(43)}`]],
        [['Cookie', `holddesk_desk=${'x'.repeat(int(65, 8000))}`]],
        [['Cookie', printable(60).replace(/;/g, '')]],
      ]);
      const [method, path] = pick<[string, string]>([
        ['GET', '/desk/api/approvals'],
        ['GET', '/desk/api/session'],
        ['GET', '/desk/api/events'],
        ['GET', '/desk/partials/queue'],
        ['POST', decisionPath()],
        ['POST', '/desk/api/logout'],
        ['GET', `/desk/api/${word()}`],
      ]);
      return {
        kind: 'desk API without a session',
        request: { method, path, headers: [...cookie, jsonType], body: json({ decision: 'approve' }) },
        expect: [401],
      };
    },
    () => {
      const body = pick([
        () => ({
          type: formType,
          body: form([
            ['username', word()],
            ['password', word()],
            ['csrf_token', word(43)],
          ]),
        }),
        () => ({ type: formType, body: Buffer.from(`${printable(40)}%ZZ&&=`) }),
        () => ({ type: jsonType, body: Buffer.from(`{"username":${printable(20)}`) }),
        () => ({ type: ['Content-Type', 'text/plain'] as Header, body: Buffer.from(printable(80)) }),
      ])();
      return {
        kind: 'desk sign-in form without a matching CSRF pair',
        request: {
          method: 'POST',
          path: '/desk/login',
          headers: [body.type, ['Cookie', `holddesk_desk_login=${word(43)}`]],
          body: body.body,
        },
        expect: [403],
      };
    },
    () => {
      // Signing out without a session has nothing to check and goes to the sign-in page; with one,
      // the form must be read and carry the CSRF token.
      const [path, cookie, expect] = pick<[string, Header[], number[]]>([
        ['/desk/login', [], [400, 403]],
        ['/desk/logout', [], [303]],
        ['/desk/logout', [session], [400, 403]],
        [`/desk/approvals/${word()}/decision`, [session], [400, 403]],
        ['/desk/admin/staff', [session], [400, 403]],
      ]);
      return {
        kind: `desk ${path.replace(/approvals\/[^/]+/, 'approvals/:id')} form that cannot be parsed${cookie.length > 0 ? ', signed in' : ''}`,
        request: {
          method: 'POST',
          path,
          headers: [
            ...cookie,
            [
              'Content-Type',
              pick([
                'multipart/form-data',
                'multipart/form-data; boundary=zz',
                `multipart/form-data; boundary=${word()}`,
              ]),
            ],
          ],
          body: Buffer.from(
            pick([printable(80), '--zz\r\nContent-Disposition: form-data\r\n\r\nx', '--zz--']),
          ),
        },
        expect,
      };
    },
    () => {
      const variant = pick([
        () => ({
          headers: [
            [
              'Content-Type',
              pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']),
            ],
          ] as Header[],
          body: json({ username: 'staff', password: word() }),
          expect: [415],
        }),
        () => ({
          headers: [jsonType],
          body: Buffer.from(
            pick([
              '{',
              '[]',
              'null',
              '{"username":5}',
              `{"username":"${'u'.repeat(70)}","password":"x"}`,
              printable(30),
            ]),
          ),
          expect: [400],
        }),
        () => ({
          headers: [jsonType, ['Origin', `https://${word()}.example`]] as Header[],
          body: json({ username: 'staff', password: word() }),
          expect: [403],
        }),
        () => ({
          headers: [jsonType],
          body: json({ username: pick(['staff', word()]), password: word(int(1, 60)) }),
          expect: [401, 429],
        }),
        () => ({
          headers: [jsonType],
          body: Buffer.concat([
            Buffer.from('{"username":"staff","password":"'),
            invalidBytes(),
            Buffer.from('"}'),
          ]),
          expect: [401, 429],
        }),
      ])();
      return {
        kind: 'desk API sign-in',
        request: { method: 'POST', path: '/desk/api/login', headers: variant.headers, body: variant.body },
        expect: variant.expect,
      };
    },
    () => {
      const variant = pick([
        () => ({
          headers: [session, jsonType] as Header[],
          body: json({ decision: 'approve' }),
          expect: [403],
        }),
        () => ({
          headers: [session, jsonType, ['X-CSRF-Token', word(43)]] as Header[],
          body: json({ decision: 'approve' }),
          expect: [403],
        }),
        () => ({
          headers: [
            session,
            jsonType,
            ['X-CSRF-Token', ctx.deskCsrf],
            ['Origin', `https://${word()}.example`],
          ] as Header[],
          body: json({ decision: 'approve' }),
          expect: [403],
        }),
        () => ({
          headers: [
            session,
            ['X-CSRF-Token', ctx.deskCsrf],
            ['Content-Type', pick(['text/plain', 'application/x-www-form-urlencoded'])],
          ] as Header[],
          body: json({ decision: 'approve' }),
          expect: [415],
        }),
        () => ({
          headers: [session, jsonType, ['X-CSRF-Token', ctx.deskCsrf]] as Header[],
          body: pick([
            Buffer.from('{'),
            json({ decision: word() }),
            json({ decision: 'approve', note: 'n'.repeat(1001) }),
            json({ decision: 'approve', [`x${word()}`]: 1 }),
            json([junkValue()]),
          ]),
          expect: [400],
        }),
        () => ({
          headers: [session, jsonType, ['X-CSRF-Token', ctx.deskCsrf]] as Header[],
          body: json({ decision: pick(['approve', 'reject']), note: word() }),
          expect: [404],
        }),
      ])();
      return {
        kind: 'desk decision with a session',
        request: { method: 'POST', path: decisionPath(), headers: variant.headers, body: variant.body },
        expect: variant.expect,
      };
    },
    () => ({
      kind: 'desk path that does not exist, or the wrong method',
      request:
        random() < 0.5
          ? {
              method: 'GET',
              path: pick([
                `/desk/${word()}/${word()}`,
                `/desk/assets/${word()}`,
                '/desk/assets/../../etc/passwd',
                `/desk/assets/%${word(2)}`,
              ]),
              headers: [],
            }
          : {
              method: pick(['PUT', 'DELETE', 'PATCH']),
              path: pick(['/desk', '/desk/login', '/desk/calendar']),
              headers: [],
            },
      expect: [404],
    }),
    () => ({
      kind: 'desk header flood',
      request: { method: 'GET', path: deskPage(), headers: flood() },
      expect: [431],
    }),
  ];

  // Large bodies cost a megabyte each; a few dozen are plenty to show the limit holds.
  let large = 0;
  const cases: HostileCase[] = [];
  while (cases.length < count) {
    const roll = random();
    const family = roll < 0.55 ? mcpCases : roll < 0.8 ? oauthCases : deskCases;
    const made = pick(family)();
    const size = made.request.body?.length ?? 0;
    if (size > 512 * 1024 && ++large > 24) continue;
    cases.push(made);
  }
  return cases;
}
