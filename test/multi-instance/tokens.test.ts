import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { OAUTH_SETTINGS } from '../support/oauth.js';
import { startSiblingServer, startTestServer, type TestServer } from '../support/server.js';
import { callTool } from '../reliability/support/mcp-call.js';
import { callerTokens, listTools, SHARED_OAUTH, tokenRequest } from './support.js';
import { suiteTitle } from '../reliability/support/titles.js';

/**
 * Two instances on one PostgreSQL database are one authorization server: a token, a code or a
 * refresh token minted by one is good (or revoked) on the other, because all of it lives in the
 * database. The issuer must be the same public URL on both, since it names the tokens' audience.
 */
const postgres = DIALECTS.find((d) => d.name === 'postgres')!;

describe.skipIf(postgres.skipReason !== undefined)(
  suiteTitle('tokens across instances on postgres', postgres.skipReason),
  () => {
    let a: TestServer;
    let b: TestServer;

    beforeAll(async () => {
      a = await startTestServer(postgres, SHARED_OAUTH);
      b = await startSiblingServer(a, SHARED_OAUTH);
    });

    afterAll(async () => {
      await b?.dispose();
      await a?.dispose();
    });

    it('a service token minted on one instance opens /mcp on the other', async () => {
      const { status, body } = await tokenRequest(a.url, { grant_type: 'client_credentials' });
      expect(status).toBe(200);
      expect(await listTools(b.mcpUrl, body.access_token)).toBe(200);
      expect(await listTools(a.mcpUrl, body.access_token)).toBe(200);
    });

    it('a caller consents on one instance, redeems the code on the other, and books through both', async () => {
      const tokens = await callerTokens(a.url, b.url);
      const hold = await callTool(
        b.mcpUrl,
        'book_appointment',
        {
          client_name: 'Dana Whitfield',
          contact: 'dana@example.com',
          service: 'consultation',
          date: '2026-09-16',
          start_time: '10:00',
        },
        tokens.access_token,
      );
      expect(hold).toMatchObject({ kind: 'answered', status: 200, result: { ok: true } });
      const id = hold.kind === 'answered' ? hold.result?.appointment_id : undefined;
      const status = await callTool(
        a.mcpUrl,
        'get_appointment_status',
        { appointment_id: id, contact: 'dana@example.com' },
        tokens.access_token,
      );
      expect(status).toMatchObject({ result: { ok: true, status: 'pending_approval' } });
    });

    it('a refresh rotated on one instance is a replay on the other, which revokes the family everywhere', async () => {
      const first = await callerTokens(b.url, a.url);
      const rotated = await tokenRequest(b.url, {
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token!,
      });
      expect(rotated.status).toBe(200);
      expect(await listTools(a.mcpUrl, rotated.body.access_token)).toBe(200);

      const replay = await tokenRequest(a.url, {
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token!,
      });
      expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      expect(await listTools(b.mcpUrl, rotated.body.access_token)).toBe(401);
      expect(await listTools(a.mcpUrl, rotated.body.access_token)).toBe(401);
    });

    it('a token revoked on one instance is refused at once by the other', async () => {
      const tokens = await callerTokens(a.url, a.url);
      expect(await listTools(b.mcpUrl, tokens.access_token)).toBe(200);
      const revoked = await fetch(`${b.url}/oauth/revoke`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${OAUTH_SETTINGS.oauthClientId}:${OAUTH_SETTINGS.oauthClientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ token: tokens.access_token }),
      });
      expect(revoked.status).toBe(200);
      expect(await listTools(a.mcpUrl, tokens.access_token)).toBe(401);
    });

    it('an instance configured with another issuer refuses the tokens (so the issuer must be shared)', async () => {
      const elsewhere = await startSiblingServer(a, OAUTH_SETTINGS);
      try {
        const { body } = await tokenRequest(a.url, { grant_type: 'client_credentials' });
        expect(await listTools(elsewhere.mcpUrl, body.access_token)).toBe(401);
      } finally {
        await elsewhere.dispose();
      }
    });
  },
);
