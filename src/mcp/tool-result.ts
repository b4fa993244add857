import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
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

/** Results built here, with their text block: exactly the JSON of their structured content. */
const structuredJson = new WeakMap<CallToolResult, string>();

export function toolResult(outcome: ToolOutcome): CallToolResult {
  const structured: Record<string, unknown> = outcome.ok
    ? { ok: true, ...outcome.value }
    : { ok: false, error: outcome.error, spoken_summary: spokenRefusal(outcome.error) };
  const text = JSON.stringify(structured);
  // In the order the SDK's result schema writes them, so a direct answer reads the same byte for byte.
  const result: CallToolResult = { content: [{ type: 'text', text }], structuredContent: structured };
  structuredJson.set(result, text);
  return result;
}

/**
 * `JSON.stringify` of a response carrying a result from `toolResult`, without serialising its
 * structured content a second time: the text block already is that JSON. Anything else (a result the
 * SDK re-parsed is a new object) is serialised as usual; the direct-call suite compares the bytes.
 */
export function responseJson(message: JSONRPCMessage): string {
  const response = 'result' in message ? message : undefined;
  const result = response?.result as CallToolResult | undefined;
  const text = result && structuredJson.get(result);
  if (response && result && text !== undefined && Object.keys(response).join() === 'result,jsonrpc,id') {
    const [block, ...others] = result.content;
    if (
      others.length === 0 &&
      block?.type === 'text' &&
      block.text === text &&
      Object.keys(result).join() === 'content,structuredContent' &&
      Object.keys(block).join() === 'type,text'
    ) {
      const quoted = JSON.stringify(text);
      return `{"result":{"content":[{"type":"text","text":${quoted}}],"structuredContent":${text}},"jsonrpc":"2.0","id":${JSON.stringify(response.id)}}`;
    }
  }
  return JSON.stringify(message);
}
