import { z } from 'zod';
import { ConfigError } from '../config.js';

/**
 * The simulator's own settings, from its `SIM_*` variables (and `OLLAMA_URL`). `src/config.ts` reads
 * everything HoldDesk needs; this module is the only other place that reads the environment, and
 * it is handed the environment by the command line rather than reaching for it.
 */
const flag = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'use an absolute http:// or https:// URL' })
  .transform((url) => url.replace(/\/+$/, ''));

const SimSchema = z
  .object({
    port: z.coerce.number().int().min(0).max(65535).default(8650),
    bind: z.string().min(1).default('127.0.0.1'),
    publicUrl: httpUrl.optional(),
    llm: z.enum(['ollama', 'openai', 'scripted']).default('ollama'),
    ollamaUrl: httpUrl.default('http://127.0.0.1:11434'),
    ollamaModel: z.string().min(1).default('qwen2.5:7b-instruct-q4_K_M'),
    openaiUrl: httpUrl.optional(),
    openaiModel: z.string().min(1).optional(),
    openaiApiKey: z.string().min(1).optional(),
    showDemoCreds: flag,
  })
  .superRefine((config, ctx) => {
    if (config.llm === 'openai' && (config.openaiUrl === undefined || config.openaiModel === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['openaiUrl'],
        message: 'SIM_LLM=openai needs SIM_OPENAI_URL and SIM_OPENAI_MODEL',
      });
    }
  });

export type SimConfig = z.infer<typeof SimSchema>;

const VARIABLES: Readonly<Record<keyof z.input<typeof SimSchema>, string>> = {
  port: 'SIM_PORT',
  bind: 'SIM_BIND',
  publicUrl: 'SIM_PUBLIC_URL',
  llm: 'SIM_LLM',
  ollamaUrl: 'OLLAMA_URL',
  ollamaModel: 'SIM_OLLAMA_MODEL',
  openaiUrl: 'SIM_OPENAI_URL',
  openaiModel: 'SIM_OPENAI_MODEL',
  openaiApiKey: 'SIM_OPENAI_API_KEY',
  showDemoCreds: 'SIM_SHOW_DEMO_CREDS',
};

export function readSimConfig(env: Readonly<Record<string, string | undefined>>): SimConfig {
  const settings = Object.fromEntries(
    Object.entries(VARIABLES)
      .map(([key, variable]) => [key, env[variable]] as const)
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = SimSchema.safeParse(settings);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const variable = VARIABLES[String(issue.path[0]) as keyof typeof VARIABLES] ?? 'SIM_*';
  throw new ConfigError(`invalid configuration: ${variable}: ${issue.message}`);
}
