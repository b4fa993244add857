import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/store.js';
import { oauthStore } from '../../src/store/oauth.js';
import { hashPassword } from '../../src/auth/passwords.js';
import { DIALECTS } from '../support/databases.js';
import {
  CALLBACK,
  CLIENT_ID,
  CLIENT_SECRET,
  client,
  consent,
  DEMO_PASSWORD,
  discover,
  insecure,
  oauth,
  OAUTH_SETTINGS,
  pkce,
  serviceToken,
  userTokens,
} from '../support/oauth.js';
import { callTool, connectClient, startTestServer, type TestServer } from '../support/server.js';

const sqlite = DIALECTS[0]!;
const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;

async function tokenRequest(
  server: TestServer,
  form: Record<string, string>,
  headers: Record<string, string> = { authorization: basic },
) {
  const response = await fetch(`${server.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

async function mcpStatus(server: TestServer, token: string): Promise<number> {
  const response = await fetch(server.mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  return response.status;
}

const authorizeParams = (challenge: string, extra: Record<string, string> = {}) => ({
  response_type: 'code',
  client_id: CLIENT_ID,
  redirect_uri: CALLBACK,
  code_challenge: challenge,
  code_challenge_method: 'S256',
  state: 'state-123',
  ...extra,
});

async function codeFor(server: TestServer, challenge: string): Promise<string> {
  const redirect = await consent(server.url, authorizeParams(challenge));
  return new URL(redirect.headers.get('location')!).searchParams.get('code')!;
}

describe('OAuth authorization server', () => {
  let server: TestServer;
  let as: oauth.AuthorizationServer;
  let now = Date.now();

  beforeAll(async () => {
    server = await startTestServer(sqlite, OAUTH_SETTINGS, { securityClock: () => new Date(now) });
    as = await discover(server.url);
  });

  afterAll(async () => {
    await server.dispose();
  });

  describe('metadata', () => {
    it('publishes exactly the Alexa+ fields (RFC 8414)', async () => {
      const metadata: unknown = await (
        await fetch(`${server.url}/.well-known/oauth-authorization-server`)
      ).json();
      expect(metadata).toEqual({
        issuer: server.url,
        authorization_endpoint: `${server.url}/oauth/authorize`,
        token_endpoint: `${server.url}/oauth/token`,
        response_types_supported: ['code'],
        grant_types_supported: ['client_credentials', 'authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        scopes_supported: ['mcp:service', 'mcp:tools', 'mcp:resources'],
      });
    });

    it('publishes protected-resource metadata at both well-known forms (RFC 9728)', async () => {
      for (const path of [
        '/.well-known/oauth-protected-resource',
        '/.well-known/oauth-protected-resource/mcp',
      ]) {
        const metadata: unknown = await (await fetch(`${server.url}${path}`)).json();
        expect(metadata).toMatchObject({ resource: server.mcpUrl, authorization_servers: [server.url] });
      }
    });
  });

  describe('Tier 1: client credentials', () => {
    it('issues a service token without a refresh token, with HTTP Basic', async () => {
      const tokens = await serviceToken(as);
      expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'mcp:service' });
      expect(tokens.refresh_token).toBeUndefined();
      expect(tokens.expires_in).toBeLessThanOrEqual(3600);
    });

    it('accepts client_secret_post', async () => {
      expect((await serviceToken(as, oauth.ClientSecretPost(CLIENT_SECRET))).scope).toBe('mcp:service');
    });

    it('refuses both client authentication methods at once', async () => {
      const result = await tokenRequest(server, {
        grant_type: 'client_credentials',
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
      });
      expect(result).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    });

    it('answers invalid_client with 401 and a Basic challenge for a wrong secret', async () => {
      const result = await tokenRequest(
        server,
        { grant_type: 'client_credentials' },
        {
          authorization: `Basic ${Buffer.from(`${CLIENT_ID}:wrong`).toString('base64')}`,
        },
      );
      expect(result).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
      expect(result.headers.get('www-authenticate')).toMatch(/^Basic/);
    });

    it('answers invalid_client for an unknown client and for no authentication', async () => {
      const unknown = await tokenRequest(
        server,
        { grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'x' },
        {},
      );
      expect(unknown).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
      const none = await tokenRequest(server, { grant_type: 'client_credentials' }, {});
      expect(none).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    });

    it('refuses to escalate a service grant to user scopes', async () => {
      const result = await tokenRequest(server, { grant_type: 'client_credentials', scope: 'mcp:tools' });
      expect(result).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    });

    it('checks the resource indicator against the MCP URL', async () => {
      expect(
        await tokenRequest(server, {
          grant_type: 'client_credentials',
          resource: 'https://elsewhere.example/mcp',
        }),
      ).toMatchObject({
        status: 400,
        body: { error: 'invalid_target' },
      });
      expect(
        (await tokenRequest(server, { grant_type: 'client_credentials', resource: server.mcpUrl })).status,
      ).toBe(200);
    });

    it('answers standard errors for malformed requests', async () => {
      expect(await tokenRequest(server, { grant_type: 'password' })).toMatchObject({
        status: 400,
        body: { error: 'unsupported_grant_type' },
      });
      expect(await tokenRequest(server, {})).toMatchObject({
        status: 400,
        body: { error: 'invalid_request' },
      });
      const duplicated = await fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials&grant_type=client_credentials',
      });
      expect(duplicated.status).toBe(400);
      const json = await fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials' }),
      });
      expect(await json.json()).toMatchObject({ error: 'invalid_request' });
    });

    it('marks token responses as not cacheable', async () => {
      const result = await tokenRequest(server, { grant_type: 'client_credentials' });
      expect(result.headers.get('cache-control')).toBe('no-store');
    });
  });

  describe('Tier 2: authorization code with PKCE', () => {
    it('issues user tokens with a refresh token to the independent client', async () => {
      const tokens = await userTokens(server.url, as);
      expect(tokens.scope).toBe('mcp:tools mcp:resources');
      expect(tokens.refresh_token).toBeTypeOf('string');
    });

    it('refuses plain PKCE and a missing challenge by redirecting with invalid_request', async () => {
      const { challenge } = await pkce();
      for (const extra of [
        { code_challenge_method: 'plain' },
        { code_challenge: '' },
        { code_challenge_method: '' },
      ]) {
        const response = await fetch(
          `${server.url}/oauth/authorize?${new URLSearchParams({ ...authorizeParams(challenge), ...extra })}`,
          {
            redirect: 'manual',
          },
        );
        expect(response.status).toBe(302);
        const location = new URL(response.headers.get('location')!);
        expect(location.origin + location.pathname).toBe(CALLBACK);
        expect(location.searchParams.get('error')).toBe('invalid_request');
        expect(location.searchParams.get('state')).toBe('state-123');
      }
    });

    it('shows a 400 page, never a redirect, for an unregistered redirect URI or client', async () => {
      const { challenge } = await pkce();
      for (const extra of [
        { redirect_uri: 'https://attacker.example/cb' },
        { redirect_uri: `${CALLBACK}/` },
        { client_id: 'nobody' },
      ]) {
        const response = await fetch(
          `${server.url}/oauth/authorize?${new URLSearchParams({ ...authorizeParams(challenge), ...extra })}`,
          {
            redirect: 'manual',
          },
        );
        expect(response.status).toBe(400);
        expect(response.headers.get('location')).toBeNull();
      }
    });

    it('redirects with access_denied when the caller denies', async () => {
      const { challenge } = await pkce();
      const response = await consent(server.url, authorizeParams(challenge), { decision: 'deny' });
      const location = new URL(response.headers.get('location')!);
      expect(location.searchParams.get('error')).toBe('access_denied');
      expect(location.searchParams.get('code')).toBeNull();
    });

    it('refuses a consent post without the double-submit CSRF token', async () => {
      const { challenge } = await pkce();
      const response = await fetch(`${server.url}/oauth/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          ...authorizeParams(challenge),
          username: 'demo',
          password: DEMO_PASSWORD,
          decision: 'allow',
          csrf_token: 'forged',
        }),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('location')).toBeNull();
    });

    it('protects the consent page from framing', async () => {
      const { challenge } = await pkce();
      const page = await fetch(
        `${server.url}/oauth/authorize?${new URLSearchParams(authorizeParams(challenge))}`,
      );
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    });

    it('escapes what the request carries into the page', async () => {
      const { challenge } = await pkce();
      const page = await fetch(
        `${server.url}/oauth/authorize?${new URLSearchParams(authorizeParams(challenge, { state: '"><script>alert(1)</script>' }))}`,
      );
      const html = await page.text();
      expect(html).not.toContain('<script>alert(1)</script>');
      expect(html).toContain('&lt;script&gt;');
    });

    it('refuses a wrong verifier, a wrong redirect URI and an unknown code with invalid_grant', async () => {
      const { challenge, verifier } = await pkce();
      const other = await pkce();
      const attempts = [
        { code: await codeFor(server, challenge), redirect_uri: CALLBACK, code_verifier: other.verifier },
        {
          code: await codeFor(server, challenge),
          redirect_uri: 'http://127.0.0.1:9/other',
          code_verifier: verifier,
        },
        { code: 'not-a-code', redirect_uri: CALLBACK, code_verifier: verifier },
      ];
      for (const attempt of attempts) {
        expect(await tokenRequest(server, { grant_type: 'authorization_code', ...attempt })).toMatchObject({
          status: 400,
          body: { error: 'invalid_grant' },
        });
      }
    });

    it('refuses an expired code (60 s)', async () => {
      const { challenge, verifier } = await pkce();
      const code = await codeFor(server, challenge);
      now += 61_000;
      const result = await tokenRequest(server, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: CALLBACK,
        code_verifier: verifier,
      });
      expect(result).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant', error_description: 'authorization code expired' },
      });
    });

    it('revokes every token minted from a code that is replayed', async () => {
      const { challenge, verifier } = await pkce();
      const code = await codeFor(server, challenge);
      const form = {
        grant_type: 'authorization_code',
        code,
        redirect_uri: CALLBACK,
        code_verifier: verifier,
      };
      const first = await tokenRequest(server, form);
      expect(first.status).toBe(200);
      expect(await mcpStatus(server, first.body.access_token as string)).toBe(200);
      expect(await tokenRequest(server, form)).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
      expect(await mcpStatus(server, first.body.access_token as string)).toBe(401);
      const refresh = await tokenRequest(server, {
        grant_type: 'refresh_token',
        refresh_token: first.body.refresh_token as string,
      });
      expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    });
  });

  describe('refresh tokens', () => {
    it('rotate: each refresh token works once and yields a new pair', async () => {
      const tokens = await userTokens(server.url, as);
      const response = await oauth.refreshTokenGrantRequest(
        as,
        client,
        oauth.ClientSecretBasic(CLIENT_SECRET),
        tokens.refresh_token!,
        insecure,
      );
      const rotated = await oauth.processRefreshTokenResponse(as, client, response);
      expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
      expect(await mcpStatus(server, rotated.access_token)).toBe(200);
    });

    it('a reused, already-rotated refresh token revokes the whole family', async () => {
      const tokens = await userTokens(server.url, as);
      const rotated = await tokenRequest(server, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token!,
      });
      expect(rotated.status).toBe(200);
      const reuse = await tokenRequest(server, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token!,
      });
      expect(reuse).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      expect(await mcpStatus(server, rotated.body.access_token as string)).toBe(401);
      expect(await mcpStatus(server, tokens.access_token)).toBe(401);
      const next = await tokenRequest(server, {
        grant_type: 'refresh_token',
        refresh_token: rotated.body.refresh_token as string,
      });
      expect(next.status).toBe(400);
    });

    it('cannot widen the scope', async () => {
      const tokens = await userTokens(server.url, as);
      const result = await tokenRequest(server, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token!,
        scope: 'mcp:tools mcp:service',
      });
      expect(result).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    });
  });

  describe('revocation (RFC 7009)', () => {
    it('unlinks: a revoked token stops working at /mcp', async () => {
      const tokens = await userTokens(server.url, as);
      // The endpoint is documented rather than advertised: the metadata keeps exactly the Alexa+ fields.
      const withRevocation = { ...as, revocation_endpoint: `${server.url}/oauth/revoke` };
      const response = await oauth.revocationRequest(
        withRevocation,
        client,
        oauth.ClientSecretBasic(CLIENT_SECRET),
        tokens.access_token,
        insecure,
      );
      await oauth.processRevocationResponse(response);
      expect(await mcpStatus(server, tokens.access_token)).toBe(401);
    });
  });

  describe('access tokens at /mcp', () => {
    it('expire after their lifetime', async () => {
      const { access_token } = await serviceToken(as);
      expect(await mcpStatus(server, access_token)).toBe(200);
      now += 3601_000;
      expect(await mcpStatus(server, access_token)).toBe(401);
    });

    it('answer 401 {"error":"unauthorized"} without WWW-Authenticate by default', async () => {
      const response = await fetch(server.mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBeNull();
      expect(await response.json()).toEqual({ error: 'unauthorized' });
    });
  });

  it('keeps no token, code or secret in clear in the database', async () => {
    const tokens = await userTokens(server.url, as);
    const { challenge } = await pkce();
    const code = await codeFor(server, challenge);
    const file = readFileSync((server.database.target as { path: string }).path).toString('latin1');
    const wal = (() => {
      try {
        return readFileSync(`${(server.database.target as { path: string }).path}-wal`).toString('latin1');
      } catch {
        return '';
      }
    })();
    for (const secret of [tokens.access_token, tokens.refresh_token!, code, CLIENT_SECRET, DEMO_PASSWORD]) {
      expect(file.includes(secret) || wal.includes(secret), 'a secret is stored in clear').toBe(false);
    }
  });
});

