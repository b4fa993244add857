import { ALL_SCOPES, SHARED_SUBJECT, type Principal } from '../mcp/principal.js';
import { bearerToken, type Authenticator } from './authenticator.js';
import { secretsEqual } from './secrets.js';

/**
 * Static mode: one shared bearer token (`HOLDDESK_BEARER_TOKEN`) grants every scope, or, when none is
 * set, the endpoint is open (local development). Either way every caller shares one subject.
 */
export function staticAuthenticator(expectedToken: string | undefined): Authenticator {
  const principal = (tier: Principal['tier']): Principal => ({
    subject: SHARED_SUBJECT,
    scopes: ALL_SCOPES,
    tier,
    clientId: tier === 'open' ? 'open' : 'static',
  });
  const open = principal('open');
  const holder = principal('static');
  return {
    authenticate: (request) => {
      if (expectedToken === undefined) return Promise.resolve({ ok: true, principal: open, token: '' });
      const token = bearerToken(request);
      if (token !== undefined && secretsEqual(token, expectedToken)) {
        return Promise.resolve({ ok: true, principal: holder, token });
      }
      return Promise.resolve({ ok: false });
    },
  };
}
