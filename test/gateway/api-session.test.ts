import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Authenticator } from '../../src/auth/authenticator.js';
import type { StaffPrincipal } from '../../src/gateway/staff-principal.js';
import { createGatewaySurface, type GatewaySurface } from '../../src/gateway/surface.js';
import { createLogger } from '../../src/logger.js';
import { originPolicy } from '../../src/http/origin-guard.js';
import { staffAccounts } from '../../src/store/staff.js';
import type { Store } from '../../src/store/store.js';
import { createTestStore, DIALECTS } from '../support/databases.js';
import { bundledOfficeData } from '../support/office.js';

const BASE = 'http://127.0.0.1:8641';
const ORIGIN = 'http://127.0.0.1:8641';

/** The desk's session, as the desk will provide it: here, a cookie that names the signed-in staff member. */
const deskSessions: Authenticator<StaffPrincipal> = {
  authenticate: (request) => {
    const username = /session=(\w+)/.exec(request.headers.get('cookie') ?? '')?.[1];
    if (!username) return Promise.resolve({ ok: false });
    return Promise.resolve({
      ok: true,
      token: '',
      principal: {
        kind: 'staff',
        username,
        displayName: username,
        role: 'staff',
        via: 'desk_session',
        credentialId: null,
        clientId: `session:${username}`,
        scopes: ['gateway'],
      },
    });
  },
};

describe('the gateway API with the desk session', () => {
  let store: Store;
  let dispose: () => Promise<void>;
  let surface: GatewaySurface;

  beforeAll(async () => {
    ({ store, dispose } = await createTestStore(DIALECTS[0]!));
    const data = await bundledOfficeData();
    await staffAccounts(store.db, data.office.id).insert({
      username: 'sam',
      display_name: 'Sam Rivera',
      role: 'staff',
      password_hash: 'unused',
      created_at: new Date().toISOString(),
      disabled_at: null,
    });
    surface = await createGatewaySurface({
      config: {
        stateful: false,
        jsonResponse: true,
        maxConcurrentCalls: 2,
        dailyCallLimit: 20,
        oidcIssuer: undefined,
        oidcAudience: undefined,
      },
      data,
      store,
      logger: createLogger({ logLevel: 'silent' }),
      clock: () => new Date(),
      version: 'test',
      origins: originPolicy(8641, [], []),
      deskSessions,
    });
  });

  afterAll(async () => {
    await surface?.close();
    await dispose?.();
  });

  const request = (path: string, init: RequestInit = {}) =>
    surface.api.request(`${BASE}${path}`, { ...init, headers: { host: '127.0.0.1:8641', ...init.headers } });

  it('reads with the session cookie alone', async () => {
    const response = await request('/gateway/status', { headers: { cookie: 'session=sam' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ trunk: { configured: false } });
  });

  it('refuses changes without an Origin header, and from another origin (CSRF)', async () => {
    const mint = (headers: Record<string, string>) =>
      request('/tokens', {
        method: 'POST',
        headers: { cookie: 'session=sam', 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ name: 'laptop' }),
      });
    expect((await mint({})).status).toBe(403);
    expect((await mint({ origin: 'https://evil.example' })).status).toBe(403);
    const minted = await mint({ origin: ORIGIN });
    expect(minted.status).toBe(201);
    const body = (await minted.json()) as { token: string; token_id: string; staff: string };
    expect(body).toMatchObject({ staff: 'sam', state: 'active' });
    expect(body.token).toMatch(/^hd_pat_[A-Za-z0-9_-]{43}$/);

    // The minted token works as a bearer token, and is never shown again.
    const listed = await request('/tokens', { headers: { authorization: `Bearer ${body.token}` } });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(await listed.json())).not.toContain(body.token);
  });

  it('never falls back to the session when a bearer token is sent', async () => {
    const response = await request('/gateway/status', {
      headers: { cookie: 'session=sam', authorization: 'Bearer hd_pat_wrong' },
    });
    expect(response.status).toBe(401);
  });

  it('refuses a WebSocket upgrade with the session but without an Origin', async () => {
    const response = await request('/events', {
      headers: { cookie: 'session=sam', upgrade: 'websocket', connection: 'Upgrade' },
    });
    expect(response.status).toBe(403);
  });

  it('refuses token minting with invalid input', async () => {
    const response = await request('/tokens', {
      method: 'POST',
      headers: { cookie: 'session=sam', origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', expires_in_days: 400 }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_expiry' });
  });
});
