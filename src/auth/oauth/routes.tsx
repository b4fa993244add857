import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { clientIp } from '../../http/client-ip.js';
import type { Logger } from '../../logger.js';
import type { LoginThrottle } from '../login-throttle.js';
import { secretsEqual } from '../secrets.js';
import type { AuthorizationRequest, AuthorizationServer, Params } from './authorization-server.js';
import { ConsentPage, CONSENT_STYLE_HASH, DebugCallbackPage, ErrorPage } from './consent-page.js';
import { AccessDeniedError, InvalidRequestError, OAuthError } from './errors.js';

const CSRF_COOKIE = 'holddesk_consent_csrf';

/**
 * Pages that ask for a password must never be framed (clickjacking) nor load anything foreign. The
 * consent form's answer is a redirect to the client, and browsers apply form-action to redirects
 * too (CSP3 §6.3.1), so the one validated redirect URI's origin is allowed besides 'self'.
 */
function pageHeaders(c: Context, redirectUri?: string): void {
  const formAction = redirectUri === undefined ? "'self'" : `'self' ${new URL(redirectUri).origin}`;
  c.header(
    'content-security-policy',
    `default-src 'none'; style-src ${CONSENT_STYLE_HASH}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  );
  c.header('x-frame-options', 'DENY');
  c.header('referrer-policy', 'no-referrer');
  c.header('cache-control', 'no-store');
}

/** RFC 6749 §5.1: token responses MUST NOT be cached. */
function noStore(c: Context): void {
  c.header('cache-control', 'no-store');
  c.header('pragma', 'no-cache');
}

/**
 * Reads an `application/x-www-form-urlencoded` body. RFC 6749 §3.1: parameters MUST NOT be included
 * more than once, and parameters without a value are treated as omitted.
 */
async function readForm(c: Context): Promise<Params> {
  const type = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new InvalidRequestError('send the request as application/x-www-form-urlencoded');
  }
  const params = new URLSearchParams(await c.req.text());
  const form: Record<string, string> = {};
  for (const [key, value] of params) {
    if (key in form) throw new InvalidRequestError(`parameter ${key} appears more than once`);
    if (value !== '') form[key] = value;
  }
  return form;
}

function queryParams(c: Context): Params {
  const out: Record<string, string> = {};
  for (const [key, value] of new URL(c.req.url).searchParams) if (value !== '') out[key] = value;
  return out;
}

function redirectWith(redirectUri: string, params: Record<string, string | undefined>): Response {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(key, value);
  return new Response(null, {
    status: 302,
    headers: { location: url.toString(), 'cache-control': 'no-store' },
  });
}

export interface OAuthRoutesOptions {
  readonly server: AuthorizationServer;
  readonly throttle: LoginThrottle;
  readonly officeName: string;
  readonly secureCookies: boolean;
  readonly logger: Logger;
}

export function oauthRoutes({
  server,
  throttle,
  officeName,
  secureCookies,
  logger,
}: OAuthRoutesOptions): Hono {
  const app = new Hono();

  app.get('/.well-known/oauth-authorization-server', (c) => c.json(server.metadata()));
  // RFC 9728 §3.1: the metadata of a resource at /mcp lives at the path-suffixed well-known URL.
  app.get('/.well-known/oauth-protected-resource', (c) => c.json(server.protectedResourceMetadata()));
  app.get('/.well-known/oauth-protected-resource/mcp', (c) => c.json(server.protectedResourceMetadata()));

  const renderError = (c: Context, message: string) => {
    pageHeaders(c);
    return c.html(<ErrorPage title="This link cannot be used" message={message} />, 400);
  };

  const renderConsent = async (
    c: Context,
    request: AuthorizationRequest,
    extra: { username?: string; error?: string; status?: 200 | 401 | 429 } = {},
  ) => {
    const csrfToken = randomBytes(24).toString('base64url');
    setCookie(c, CSRF_COOKIE, csrfToken, {
      path: '/oauth',
      httpOnly: true,
      sameSite: 'Strict',
      secure: secureCookies,
      maxAge: 600,
    });
    const client = await server.authorizationTarget({
      client_id: request.clientId,
      redirect_uri: request.redirectUri,
    });
    const clientName = typeof client === 'string' ? request.clientId : client.client.name;
    pageHeaders(c, request.redirectUri);
    return c.html(
      <ConsentPage
        officeName={officeName}
        clientName={clientName}
        request={request}
        csrfToken={csrfToken}
        username={extra.username}
        error={extra.error}
      />,
      extra.status ?? 200,
    );
  };

  type Validation =
    | { readonly request: AuthorizationRequest; readonly response?: undefined }
    | { readonly response: (c: Context) => Response | Promise<Response> };

  /** Validates an authorization request; returns the response to send when it cannot proceed. */
  const validate = async (params: Params): Promise<Validation> => {
    const target = await server.authorizationTarget(params);
    if (typeof target === 'string') return { response: (c: Context) => renderError(c, target) };
    try {
      return { request: server.validateAuthorizationRequest(params, target) };
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      const redirect = redirectWith(target.redirectUri, {
        error: error.errorCode,
        error_description: error.message,
        state: params.state,
      });
      return { response: () => redirect };
    }
  };

  app.get('/oauth/authorize', async (c) => {
    const validated = await validate(queryParams(c));
    if (validated.response) return validated.response(c);
    return renderConsent(c, validated.request);
  });

  app.post('/oauth/authorize', async (c) => {
    let form: Params;
    try {
      form = await readForm(c);
    } catch {
      return renderError(c, 'The form could not be read.');
    }
    const validated = await validate(form);
    if (validated.response) return validated.response(c);
    const request = validated.request;
    const cookie = getCookie(c, CSRF_COOKIE);
    // Double-submit: a cross-site form post cannot read or set our cookie, so the two cannot match.
    if (!cookie || !form.csrf_token || !secretsEqual(cookie, form.csrf_token)) {
      return renderConsent(c, request, { error: 'This page expired. Please try again.', status: 401 });
    }
    if (form.decision === 'deny') {
      const denied = new AccessDeniedError('the caller denied the request');
      return redirectWith(request.redirectUri, { error: denied.errorCode, state: request.state });
    }
    const username = (form.username ?? '').trim();
    const ip = clientIp(c);
    const verdict = await throttle.check(ip, username);
    if (!verdict.allowed) {
      c.header('retry-after', String(verdict.retryAfterSeconds));
      return renderConsent(c, request, {
        username,
        error: `Too many failed sign-ins. Try again in ${verdict.retryAfterSeconds} seconds.`,
        status: 429,
      });
    }
    if (!username || !(await server.verifyCaller(username, form.password ?? ''))) {
      await throttle.recordFailure(ip, username);
      logger.info({ ip, username }, 'consent sign-in failed');
      return renderConsent(c, request, {
        username,
        error: 'That username and password do not match.',
        status: 401,
      });
    }
    await throttle.recordSuccess(ip, username);
    const code = await server.issueCode(request, username);
    return redirectWith(request.redirectUri, { code, state: request.state });
  });

  const endpoint = (work: (c: Context, form: Params) => Promise<Response>) => async (c: Context) => {
    noStore(c);
    try {
      return await work(c, await readForm(c));
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      // RFC 6749 §5.2: a client that tried HTTP Basic gets a matching WWW-Authenticate on 401.
      if (error.status === 401 && c.req.header('authorization')?.startsWith('Basic')) {
        c.header('www-authenticate', 'Basic realm="holddesk"');
      }
      return c.json(error.toResponseObject(), error.status as 400 | 401);
    }
  };

  app.post(
    '/oauth/token',
    endpoint(async (c, form) => {
      const client = await server.authenticateClient(c.req.header('authorization'), form);
      return c.json(await server.token(client, form));
    }),
  );

  app.post(
    '/oauth/revoke',
    endpoint(async (c, form) => {
      const client = await server.authenticateClient(c.req.header('authorization'), form);
      await server.revoke(client, form);
      return c.body(null, 200);
    }),
  );

  app.get('/oauth/debug-callback', (c) => {
    const params = queryParams(c);
    pageHeaders(c);
    return c.html(<DebugCallbackPage code={params.code} state={params.state} error={params.error} />);
  });

  return app;
}