describe('OAuth configuration', () => {
  it('caps the access-token lifetime at 3600 s', async () => {
    const server = await startTestServer(sqlite, { ...OAUTH_SETTINGS, oauthTokenTtl: '86400' });
    const tokens = await serviceToken(await discover(server.url));
    expect(tokens.expires_in).toBe(3600);
    await server.dispose();
  });

  it('challenges generic MCP clients when asked to', async () => {
    const server = await startTestServer(sqlite, { ...OAUTH_SETTINGS, authChallenge: 'mcp' });
    const response = await fetch(server.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp"`,
    );
    await server.dispose();
  });

  it('generates development secrets when forced into OAuth mode without them', async () => {
    const server = await startTestServer(sqlite, { auth: 'oauth' });
    expect(server.notices.join('\n')).toMatch(/secret \(development, this process only\): \S{20,}/);
    expect(server.notices.join('\n')).toMatch(/Caller demo login .*: demo \/ \S+/);
    await server.dispose();
  });
});

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason !== undefined)(`two tiers over MCP on ${dialect.name}`, () => {
    let server: TestServer;
    let as: oauth.AuthorizationServer;

    beforeAll(async () => {
      server = await startTestServer(dialect, OAUTH_SETTINGS);
      as = await discover(server.url);
      const store = await openStore(server.database.target);
      await oauthStore(store.db, 'harborview').upsertCaller({
        username: 'riley',
        password_hash: await hashPassword('riley-password-1'),
        created_at: new Date().toISOString(),
      });
      await store.close();
    });

    afterAll(async () => {
      await server.dispose();
    });

    it('a Tier 1 token gets public tools and insufficient_scope on user tools', async () => {
      const mcp = await connectClient(server.mcpUrl, (await serviceToken(as)).access_token);
      expect(await callTool(mcp, 'answer_office_faq', { question: 'parking' })).toMatchObject({ ok: true });
      const refused = await callTool(mcp, 'book_appointment', {
        client_name: 'Dana',
        contact: 'dana@example.com',
        service: 'consultation',
        date: '2026-09-16',
        start_time: '10:00',
      });
      expect(refused).toMatchObject({
        ok: false,
        error: { code: 'insufficient_scope', required_scope: 'mcp:tools', granted_scopes: ['mcp:service'] },
        spoken_summary: 'I need you to link your account before I can do that for you.',
      });
      await mcp.close();
    });

    it('two linked callers cannot see or cancel each other’s holds, and stay linked across a restart', async () => {
      const demo = await userTokens(server.url, as);
      const riley = await userTokens(server.url, as, 'riley', 'riley-password-1');
      const demoClient = await connectClient(server.mcpUrl, demo.access_token);
      const rileyClient = await connectClient(server.mcpUrl, riley.access_token);
      const contact = 'same-contact@example.com';
      const hold = await callTool(demoClient, 'book_appointment', {
        client_name: 'Dana',
        contact,
        service: 'consultation',
        date: '2026-09-16',
        start_time: '11:30',
      });
      expect(hold.ok).toBe(true);
      const peek = await callTool(rileyClient, 'get_appointment_status', {
        appointment_id: hold.appointment_id,
        contact,
      });
      expect(peek).toMatchObject({ ok: false, error: { code: 'not_found' } });
      const cancel = await callTool(rileyClient, 'cancel_appointment', {
        appointment_id: hold.appointment_id,
        contact,
      });
      expect(cancel).toMatchObject({ ok: false, error: { code: 'not_found' } });
      await demoClient.close();
      await rileyClient.close();

      server = await server.restart();
      for (const [tokens, expected] of [
        [demo, { ok: true, status: 'pending_approval' }],
        [riley, { ok: false }],
      ] as const) {
        const mcp = await connectClient(server.mcpUrl, tokens.access_token);
        expect(
          await callTool(mcp, 'get_appointment_status', { appointment_id: hold.appointment_id, contact }),
        ).toMatchObject(expected);
        await mcp.close();
      }
    });
  });
}
