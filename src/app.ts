import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { staticAuthenticator } from './auth/static-auth.js';
import type { Config } from './config.js';
import { originPolicy } from './http/origin-guard.js';
import type { Logger } from './logger.js';
import { createMcpEndpoint } from './mcp/http.js';
import { buildMcpServer } from './mcp/server.js';
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
}

export interface HoldDeskApp {
  readonly fetch: (request: Request) => Response | Promise<Response>;
  close(): Promise<void>;
}

/**
 * Builds the whole HTTP surface as a web-standard `Request -> Response` function: `/mcp`, `/healthz`,
 * and (as they arrive) OAuth and the staff desk. Only the command line knows about Node's server.
 */
export async function createApp(deps: AppDependencies): Promise<HoldDeskApp> {
  const { config, data, store, logger } = deps;
  const ctx = createContext(data, store, deps.clock);
  const desk = new FrontDesk(ctx);

  const mcp = await createMcpEndpoint({
    stateful: config.stateful,
    jsonResponse: config.jsonResponse,
    origins: originPolicy(deps.port, config.allowedHosts, config.allowedOrigins),
    authenticator: staticAuthenticator(config.bearerToken),
    buildServer: () => buildMcpServer(desk, data, deps.version),
  });

  const app = new Hono();
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      // Connection: close, because the unread rest of the body would otherwise be parsed as the next
      // request on a kept-alive socket.
      onError: (c) =>
        c.json(
          { error: 'payload_too_large', message: `Bodies are limited to ${MAX_BODY_BYTES} bytes` },
          413,
          {
            connection: 'close',
          },
        ),
    }),
  );
  app.get('/healthz', async (c) => {
    const database = (await store.ping()) ? 'ok' : 'unreachable';
    return c.json({ status: database === 'ok' ? 'ok' : 'degraded', database }, database === 'ok' ? 200 : 503);
  });
  app.all('/mcp', (c) => mcp.handle(c.req.raw));
  app.notFound((c) => c.json({ error: 'not_found' }, 404));
  app.onError((error, c) => {
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
    fetch: (request) => app.fetch(request),
    close: async () => {
      clearInterval(expiry);
      await mcp.close();
    },
  };
}
