/**
 * The developer trace: every MCP call, model step, OAuth event and guard of a session, in order.
 * Secrets never enter it: tokens, codes and verifiers are described, not copied.
 */
export type Tier = 'service' | 'user';

export type TraceEvent =
  | {
      readonly kind: 'mcp';
      readonly method: string;
      readonly tool?: string;
      readonly arguments?: Readonly<Record<string, unknown>>;
      readonly tier: Tier;
      readonly latency_ms: number;
      readonly ok: boolean;
      readonly error_code?: string;
    }
  | {
      readonly kind: 'model';
      readonly provider: string;
      readonly step: number;
      readonly latency_ms: number;
      readonly tool_calls: readonly {
        readonly name: string;
        readonly arguments: Readonly<Record<string, unknown>>;
      }[];
      readonly content: string;
      readonly fallback_reason?: string;
    }
  | { readonly kind: 'oauth'; readonly event: string; readonly detail: string }
  | { readonly kind: 'guard'; readonly guard: string; readonly detail: string };
