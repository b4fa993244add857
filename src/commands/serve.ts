import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { createApp, type HoldDeskApp } from '../app.js';
import { clockFor, type Config } from '../config.js';
import type { GatewayTelephony } from '../gateway/call-gateway.js';
import { WebSocketEndpoint } from '../gateway/websocket-server.js';
import { createLogger, type Logger } from '../logger.js';
import { loadOfficeData } from '../office-data.js';
import { openStore, type Store } from '../store/store.js';

/** How long in-flight requests get to finish after a shutdown signal before connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:8641`. */
  readonly url: string;
  readonly port: number;
  /** One-time notices for the operator (generated development secrets). */
  readonly notices: readonly string[];
  /** Stops accepting, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

export class StartError extends Error {
  override readonly name = 'StartError';
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const why =
        error.code === 'EADDRINUSE' ? 'it is already in use (choose another with --port)' : error.message;
      reject(new StartError(`cannot listen on ${host}:${port}: ${why}`));
    });
    server.listen(port, host, () => {
      server.removeAllListeners('error');
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Starts HoldDesk on a real port: loads and validates the office data, opens and migrates the
 * database, then serves the app. The listener is bound before the app is built so that a port of 0
 * (tests) is known to the Host/Origin checks.
 */
export async function startServer(
  config: Config,
  options: { version: string; logger?: Logger; securityClock?: () => Date; telephony?: GatewayTelephony },
): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config);
  const data = await loadOfficeData(config.dataDir);
  const store: Store = await openStore(config.database);
  let app: HoldDeskApp | undefined;
  // WebSocket upgrades (/api/events) go through the same app, by the Node adapter's upgrade support.
  const websockets = new WebSocketEndpoint();
  const server = createAdaptorServer({
    fetch: (request, env) => app?.fetch(request, env) ?? new Response('starting', { status: 503 }),
    websocket: { server: websockets },
  }) as Server;
  server.keepAliveTimeout = 5_000;
  let port: number;
  try {
    port = await listen(server, config.port, config.host);
    app = await createApp({
      config,
      data,
      store,
      logger,
      clock: clockFor(config),
      version: options.version,
      port,
      ...(options.securityClock ? { securityClock: options.securityClock } : {}),
      ...(options.telephony ? { telephony: options.telephony } : {}),
    });
  } catch (error) {
    server.close();
    await store.close();
    throw error;
  }

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      app?.drain();
      websockets.close();
      server.closeIdleConnections();
      const cut = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      cut.unref();
      await stopped;
      clearTimeout(cut);
      await app?.close();
      await store.close();
    })();
    return closing;
  };
  return { url: `http://${urlHost(config.host)}:${port}`, port, notices: app.notices, close };
}
