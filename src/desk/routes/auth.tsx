import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { normaliseUsername } from '../../core/staff-accounts.js';
import type { StaffAccountView } from '../../usecases/staff-accounts.js';
import { CSRF_FIELD, CSRF_HEADER, originAllowed, tokensMatch } from '../csrf.js';
import { clientIp } from '../../http/client-ip.js';
import type { DeskServices } from '../services.js';
import { fullPage } from '../render.js';
import { LOGIN_COOKIE, type DeskEnv } from '../session.js';
import { LoginPage } from '../views/login.js';
import { getCookie } from 'hono/cookie';
import { readFormBody } from '../../http/forms.js';

const Credentials = z.object({
  username: z.string().min(1).max(64),
  password: z.string().min(1).max(1024),
});

type Attempt =
  | { readonly kind: 'ok'; readonly account: StaffAccountView }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'locked'; readonly retryAfterSeconds: number };

/**
 * One sign-in attempt under the shared login throttle (per client address and username, and per
 * address). During a lockout the password is not checked at all, so guessing gains nothing; the
 * attempt that starts a lockout already answers with it.
 */
async function attempt(
  services: DeskServices,
  c: Context,
  username: string,
  password: string,
): Promise<Attempt> {
  const ip = clientIp(c);
  const name = normaliseUsername(username);
  const verdict = await services.throttle.check(ip, name);
  if (!verdict.allowed) return { kind: 'locked', retryAfterSeconds: verdict.retryAfterSeconds };
  const account = await services.accounts.authenticate(name, password);
  if (account) {
    await services.throttle.recordSuccess(ip, name);
    return { kind: 'ok', account };
  }
  await services.throttle.recordFailure(ip, name);
  services.logger.info({ username: name, ip }, 'desk sign-in failed');
  const after = await services.throttle.check(ip, name);
  return after.allowed ? { kind: 'invalid' } : { kind: 'locked', retryAfterSeconds: after.retryAfterSeconds };
}

const lockedMessage = (seconds: number): string =>
  `Too many failed sign-ins. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;

export function authRoutes(services: DeskServices): Hono<DeskEnv> {
  const routes = new Hono<DeskEnv>();
  const { sessions, chrome } = services;

  const loginPage = (c: Context, status: 200 | 400 | 401 | 403 | 429, username?: string, error?: string) =>
    c.html(
      fullPage(
        <LoginPage
          chrome={chrome}
          token={sessions.loginToken(c)}
          username={username}
          flash={error ? { kind: 'error', text: error } : undefined}
        />,
      ),
      status,
    );

  routes.get('/login', async (c) => {
    if (await sessions.find(c)) return c.redirect('/desk', 303);
    return loginPage(c, 200);
  });

  routes.post('/login', async (c) => {
    const form = await readFormBody(c);
    // Double-submit: the token in the form must equal the one in this browser's cookie.
    if (
      !originAllowed(c.req.raw, services.publicOrigins) ||
      !tokensMatch(form[CSRF_FIELD], getCookie(c, LOGIN_COOKIE))
    ) {
      return loginPage(c, 403, undefined, 'The sign-in form expired. Please sign in again.');
    }
    const parsed = Credentials.safeParse(form);
    if (!parsed.success) return loginPage(c, 400, undefined, 'Enter your username and password.');
    const { username, password } = parsed.data;
    const result = await attempt(services, c, username, password);
    if (result.kind === 'locked') {
      c.header('retry-after', String(result.retryAfterSeconds));
      return loginPage(c, 429, username, lockedMessage(result.retryAfterSeconds));
    }
    if (result.kind === 'invalid') return loginPage(c, 401, username, 'Wrong username or password.');
    await sessions.start(c, result.account);
    return c.redirect('/desk', 303);
  });

  /**
   * Sign-in for scripts. A page on another site cannot send `Content-Type: application/json` without
   * a CORS preflight, which the desk never grants, so requiring it keeps forged logins out.
   */
  routes.post('/api/login', async (c) => {
    if (c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase() !== 'application/json') {
      return c.json({ error: 'unsupported_media_type', message: 'Send JSON.' }, 415);
    }
    if (!originAllowed(c.req.raw, services.publicOrigins)) {
      return c.json({ error: 'forbidden_origin', message: 'Cross-site sign-in is refused.' }, 403);
    }
    const parsed = Credentials.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) {
      return c.json({ error: 'invalid_request', message: 'Send {"username", "password"}.' }, 400);
    }
    const result = await attempt(services, c, parsed.data.username, parsed.data.password);
    if (result.kind === 'locked') {
      return c.json(
        {
          error: 'too_many_attempts',
          message: lockedMessage(result.retryAfterSeconds),
          retry_after: result.retryAfterSeconds,
        },
        429,
        { 'retry-after': String(result.retryAfterSeconds) },
      );
    }
    if (result.kind === 'invalid') {
      return c.json({ error: 'invalid_credentials', message: 'Wrong username or password.' }, 401);
    }
    const session = await sessions.start(c, result.account);
    return c.json({
      staff: { username: session.username, display_name: session.displayName, role: session.role },
      csrf_token: session.csrfToken,
      expires_at: session.expiresAt,
    });
  });

  routes.post('/logout', async (c) => {
    const session = await sessions.find(c);
    if (session) {
      const form = await readFormBody(c);
      if (
        !originAllowed(c.req.raw, services.publicOrigins) ||
        !tokensMatch(form[CSRF_FIELD], session.csrfToken)
      ) {
        return c.text('The sign-out form expired; reload the page and try again.', 403);
      }
    }
    await sessions.end(c, session);
    return c.redirect('/desk/login', 303);
  });

  routes.post('/api/logout', sessions.requireApi(), async (c) => {
    const session = c.get('session');
    if (
      !originAllowed(c.req.raw, services.publicOrigins) ||
      !tokensMatch(c.req.header(CSRF_HEADER), session.csrfToken)
    ) {
      return c.json({ error: 'csrf_failed', message: 'Send the session’s X-CSRF-Token header.' }, 403);
    }
    await sessions.end(c, session);
    return c.json({ ok: true });
  });

  return routes;
}
