import type { MiddlewareHandler } from 'hono';

/**
 * Response headers for everything under `/desk`. The desk is where requests become binding, so it
 * must not be framed by a page that could trick a signed-in person into clicking (clickjacking),
 * and its pages run no script but the desk's own file.
 */
export function frameAncestorsSource(origins: readonly string[]): string {
  return origins.length === 0 ? "'none'" : origins.join(' ');
}

export function contentSecurityPolicy(frameAncestors: readonly string[]): string {
  return [
    "default-src 'none'",
    // No 'unsafe-inline': even markup that slipped past escaping could not run.
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${frameAncestorsSource(frameAncestors)}`,
  ].join('; ');
}

export function deskHeaders(frameAncestors: readonly string[]): MiddlewareHandler {
  const csp = contentSecurityPolicy(frameAncestors);
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    headers.set('content-security-policy', csp);
    // CSP frame-ancestors supersedes X-Frame-Options where supported (CSP Level 2 §7.7); the older
    // header is sent as well only when framing is refused outright, since it cannot list origins.
    if (frameAncestors.length === 0) headers.set('x-frame-options', 'DENY');
    headers.set('x-content-type-options', 'nosniff');
    headers.set('referrer-policy', 'same-origin');
    headers.set('cross-origin-opener-policy', 'same-origin');
    // Queue pages and answers carry callers' names and contacts: never keep them in a cache.
    if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
  };
}
