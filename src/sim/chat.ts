/**
 * The conversation shapes every model provider speaks, independent of any vendor's wire format:
 * the orchestrator builds these, each provider translates them to its own API and back.
 */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

export type ChatMessage =
  | { readonly role: 'system' | 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly ToolCall[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly name: string; readonly content: string };

/** A tool as a model sees it: the MCP tool's name, description and JSON Schema for its input. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
}

export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly enum?: readonly unknown[];
  readonly items?: JsonSchema;
  readonly description?: string;
  readonly additionalProperties?: boolean | JsonSchema;
  readonly [key: string]: unknown;
}

/** One model step: either tool calls to run, or the text to say (or both, when a model narrates). */
export interface ModelReply {
  readonly content: string;
  readonly toolCalls: readonly ToolCall[];
  /** Set by the fallback wrapper: which provider answered, and why the primary did not. */
  readonly answeredBy?: string;
  readonly fallbackReason?: string;
}

export interface ChatProvider {
  /** Shown in the trace, e.g. `ollama:qwen2.5:7b-instruct-q4_K_M`. */
  readonly name: string;
  chat(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): Promise<ModelReply>;
}

/** The model could not be reached or answered something that is not a chat reply. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
}
