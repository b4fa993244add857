import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestDatabase } from '../support/databases.js';
import { CALLBACK, CLIENT_ID, CLIENT_SECRET, DEMO_PASSWORD, DEMO_USER } from '../support/oauth.js';
import { HoldDeskProcess } from './support/holddesk-process.js';
import { hostileCases, type HostileCase, type HostileContext } from './support/hostile-requests.js';
import { send, type RawResponse } from './support/raw-http.js';

/**
 * Ten thousand generated malformed and hostile requests against a real `holddesk serve` process:
 * every one gets the answer that is right for it (see the table in hostile-requests.ts), none gets a
 * 5xx, the process never falls over, and its memory does not keep growing. The cases come from a
 * seed, so any failure can be replayed: HOLDDESK_HOSTILE_SEED=<seed> reruns exactly that sequence.
 */
const COUNT = 10_000;
const SEED = Number(process.env.HOLDDESK_HOSTILE_SEED ?? 20261129);
const IN_FLIGHT = 16;
/** Memory is compared after this many requests (everything warmed up) and at the end. */
const WARM_AFTER = 2_000;
/** Growth allowed from then to the end: garbage-collector slack, far below what a leak would add. */
const MAX_GROWTH_MB = 64;
const DESK_PASSWORD = 'desk-password-for-tests';

const OAUTH_ENV = {
  HOLDDESK_AUTH: 'oauth',
  HOLDDESK_OAUTH_CLIENT_ID: CLIENT_ID,
  HOLDDESK_OAUTH_CLIENT_SECRET: CLIENT_SECRET,
  HOLDDESK_OAUTH_REDIRECT_URIS: CALLBACK,
  HOLDDESK_DEMO_USERNAME: DEMO_USER,
  HOLDDESK_DEMO_PASSWORD: DEMO_PASSWORD,
  HOLDDESK_DESK_PASSWORD: DESK_PASSWORD,
};

interface Mismatch {
  readonly kind: string;
  readonly got: number;
  readonly expected: readonly number[];
  readonly why?: string;
  readonly answer: string;
}

async function serviceToken(base: string): Promise<string> {
  const response = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
    },
    body: 'grant_type=client_credentials&scope=mcp%3Aservice',
  });
  if (response.status !== 200) throw new Error(`no service token: ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function deskSession(base: string): Promise<{ cookie: string; csrf: string }> {
  const response = await fetch(`${base}/desk/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'staff', password: DESK_PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`no desk session: ${response.status}`);
  const cookie = /holddesk_desk=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  const { csrf_token: csrf } = (await response.json()) as { csrf_token: string };
  if (!cookie) throw new Error('the desk set no session cookie');
  return { cookie, csrf };
}

function judge(item: HostileCase, response: RawResponse): Mismatch | undefined {
  const why = item.expect.includes(response.status) ? item.check?.(response) : undefined;
  if (item.expect.includes(response.status) && why === undefined) return undefined;
  return {
    kind: item.kind,
    got: response.status,
    expected: item.expect,
    ...(why ? { why } : {}),
    answer: response.body.slice(0, 160),
  };
}

describe('hostile input against a running server', () => {
  const sqlite = DIALECTS.find((d) => d.name === 'sqlite')!;
  let database: TestDatabase;
  let server: HoldDeskProcess;

  beforeAll(async () => {
    database = await sqlite.create();
    server = await HoldDeskProcess.start({ target: database.target, env: OAUTH_ENV });
  }, 60_000);

  afterAll(async () => {
    await server.stop();
    await database.dispose();
  });

  it(
    `answers ${COUNT} generated hostile requests with the right 4xx, no 5xx, and stays up`,
    { timeout: 180_000 },
    async () => {
      const desk = await deskSession(server.url);
      const context: HostileContext = {
        serviceToken: await serviceToken(server.url),
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        redirectUri: CALLBACK,
        deskCookie: desk.cookie,
        deskCsrf: desk.csrf,
      };
      const cases = hostileCases(SEED, COUNT, context);
      const mismatches: Mismatch[] = [];
      const statuses = new Map<number, number>();
      let next = 0;
      let done = 0;
      let warmRss = 0;
      const worker = async () => {
        while (next < cases.length) {
          const item = cases[next++]!;
          const response = await send(server.url, item.request);
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          const mismatch = judge(item, response);
          if (mismatch) mismatches.push(mismatch);
          if (++done === WARM_AFTER) warmRss = server.rssMb();
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
      const endRss = server.rssMb();

      // One line per kind of wrong answer, with how often and an example, instead of thousands.
      const wrong = new Map<string, Mismatch & { times: number }>();
      for (const m of mismatches) {
        const key = `${m.kind} -> ${m.got}`;
        const seen = wrong.get(key);
        wrong.set(key, seen ? { ...seen, times: seen.times + 1 } : { ...m, times: 1 });
      }
      expect([...wrong.values()], `seed ${SEED}: ${mismatches.length} wrong answers`).toEqual([]);
      expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
      expect(done).toBe(COUNT);
      expect(server.alive).toBe(true);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(endRss - warmRss, `RSS ${warmRss.toFixed(1)} -> ${endRss.toFixed(1)} MiB`).toBeLessThan(
        MAX_GROWTH_MB,
      );
    },
  );
});
