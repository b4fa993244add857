import type { Principal } from '../mcp/principal.js';

/** The MCP auth gate's answer for one request: who is calling, or nobody. */
export type Authentication =
  { readonly ok: true; readonly principal: Principal; readonly token: string } | { readonly ok: false };

export interface Authenticator {
  authenticate(request: Request): Promise<Authentication>;
}

/** The bearer token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1), if any. */
export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  const match = header ? /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim()) : null;
  return match?.[1];
}
