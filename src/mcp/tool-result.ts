import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Result } from '../core/result.js';
import { speakAlternatives } from '../core/spoken.js';

/**
 * The one way a tool result is built: `{ok: true, ..., spoken_summary}` or
 * `{ok: false, error: {code, message}, spoken_summary}` as `structuredContent`, plus the same JSON as a
 * text block for clients that only read text. Domain refusals are normal results, not MCP errors, so
 * the assistant can recover conversationally.
 */
export type ToolOutcome = Result<{ readonly spoken_summary: string } & object>;

const SPOKEN_REFUSALS: Readonly<Record<string, string>> = {
  insufficient_scope: 'I need you to link your account before I can do that for you.',
  unauthenticated: "I can't do that without knowing who you are.",
};

function spokenRefusal(error: { code: string; message: string; alternatives?: unknown }): string {
  const fixed = SPOKEN_REFUSALS[error.code];
  if (fixed) return fixed;
  if (
    error.code === 'slot_unavailable' &&
    Array.isArray(error.alternatives) &&
    error.alternatives.length > 0
  ) {
    return speakAlternatives(error.alternatives as { date: string; start_time: string }[]);
  }
  return error.message;
}

export function toolResult(outcome: ToolOutcome): CallToolResult {
  const structured: Record<string, unknown> = outcome.ok
    ? { ok: true, ...outcome.value }
    : { ok: false, error: outcome.error, spoken_summary: spokenRefusal(outcome.error) };
  // In the order the SDK's result schema writes them, so a direct answer reads the same byte for byte.
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}
