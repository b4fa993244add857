import type { Principal } from '../mcp/principal.js';

/**
 * An MCP auth gate's answer for one request: who is calling, or nobody. Each MCP surface has its own
 * kind of principal: callers on `/mcp` (the default), staff on `/staff/mcp`.
 */
export type Authentication<P = Principal> =
  { readonly ok: true; readonly principal: P; readonly token: string } | { readonly ok: false };

export interface Authenticator<P = Principal> {
  authenticate(request: Request): Promise<Authentication<P>>;
}

/** The bearer token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1), if any. */
export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  const match = header ? /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim()) : null;
  return match?.[1];
}
