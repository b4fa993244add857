import {
  ProviderError,
  type ChatMessage,
  type ChatProvider,
  type ModelReply,
  type ToolSpec,
} from '../chat.js';

/**
 * A model that is down should not end the call: on a provider failure the step is answered by the
 * fallback, and for `cooldownMs` the primary is not tried at all, so each utterance does not wait
 * for the same timeout again. This recovers from transport failures; it proves nothing about a
 * model's tool choice.
 */
export class FallbackProvider implements ChatProvider {
  readonly name: string;
  private downUntil = 0;

  constructor(
    private readonly primary: ChatProvider,
    private readonly fallback: ChatProvider,
    private readonly options: {
      readonly cooldownMs: number;
      readonly now?: () => number;
    },
  ) {
    this.name = `${primary.name} (fallback ${fallback.name})`;
  }

  /** The provider that answers the next step. */
  get active(): ChatProvider {
    return this.now() < this.downUntil ? this.fallback : this.primary;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  async chat(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): Promise<ModelReply> {
    if (this.active === this.fallback) {
      const reply = await this.fallback.chat(messages, tools);
      return {
        ...reply,
        answeredBy: this.fallback.name,
        fallbackReason: `${this.primary.name} is cooling down`,
      };
    }
    try {
      return { ...(await this.primary.chat(messages, tools)), answeredBy: this.primary.name };
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      this.downUntil = this.now() + this.options.cooldownMs;
      const reply = await this.fallback.chat(messages, tools);
      return { ...reply, answeredBy: this.fallback.name, fallbackReason: error.message };
    }
  }
}
