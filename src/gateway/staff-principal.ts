import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { StaffRole } from '../store/staff.js';

/**
 * Who is calling the staff surfaces (`/staff/mcp`, `/api/*`): a staff member, identified by a
 * personal access token, a JWT from the configured OpenID provider, or (for the desk's own pages)
 * the desk session. It never comes from a caller credential: the caller authenticators build
 * another kind of principal, and tool handlers here accept only this one.
 */
export interface StaffPrincipal {
  readonly kind: 'staff';
  readonly username: string;
  readonly displayName: string;
  readonly role: StaffRole;
  readonly via: 'pat' | 'oidc' | 'desk_session';
  /** The personal access token's id, when one was used. */
  readonly credentialId: string | null;
  /** Binds stateful MCP sessions to the credential that opened them. */
  readonly clientId: string;
  readonly scopes: readonly string[];
}

export const GATEWAY_SCOPE = 'gateway';

export function staffOf(authInfo: AuthInfo | undefined): StaffPrincipal | undefined {
  const principal = authInfo?.extra?.principal as Partial<StaffPrincipal> | undefined;
  return principal?.kind === 'staff' && typeof principal.username === 'string'
    ? (principal as StaffPrincipal)
    : undefined;
}

/** Who may act on a call: whoever placed it, and admins. */
export function mayControl(staff: StaffPrincipal, placedBy: string): boolean {
  return staff.role === 'admin' || staff.username === placedBy;
}
