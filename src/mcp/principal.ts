import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { refusal, type Refusal } from '../core/result.js';

/**
 * Who is calling the caller MCP surface, as established by the auth gate. The scope policy lives
 * here, in one place: public tools read office-wide, non-personal data and need any valid token;
 * user tools act for one caller and need a user-level (Tier 2) token, bound to its subject.
 */
export const SCOPE = {
  service: 'mcp:service',
  tools: 'mcp:tools',
  resources: 'mcp:resources',
} as const;

export const ALL_SCOPES = [SCOPE.service, SCOPE.tools, SCOPE.resources] as const;

/** In open and static mode every caller shares this one subject (the reference's behaviour). */
export const SHARED_SUBJECT = 'user:shared';

export type Tier = 'open' | 'static' | 'service' | 'user';

export interface Principal {
  /** Owner of what this caller creates, e.g. `user:dana`; a service token's is `client:<id>`. */
  readonly subject: string;
  readonly scopes: readonly string[];
  readonly tier: Tier;
  readonly clientId: string;
}

export type ToolAccess = 'public' | 'user';

/** The principal travels to tool handlers inside the SDK's `authInfo`, under `extra`. */
export function toAuthInfo(principal: Pick<Principal, 'clientId' | 'scopes'>, token: string): AuthInfo {
  return { token, clientId: principal.clientId, scopes: [...principal.scopes], extra: { principal } };
}

export function principalOf(authInfo: AuthInfo | undefined): Principal | undefined {
  const principal = authInfo?.extra?.principal as Principal | undefined;
  return principal && typeof principal.subject === 'string' ? principal : undefined;
}

export type ScopeRefusal = Refusal<'insufficient_scope' | 'unauthenticated'>;

/**
 * Decides whether `principal` may run a tool of the given access level. Fails closed: without a
 * principal nothing runs, whatever the tool.
 */
export function checkToolAccess(
  access: ToolAccess,
  principal: Principal | undefined,
): ScopeRefusal | undefined {
  if (!principal)
    return refusal('unauthenticated', 'This request carries no caller identity, so I cannot do that.');
  if (access === 'public' || principal.scopes.includes(SCOPE.tools)) return undefined;
  return refusal('insufficient_scope', 'This tool acts for a specific caller and needs a user-level token.', {
    required_scope: SCOPE.tools,
    granted_scopes: [...principal.scopes],
    grant_type_hint: 'authorization_code',
  });
}
