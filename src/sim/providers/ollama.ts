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
 * Ollama's `/api/chat` with native tool calling: tools as `{type: "function", function: {...}}`,
 * tool calls come back in `message.tool_calls` with `arguments` as an object, and tool results go
 * back as `role: "tool"` messages naming the tool in `tool_name`.
 */
interface OllamaToolCall {
  readonly id?: string;
  readonly function?: { readonly name?: unknown; readonly arguments?: unknown };
}

interface OllamaResponse {
  readonly message?: { readonly content?: unknown; readonly tool_calls?: readonly OllamaToolCall[] };
  readonly error?: unknown;
}

function toWire(message: ChatMessage): Record<string, unknown> {
  switch (message.role) {
    case 'tool':
      return { role: 'tool', content: message.content, tool_name: message.name };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls?.length
          ? {
              tool_calls: message.toolCalls.map((c) => ({
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      };
    default:
      return { role: message.role, content: message.content };
  }
}

function parseArguments(raw: unknown): Record<string, unknown> {
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch {
      throw new ProviderError('tool call arguments are not JSON');
    }
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new ProviderError('tool call arguments are not an object');
  return raw as Record<string, unknown>;
}

export class OllamaProvider implements ChatProvider {
  readonly name: string;
  private calls = 0;

  constructor(
    private readonly options: {
      readonly baseUrl: string;
      readonly model: string;
      readonly timeoutMs: number;
    },
  ) {
    this.name = `ollama:${options.model}`;
  }

  async chat(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): Promise<ModelReply> {
    const body = {
      model: this.options.model,
      stream: false,
      // Tool choice should not depend on sampling luck.
      options: { temperature: 0 },
      messages: messages.map(toWire),
      tools: tools.map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters },
      })),
    };
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}/api/chat`;
    const response = (await postJson(url, body, {}, this.options.timeoutMs)) as OllamaResponse;
    const message = response.message;
    if (!message || typeof message !== 'object') throw new ProviderError('Ollama answered without a message');
    const toolCalls: ToolCall[] = (message.tool_calls ?? []).map((call) => {
      const name = call.function?.name;
      if (typeof name !== 'string' || name === '')
        throw new ProviderError('Ollama sent a tool call without a name');
      this.calls += 1;
      return {
        id: call.id ?? `ollama-${this.calls}`,
        name,
        arguments: parseArguments(call.function?.arguments ?? {}),
      };
    });
    return { content: typeof message.content === 'string' ? message.content.trim() : '', toolCalls };
  }
}
