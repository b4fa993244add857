import type { ChatProvider } from '../chat.js';
import type { SimConfig } from '../config.js';
import { FallbackProvider } from './fallback.js';
import { OllamaProvider } from './ollama.js';
import { OpenAiProvider } from './openai.js';
import { ScriptedProvider } from './scripted.js';

/** A local model may load for a while on its first request. */
const MODEL_TIMEOUT_MS = 60_000;
/** After a failure the model is left alone this long, and the scripted router answers. */
export const FALLBACK_COOLDOWN_MS = 30_000;

/** The simulator's model: `SIM_LLM`, behind the scripted fallback unless scripted itself; shared by all conversations, so a model that is down is skipped for everyone during the cooldown. */
export function chooseProvider(config: SimConfig): ChatProvider {
  if (config.llm === 'scripted') return new ScriptedProvider();
  const primary =
    config.llm === 'ollama'
      ? new OllamaProvider({
          baseUrl: config.ollamaUrl,
          model: config.ollamaModel,
          timeoutMs: MODEL_TIMEOUT_MS,
        })
      : new OpenAiProvider({
          baseUrl: config.openaiUrl!,
          model: config.openaiModel!,
          apiKey: config.openaiApiKey,
          timeoutMs: MODEL_TIMEOUT_MS,
        });
  return new FallbackProvider(primary, new ScriptedProvider(), { cooldownMs: FALLBACK_COOLDOWN_MS });
}
