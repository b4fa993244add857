import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type {
  CallToolResult,
  JSONRPCMessage,
  JSONRPCResultResponse,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

/** What a tool does with arguments that passed its input schema, for the principal in `authInfo`. */
export type ToolAnswer = (args: unknown, authInfo: AuthInfo | undefined) => Promise<CallToolResult>;

export interface DirectTool {
  readonly inputSchema: z.ZodObject;
  readonly answer: ToolAnswer;
}

const PLAIN_PARAMS = new Set(['name', 'arguments']);

/**
 * Answers a plain stateless `tools/call` (a known tool, arguments that pass its schema, no `_meta`
 * or task) without the SDK's per-request protocol machinery: its request and result re-validation,
 * abort signal and handler chain cost about a quarter of an availability check, and do nothing for such
 * a call. The answer is the one the SDK gives, from the same `answer` function it is registered with.
 *
 * Anything else returns `undefined` and goes through the SDK, so every error, progress and task
 * behaviour stays the SDK's own; the differential test holds both paths to the same answers.
 */
export async function answerDirectly(
  tools: ReadonlyMap<string, DirectTool>,
  message: JSONRPCMessage,
  authInfo: AuthInfo,
): Promise<JSONRPCResultResponse | undefined> {
  if (!('id' in message) || !('method' in message) || message.method !== 'tools/call') return undefined;
  const { params } = message;
  if (params === undefined || Object.keys(params).some((key) => !PLAIN_PARAMS.has(key))) return undefined;
  const tool = typeof params.name === 'string' ? tools.get(params.name) : undefined;
  if (tool === undefined) return undefined;
  const args = params.arguments;
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    return undefined;
  }
  // The SDK parses the arguments the same way (asynchronously; no tool schema here is async).
  const parsed = tool.inputSchema.safeParse(args ?? {});
  if (!parsed.success) return undefined;
  let result: CallToolResult;
  try {
    result = await tool.answer(parsed.data, authInfo);
  } catch (error) {
    // What the SDK answers when a tool handler throws.
    const text = error instanceof Error ? error.message : String(error);
    result = { content: [{ type: 'text', text }], isError: true };
  }
  return { result, jsonrpc: '2.0', id: message.id };
}
