import {
  ProviderError,
  type ChatMessage,
  type ChatProvider,
  type ModelReply,
  type ToolCall,
  type ToolSpec,
} from '../chat.js';
import { postJson } from './http.js';

/**
 * Any OpenAI-compatible `POST {base}/chat/completions` (llama.cpp server, vLLM, LM Studio, hosted
 * APIs): tools as `{type: "function", function: {...}}`, tool calls in
 * `choices[0].message.tool_calls` with `arguments` as a JSON string, results as `role: "tool"`
 * messages carrying the call's `tool_call_id`.
 */
interface WireToolCall {
  readonly id?: unknown;
  readonly type?: unknown;
  readonly function?: { readonly name?: unknown; readonly arguments?: unknown };
}

interface CompletionResponse {
  readonly choices?: readonly {
    readonly message?: { readonly content?: unknown; readonly tool_calls?: readonly WireToolCall[] };
  }[];
}

function toWire(message: ChatMessage): Record<string, unknown> {
  switch (message.role) {
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant':
      return message.toolCalls?.length
        ? {
            role: 'assistant',
            content: message.content === '' ? null : message.content,
            tool_calls: message.toolCalls.map((c) => ({
              id: c.id,
              type: 'function',
              function: { name: c.name, arguments: JSON.stringify(c.arguments) },
            })),
          }
        : { role: 'assistant', content: message.content };
    default:
      return { role: message.role, content: message.content };
  }
}

function parseCall(call: WireToolCall, index: number): ToolCall {
  const name = call.function?.name;
  if (typeof name !== 'string' || name === '')
    throw new ProviderError('the model sent a tool call without a name');
  const raw = call.function?.arguments ?? '{}';
  let args: unknown = raw;
  if (typeof raw === 'string') {
    try {
      args = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch {
      throw new ProviderError(`the model sent arguments for ${name} that are not JSON`);
    }
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    throw new ProviderError(`the model sent arguments for ${name} that are not an object`);
  }
  return {
    id: typeof call.id === 'string' ? call.id : `call-${index}`,
    name,
    arguments: args as Record<string, unknown>,
  };
}

export class OpenAiProvider implements ChatProvider {
  readonly name: string;

  constructor(
    private readonly options: {
      readonly baseUrl: string;
      readonly model: string;
      readonly apiKey?: string | undefined;
      readonly timeoutMs: number;
    },
  ) {
    this.name = `openai:${options.model}`;
  }

  async chat(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): Promise<ModelReply> {
    const body = {
      model: this.options.model,
      temperature: 0,
      messages: messages.map(toWire),
      tools: tools.map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters },
      })),
      tool_choice: 'auto',
    };
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    const headers: Record<string, string> = this.options.apiKey
      ? { authorization: `Bearer ${this.options.apiKey}` }
      : {};
    const response = (await postJson(url, body, headers, this.options.timeoutMs)) as CompletionResponse;
    const message = response.choices?.[0]?.message;
    if (!message || typeof message !== 'object') throw new ProviderError('the completion has no message');
    return {
      content: typeof message.content === 'string' ? message.content.trim() : '',
      toolCalls: (message.tool_calls ?? []).map(parseCall),
    };
  }
}
