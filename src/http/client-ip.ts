import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/**
 * The client's address as this server sees it, for throttling. Behind a reverse proxy every client
 * shares the proxy's address (see the README); `X-Forwarded-For` is deliberately not trusted, since
 * any client can send it.
 */
export function clientIp(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // In-process requests (tests calling the app directly) have no socket.
    return 'unknown';
  }
}
