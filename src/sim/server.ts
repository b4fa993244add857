import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { StartError } from '../commands/serve.js';
import type { SimApp } from './app.js';

/**
 * The simulator's own HTTP server, a separate entry point that HoldDesk never imports. It listens
 * before the app is built, so that with port 0 the real address is known to the app (and to the
 * HoldDesk it registers its callback with).
 */
export interface RunningSimulator {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startSimulator(options: {
  readonly port: number;
  readonly host: string;
  /** The public base URL behind a tunnel or proxy; else the listening address. */
  readonly publicUrl?: string | undefined;
  readonly build: (simUrl: string, port: number) => Promise<SimApp>;
}): Promise<RunningSimulator> {
  let app: SimApp | undefined;
  const listener = getRequestListener(
    (request) => app?.fetch(request) ?? new Response('starting', { status: 503 }),
  );
  const server = createServer((req, res) => void listener(req, res));
  server.keepAliveTimeout = 5_000;
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new StartError(
          `cannot listen on ${options.host}:${options.port}: ${error.code === 'EADDRINUSE' ? 'it is already in use (set SIM_PORT)' : error.message}`,
        ),
      ),
    );
    server.listen(options.port, options.host, () => resolve((server.address() as AddressInfo).port));
  });
  const url = options.publicUrl ?? `http://${urlHost(options.host)}:${port}`;
  try {
    app = await options.build(url, port);
  } catch (error) {
    server.close();
    throw error;
  }
  return {
    url,
    port,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await app?.close();
    },
  };
}
