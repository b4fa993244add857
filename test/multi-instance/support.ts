import { CALLBACK, CLIENT_ID, CLIENT_SECRET, consent, OAUTH_SETTINGS, pkce } from '../support/oauth.js';

/**
 * Several instances behind one public name: what a load balancer in front of them looks like to a
 * client. They must share the database and the OAuth settings, issuer included, since the issuer
 * names the audience every token is bound to.
 */
export const PUBLIC_URL = 'http://holddesk.test';
export const SHARED_OAUTH = { ...OAUTH_SETTINGS, oauthIssuer: PUBLIC_URL };

const clientAuth = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;

export interface Tokens {
  readonly access_token: string;
  readonly refresh_token?: string;
}

/** POST /oauth/token on one instance, authenticated as the shared client. */
export async function tokenRequest(
  baseUrl: string,
  params: Record<string, string>,
): Promise<{ status: number; body: Tokens & { error?: string } }> {
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: clientAuth },
    body: new URLSearchParams(params),
  });
  return { status: response.status, body: (await response.json()) as Tokens & { error?: string } };
}

/** A caller's consent on `consentAt`, its code redeemed on `redeemAt`: Tier 2 across instances. */
export async function callerTokens(
  consentAt: string,
  redeemAt: string,
  credentials?: { username: string; password: string },
): Promise<Tokens> {
  const { verifier, challenge } = await pkce();
  const redirect = await consent(
    consentAt,
    {
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: CALLBACK,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'mcp:tools mcp:resources',
      state: 'state',
    },
    credentials ?? {},
  );
  const code = new URL(redirect.headers.get('location') ?? 'http://invalid/').searchParams.get('code');
  if (redirect.status !== 302 || !code) throw new Error(`consent failed with ${redirect.status}`);
  const { status, body } = await tokenRequest(redeemAt, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: CALLBACK,
    code_verifier: verifier,
  });
  if (status !== 200) throw new Error(`code exchange failed: ${status} ${JSON.stringify(body)}`);
  return body;
}

/** `tools/list` with a bearer token: 200 when the token is accepted, 401 when it is not. */
export async function listTools(mcpUrl: string, token: string): Promise<number> {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  await response.text();
  return response.status;
}
