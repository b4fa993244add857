import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Result } from '../core/result.js';

/**
 * The one way a staff tool result is built: `{ok: true, ..., summary}` or
 * `{ok: false, error: {code, message, ...}, summary}` as `structuredContent`, plus the same JSON as a
 * text block. Staff assistants read rather than speak, so the line for them is `summary` (the caller
 * tools' `spoken_summary` is written for voice). Refusals are results, not MCP errors, so the
 * assistant can explain them and recover.
 */
export type StaffToolOutcome = Result<{ readonly summary: string } & object>;

export function staffToolResult(outcome: StaffToolOutcome): CallToolResult {
  const structured: Record<string, unknown> = outcome.ok
    ? { ok: true, ...outcome.value }
    : { ok: false, error: outcome.error, summary: outcome.error.message };
  return { structuredContent: structured, content: [{ type: 'text', text: JSON.stringify(structured) }] };
}
