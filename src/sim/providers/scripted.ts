import type { ChatMessage, ChatProvider, ModelReply, ToolSpec } from '../chat.js';
import { memoryFrom, route, type Route } from '../intent-router.js';
import { readFacts } from '../prompt.js';

function spokenOf(content: string): string | undefined {
  try {
    const result = JSON.parse(content) as { spoken_summary?: unknown };
    return typeof result.spoken_summary === 'string' ? result.spoken_summary : undefined;
  } catch {
    return undefined;
  }
}

/** The router's decision for the conversation's last utterance, with the facts of its system prompt. */
export function routeConversation(messages: readonly ChatMessage[]): Route {
  const facts = readFacts(messages);
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  const utterance = lastUser === -1 ? '' : messages[lastUser]!.content;
  const memory = memoryFrom(messages.slice(0, Math.max(lastUser, 0)), facts.today);
  return route(utterance, { today: facts.today, staff: facts.staff, memory });
}

/**
 * The deterministic provider: the intent router's tool call for the caller's last utterance, then
 * the tool's own `spoken_summary` as the reply. No model, no network.
 */
export class ScriptedProvider implements ChatProvider {
  readonly name = 'scripted';
  private calls = 0;

  chat(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): Promise<ModelReply> {
    const lastUser = messages.findLastIndex((m) => m.role === 'user');
    const results = messages.slice(lastUser + 1).filter((m) => m.role === 'tool');
    if (results.length > 0) {
      const spoken = results.map((m) => spokenOf(m.content)).filter((s): s is string => s !== undefined);
      return Promise.resolve({ content: spoken.join(' ') || 'Done.', toolCalls: [] });
    }
    const decision = routeConversation(messages);
    if (decision.kind === 'reply' || !tools.some((t) => t.name === decision.name)) {
      return Promise.resolve({
        content: decision.kind === 'reply' ? decision.text : 'Sorry, I cannot do that here.',
        toolCalls: [],
      });
    }
    this.calls += 1;
    return Promise.resolve({
      content: '',
      toolCalls: [{ id: `scripted-${this.calls}`, name: decision.name, arguments: decision.arguments }],
    });
  }
}
