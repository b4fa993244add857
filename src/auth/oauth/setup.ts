import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import { oauthStore } from '../../store/oauth.js';
import type { Store } from '../../store/store.js';
import { bearerToken, type Authenticator } from '../authenticator.js';
import type { LoginThrottle } from '../login-throttle.js';
import { hashPassword } from '../passwords.js';
import { sha256Hex } from '../secrets.js';
import { AuthorizationServer } from './authorization-server.js';
import { oauthRoutes } from './routes.js';

export interface OAuthSetup {
  readonly server: AuthorizationServer;
  readonly routes: Hono;
  readonly authenticator: Authenticator;
  /** Development secrets generated for this process, to be shown once on stderr. */
  readonly notices: readonly string[];
}

/** The `/mcp` gate in OAuth mode: a live access token issued by this server for this resource. */
export function oauthAuthenticator(server: AuthorizationServer): Authenticator {
  return {
    authenticate: async (request) => {
      const token = bearerToken(request);
      const principal = token === undefined ? undefined : await server.verifyAccessToken(token);
      return principal && token !== undefined ? { ok: true, principal, token } : { ok: false };
    },
  };
}

const randomSecret = (bytes: number) => randomBytes(bytes).toString('base64url');

/**
 * OAuth mode: registers the client and the demo caller account from the environment (generating
 * development secrets when they are missing), then builds the authorization server and its routes.
 */
export async function setUpOAuth(options: {
  config: Config;
  store: Store;
  officeId: string;
  officeName: string;
  port: number;
  throttle: LoginThrottle;
  securityClock: () => Date;
  logger: Logger;
}): Promise<OAuthSetup> {
  const { config, store, officeId } = options;
  const issuer = (config.oauthIssuer ?? `http://127.0.0.1:${options.port}`).replace(/\/$/, '');
  const resource = config.oauthResource ?? `${issuer}/mcp`;
  const redirectUris =
    config.oauthRedirectUris.length > 0 ? config.oauthRedirectUris : [`${issuer}/oauth/debug-callback`];
  const notices: string[] = [];

  const clientSecret = config.oauthClientSecret ?? randomSecret(32);
  if (config.oauthClientSecret === undefined) {
    notices.push(
      `OAuth client ${config.oauthClientId} secret (development, this process only): ${clientSecret}`,
    );
  }
  const demoPassword = config.demoPassword ?? randomSecret(12);
  if (config.demoPassword === undefined) {
    notices.push(
      `Caller demo login (development, this process only): ${config.demoUsername} / ${demoPassword}`,
    );
  }
  const now = options.securityClock().toISOString();
  const repo = oauthStore(store.db, officeId);
  await repo.upsertClient({
    client_id: config.oauthClientId,
    name: config.oauthClientId,
    secret_hash: sha256Hex(clientSecret),
    redirect_uris: JSON.stringify(redirectUris),
    created_at: now,
  });
  await repo.upsertCaller({
    username: config.demoUsername,
    password_hash: await hashPassword(demoPassword),
    created_at: now,
  });

  const server = new AuthorizationServer(
    store,
    officeId,
    { issuer, resource, accessTokenTtlSeconds: config.oauthTokenTtl },
    options.securityClock,
  );
  const routes = oauthRoutes({
    server,
    throttle: options.throttle,
    officeName: options.officeName,
    secureCookies: issuer.startsWith('https://'),
    logger: options.logger,
  });
  return { server, routes, authenticator: oauthAuthenticator(server), notices };
}
