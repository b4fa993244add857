import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { Logger } from '../logger.js';

/**
 * Staff sign-in with JWTs from an external OpenID provider (`HOLDDESK_OIDC_ISSUER`,
 * `HOLDDESK_OIDC_AUDIENCE`). The provider's keys come from the `jwks_uri` of its discovery document;
 * a token is accepted when its signature, issuer, audience and times check out, and its
 * `preferred_username` names an enabled staff account (the account must exist: nobody is created
 * on the fly). Configure the provider so that users cannot choose that claim themselves.
 */
export interface OidcSettings {
  readonly issuer: string;
  readonly audience: string;
}

export interface OidcVerifier {
  /** The staff username the token stands for, or undefined. */
  verify(token: string): Promise<string | undefined>;
}

/** Asymmetric algorithms only: a shared-secret (HS*) token could be forged by anyone holding the secret. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'EdDSA'];
const CLOCK_TOLERANCE_SECONDS = 30;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

const isLoopback = (url: URL): boolean => ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);

/** Keys must come over HTTPS; plain HTTP is accepted from loopback only (a provider on the same host). */
function trustedUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string' || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url)) ? url : undefined;
}

export function oidcVerifier(settings: OidcSettings, clock: () => Date, logger: Logger): OidcVerifier {
  let keys: Promise<JWTVerifyGetKey> | undefined;

  // OpenID Connect Discovery 1.0 §4: the document lives at the issuer + "/.well-known/openid-configuration",
  // and §4.3: its "issuer" MUST be identical to the issuer it was fetched for.
  async function discover(): Promise<JWTVerifyGetKey> {
    const location = `${settings.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const response = await fetch(location, { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`discovery answered ${response.status}`);
    const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (document.issuer !== settings.issuer) throw new Error('discovery names another issuer');
    const jwksUri = trustedUrl(document.jwks_uri);
    if (!jwksUri) throw new Error('discovery has no usable jwks_uri');
    return createRemoteJWKSet(jwksUri);
  }

  return {
    async verify(token) {
      if (!JWT_SHAPE.test(token)) return undefined;
      keys ??= discover().catch((error: unknown) => {
        // Forget the failure, so the next request tries again instead of failing forever.
        keys = undefined;
        throw error;
      });
      try {
        const { payload } = await jwtVerify(token, await keys, {
          issuer: settings.issuer,
          audience: settings.audience,
          algorithms: ALGORITHMS,
          currentDate: clock(),
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          requiredClaims: ['exp'],
        });
        return typeof payload.preferred_username === 'string' ? payload.preferred_username : undefined;
      } catch (error) {
        logger.debug({ err: error }, 'OIDC token refused');
        return undefined;
      }
    },
  };
}
