import { randomBytes } from 'node:crypto';
import { secretsEqual } from '../auth/secrets.js';

/**
 * Cross-site request forgery defences. Every state change needs the session's CSRF token (a hidden
 * `csrf_token` field in forms, an `X-CSRF-Token` header on the JSON API), compared in constant time.
 * Before sign-in there is no session, so the login form uses a double-submit token: the same random
 * value in a cookie and in the form, which a page on another site can neither read nor set.
 */
export const CSRF_FIELD = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** True only when both are present and equal; the comparison takes the same time wherever they differ. */
export function tokensMatch(given: unknown, expected: string | undefined): boolean {
  if (typeof given !== 'string' || given === '' || expected === undefined || expected === '') return false;
  return secretsEqual(given, expected);
}

/**
 * A second, independent check: a browser names the page a request comes from in `Origin`. A present
 * Origin must be this desk's (the Host it was sent to, or a configured public origin); `null`
 * (sandboxed or opaque pages) is refused. Requests without Origin (scripts, old browsers) rely on
 * the token alone.
 */
export function originAllowed(request: Request, publicOrigins: ReadonlySet<string>): boolean {
  const origin = request.headers.get('origin');
  if (origin === null) return true;
  if (publicOrigins.has(origin)) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  const requestHost = request.headers.get('host') ?? new URL(request.url).host;
  return host.toLowerCase() === requestHost.toLowerCase();
}
