import { bearerToken, type Authenticator } from '../auth/authenticator.js';
import { staffAccounts } from '../store/staff.js';
import type { Store } from '../store/store.js';
import type { OidcVerifier } from './oidc.js';
import { looksLikePersonalToken, type PersonalTokens } from './personal-tokens.js';
import { GATEWAY_SCOPE, type StaffPrincipal } from './staff-principal.js';

/**
 * The staff gate for `/staff/mcp` and `/api/*`: a bearer token that is a valid personal access
 * token, or (when configured) a JWT from the OpenID provider naming an enabled staff account.
 * Anything else, caller OAuth tokens and the static caller token included, is refused: none of them
 * has the `hd_pat_` form or the provider's signature.
 */
export function staffAuthenticator(options: {
  readonly store: Store;
  readonly officeId: string;
  readonly tokens: PersonalTokens;
  readonly oidc?: OidcVerifier | undefined;
}): Authenticator<StaffPrincipal> {
  const refused = { ok: false } as const;
  return {
    async authenticate(request) {
      const token = bearerToken(request);
      if (token === undefined) return refused;
      if (looksLikePersonalToken(token)) {
        const principal = await options.tokens.authenticate(token);
        return principal ? { ok: true, principal, token } : refused;
      }
      const username = await options.oidc?.verify(token);
      if (username === undefined) return refused;
      const account = await staffAccounts(options.store.db, options.officeId).findActive(username);
      if (!account) return refused;
      return {
        ok: true,
        token,
        principal: {
          kind: 'staff',
          username: account.username,
          displayName: account.display_name,
          role: account.role,
          via: 'oidc',
          credentialId: null,
          clientId: `oidc:${account.username}`,
          scopes: [GATEWAY_SCOPE],
        },
      };
    },
  };
}
