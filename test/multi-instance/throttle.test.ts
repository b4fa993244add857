import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THROTTLE } from '../../src/auth/login-throttle.js';
import { DIALECTS } from '../support/databases.js';
import { CALLBACK, CLIENT_ID, consent, DEMO_PASSWORD, DEMO_USER, pkce } from '../support/oauth.js';
import { startSiblingServer, startTestServer, type TestServer } from '../support/server.js';
import { SHARED_OAUTH } from './support.js';
import { suiteTitle } from '../reliability/support/titles.js';

/**
 * Failed sign-ins count in the database, so spreading guesses over instances gains nothing: the
 * failures add up across both, and the lockout holds on both.
 */
const postgres = DIALECTS.find((d) => d.name === 'postgres')!;

async function signIn(server: TestServer, username: string, password: string): Promise<Response> {
  const { challenge } = await pkce();
  return consent(
    server.url,
    {
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: CALLBACK,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'state',
    },
    { username, password },
  );
}

describe.skipIf(postgres.skipReason !== undefined)(
  suiteTitle('login throttling across instances on postgres', postgres.skipReason),
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

    it('failures on two instances add up to one lockout that holds on both', async () => {
      // Alternate instances: neither alone sees enough failures to lock the pair out.
      for (let attempt = 0; attempt < THROTTLE.pairFailures - 1; attempt++) {
        const response = await signIn(attempt % 2 === 0 ? a : b, DEMO_USER, `wrong-${attempt}`);
        expect(response.status, `attempt ${attempt + 1}`).toBe(401);
      }
      const last = await signIn(b, DEMO_USER, 'wrong-last');
      expect([401, 429]).toContain(last.status);

      // Now even the right password is not checked, on either instance.
      for (const server of [a, b]) {
        const locked = await signIn(server, DEMO_USER, DEMO_PASSWORD);
        expect(locked.status).toBe(429);
        expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    });

    it('counts per username, so another caller from the same address is not locked out', async () => {
      const other = await signIn(a, 'someone-else', 'wrong');
      expect(other.status).toBe(401);
    });
  },
);
