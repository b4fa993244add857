import * as oauth from 'oauth4webapi';

/**
 * An independent, spec-strict OAuth client (oauth4webapi) pointed at a HoldDesk under test, plus a
 * scripted caller who signs in on the consent page like a person would (GET the page, POST the form).
 */
export const CLIENT_ID = 'holddesk-test-client';
export const CLIENT_SECRET = 'test-client-secret-0123456789abcdef';
export const CALLBACK = 'http://127.0.0.1:9/callback';
export const DEMO_USER = 'demo';
export const DEMO_PASSWORD = 'demo-password-123';

export const OAUTH_SETTINGS = {
  auth: 'oauth',
  oauthClientId: CLIENT_ID,
  oauthClientSecret: CLIENT_SECRET,
  oauthRedirectUris: CALLBACK,
  demoUsername: DEMO_USER,
  demoPassword: DEMO_PASSWORD,
};

export const client: oauth.Client = { client_id: CLIENT_ID };
const insecure = { [oauth.allowInsecureRequests]: true } as const;

export async function discover(baseUrl: string): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(baseUrl);
  return oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
}

export async function serviceToken(
  as: oauth.AuthorizationServer,
  auth = oauth.ClientSecretBasic(CLIENT_SECRET),
) {
  const response = await oauth.clientCredentialsGrantRequest(
    as,
    client,
    auth,
    { scope: 'mcp:service' },
    insecure,
  );
  return oauth.processClientCredentialsResponse(as, client, response);
}

export interface ConsentOptions {
  readonly username?: string;
  readonly password?: string;
  readonly decision?: 'allow' | 'deny';
  readonly extra?: Record<string, string>;
}

/** Opens the consent page and submits it; returns the redirect the browser would follow. */
export async function consent(
  baseUrl: string,
  params: Record<string, string>,
  options: ConsentOptions = {},
): Promise<Response> {
  const url = new URL('/oauth/authorize', baseUrl);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  const page = await fetch(url, { redirect: 'manual' });
  if (page.status !== 200) return page;
  const html = await page.text();
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!;
  const form = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    form.set(match[1]!, match[2]!.replaceAll('&amp;', '&').replaceAll('&quot;', '"'));
  }
  form.set('username', options.username ?? DEMO_USER);
  form.set('password', options.password ?? DEMO_PASSWORD);
  form.set('decision', options.decision ?? 'allow');
  for (const [key, value] of Object.entries(options.extra ?? {})) form.set(key, value);
  return fetch(new URL('/oauth/authorize', baseUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
}

export async function pkce() {
  const verifier = oauth.generateRandomCodeVerifier();
  return { verifier, challenge: await oauth.calculatePKCECodeChallenge(verifier) };
}

/** The whole Tier 2 flow: consent as `username`, then the code exchange. */
export async function userTokens(
  baseUrl: string,
  as: oauth.AuthorizationServer,
  username = DEMO_USER,
  password = DEMO_PASSWORD,
): Promise<oauth.TokenEndpointResponse> {
  const { verifier, challenge } = await pkce();
  const state = oauth.generateRandomState();
  const redirect = await consent(
    baseUrl,
    {
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: CALLBACK,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'mcp:tools mcp:resources',
      state,
    },
    { username, password },
  );
  const callback = oauth.validateAuthResponse(as, client, new URL(redirect.headers.get('location')!), state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.ClientSecretBasic(CLIENT_SECRET),
    callback,
    CALLBACK,
    verifier,
    insecure,
  );
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

export { insecure, oauth };
