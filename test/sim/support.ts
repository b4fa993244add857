import { DeskClient, DESK_SETTINGS, STAFF } from '../desk/support.js';
import { consent, DEMO_PASSWORD, DEMO_USER, OAUTH_SETTINGS } from '../support/oauth.js';

/**
 * The people around the simulator, scripted: the caller who signs in on HoldDesk's consent page
 * when the assistant asks to link their account, and the staff member who approves on the desk.
 */
export { STAFF };

/** HoldDesk in OAuth mode with a desk account, its only redirect URI being `redirectUri`. */
export function simServerSettings(redirectUri: string, frameAncestor?: string): Record<string, string> {
  return {
    ...OAUTH_SETTINGS,
    ...(DESK_SETTINGS as Record<string, string>),
    oauthRedirectUris: redirectUri,
    ...(frameAncestor ? { deskFrameAncestors: frameAncestor } : {}),
  };
}

/** Signs in on the consent page the link points at; returns the redirect's location (with code and state). */
export async function consentAt(
  linkUrl: string,
  options: { username?: string; password?: string; decision?: 'allow' | 'deny' } = {},
): Promise<URL> {
  const url = new URL(linkUrl);
  const redirect = await consent(url.origin, Object.fromEntries(url.searchParams), {
    username: options.username ?? DEMO_USER,
    password: options.password ?? DEMO_PASSWORD,
    ...(options.decision ? { decision: options.decision } : {}),
  });
  const location = redirect.headers.get('location');
  if (redirect.status !== 302 || !location) throw new Error(`consent did not redirect: ${redirect.status}`);
  return new URL(location);
}

export function callbackParams(location: URL): { code?: string; state?: string; error?: string } {
  const get = (key: string) => location.searchParams.get(key) ?? undefined;
  return { code: get('code'), state: get('state'), error: get('error') };
}

/** The staff member approves the hold on `appointmentId` through the desk's JSON API. */
export async function approveOnDesk(
  holddeskUrl: string,
  appointmentId: string,
  login: { username: string; password: string } = STAFF,
): Promise<void> {
  const desk = await DeskClient.signIn(holddeskUrl, login.username, login.password);
  const queue = (await desk.approvals()) as unknown as { id: string; appointment: { id: string } | null }[];
  const request = queue.find((item) => item.appointment?.id === appointmentId);
  if (!request) throw new Error(`no approval request for ${appointmentId}`);
  const response = await desk.decide(request.id, {
    decision: 'approve',
    note: 'Approved from the simulator test',
  });
  if (response.status !== 200)
    throw new Error(`decision failed: ${response.status} ${await response.text()}`);
}
