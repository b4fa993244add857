import { HTTPException } from 'hono/http-exception';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { LoginThrottle } from './auth/login-throttle.js';
import { setUpOAuth } from './auth/oauth/setup.js';
import { staticAuthenticator } from './auth/static-auth.js';
import type { Config } from './config.js';
import { createChangeFeed } from './desk/changes/for-store.js';
import { createDesk } from './desk/desk-app.js';
import type { GatewayTelephony } from './gateway/call-gateway.js';
import { createGatewaySurface } from './gateway/surface.js';
import { originPolicy } from './http/origin-guard.js';
import type { Logger } from './logger.js';
import { createMcpEndpoint } from './mcp/http.js';
import { buildMcpServer, callerTools } from './mcp/server.js';
import type { OfficeData } from './office-data.js';
import type { Store } from './store/store.js';
import { createContext } from './usecases/context.js';
import { expireDueHolds, FrontDesk } from './usecases/front-desk.js';

/** Request bodies above this are refused with 413 before anyone parses them. */
export const MAX_BODY_BYTES = 1024 * 1024;

const HOLD_EXPIRY_INTERVAL_MS = 60_000;

export interface AppDependencies {
  readonly config: Config;
  readonly data: OfficeData;
  readonly store: Store;
  readonly logger: Logger;
  readonly clock: () => Date;
  readonly version: string;
  /** The port actually listened on (the configured one may be 0). */
  readonly port: number;
  /** Real time for token and session expiry, even when the office clock is frozen for a demo. */
  readonly securityClock?: () => Date;
  /** The call gateway's carrier and audio analysis; without them `make_call` answers `no_trunk_configured`. */
  readonly telephony?: GatewayTelephony;
}

export interface HoldDeskApp {
  /** `env` carries the Node adapter's bindings (the client's socket, for the desk's login throttle). */
  readonly fetch: (request: Request, env?: unknown) => Response | Promise<Response>;
  /** One-time notices for the operator (generated development secrets), for stderr. */
  readonly notices: readonly string[];
  /** Ends long-lived responses (the desk's live updates) so a shutdown need not wait for them. */
  drain(): void;
  close(): Promise<void>;
}

/**
 * Builds the whole HTTP surface as a web-standard `Request -> Response` function: `/mcp`, `/healthz`,
 * and (as they arrive) OAuth and the staff desk. Only the command line knows about Node's server.
 */
export async function createApp(deps: AppDependencies): Promise<HoldDeskApp> {
  const { config, data, store, logger } = deps;
  // Queue changes reach every open staff desk, on this instance and on others sharing the database.
  const changes = await createChangeFeed(store, data.office.id, logger);
  const ctx = createContext(data, store, deps.clock, (change) => changes.publish(change));
  const desk = new FrontDesk(ctx);

  const securityClock = deps.securityClock ?? (() => new Date());
  const throttle = new LoginThrottle(store);
  const oauth =
    config.auth === 'oauth'
      ? await setUpOAuth({
          config,
          store,
          officeId: data.office.id,
          officeName: data.office.name,
          port: deps.port,
          throttle,
          securityClock,
          logger,
        })
      : undefined;

  const tools = callerTools(desk);
  const mcp = await createMcpEndpoint({
    stateful: config.stateful,
    jsonResponse: config.jsonResponse,
    origins: originPolicy(deps.port, config.allowedHosts, config.allowedOrigins),
    authenticator: oauth?.authenticator ?? staticAuthenticator(config.bearerToken),
    // MCP 2025-11-25 authorization: point generic clients at the protected-resource metadata.
    challenge:
      oauth && config.authChallenge === 'mcp'
        ? `Bearer resource_metadata="${oauth.server.settings.issuer}/.well-known/oauth-protected-resource/mcp"`
        : undefined,
    buildServer: () => buildMcpServer(tools, data, deps.version),
    directTools: tools,
  });
  // The call gateway: /staff/mcp and /api/*, for staff personal access tokens only.
  const gateway = await createGatewaySurface({
    config,
    data,
    store,
    logger,
    clock: securityClock,
    version: deps.version,
    origins: originPolicy(deps.port, config.allowedHosts, config.allowedOrigins),
    telephony: deps.telephony,
  });
  // The desk's Calls and Access tokens pages act through the gateway's own services.
  const staffDesk = await createDesk({
    ctx,
    config,
    changes,
    throttle,
    logger,
    securityClock,
    gateway: { tokens: gateway.tokens, calls: gateway.gateway },
  });

  const app = new Hono();
  // Connection: close, because the unread rest of the body would otherwise be parsed as the next
  // request on a kept-alive socket.
  const tooLarge = (c: Context) =>
    c.json({ error: 'payload_too_large', message: `Bodies are limited to ${MAX_BODY_BYTES} bytes` }, 413, {
      connection: 'close',
    });
  const limitStreamedBody = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge });
  const limitBody: MiddlewareHandler = async (c, next) => {
    // A declared length is checked as declared (Node's parser enforces it). Hono's bodyLimit would
    // touch `request.body`, which makes the Node adapter build a full web Request for every call, a
    // tenth of a small MCP call's cost; only chunked bodies need counting as they arrive.
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      return Number(length) > MAX_BODY_BYTES ? tooLarge(c) : next();
    }
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    return limitStreamedBody(c, next);
  };
  app.use('*', limitBody);
  app.get('/healthz', async (c) => {
    const database = (await store.ping()) ? 'ok' : 'unreachable';
    return c.json({ status: database === 'ok' ? 'ok' : 'degraded', database }, database === 'ok' ? 200 : 503);
  });
  app.all('/mcp', (c) => mcp.handle(c.req.raw));
  app.all('/staff/mcp', (c) => gateway.mcp.handle(c.req.raw));
  app.route('/api', gateway.api);
  app.route('/desk', staffDesk.app);
  if (oauth) app.route('/', oauth.routes);
  app.notFound((c) => c.json({ error: 'not_found' }, 404));
  app.onError((error, c) => {
    if (error instanceof HTTPException) return error.getResponse();
    logger.error({ err: error, path: c.req.path }, 'request failed');
    return c.json({ error: 'internal_error' }, 500);
  });

  // Undecided holds whose start has passed are expired in the background, freeing their slots and
  // closing their requests; status look-ups also expire them on the spot.
  const expiry = setInterval(() => {
    expireDueHolds(ctx).catch((error: unknown) => logger.warn({ err: error }, 'hold expiry failed'));
  }, HOLD_EXPIRY_INTERVAL_MS);
  expiry.unref();

  return {
    fetch: (request, env) => app.fetch(request, env),
    notices: [...(oauth?.notices ?? []), ...staffDesk.notices],
    drain: () => staffDesk.drain(),
    close: async () => {
      clearInterval(expiry);
      staffDesk.drain();
      await changes.close();
      await mcp.close();
      await gateway.close();
    },
  };
}
