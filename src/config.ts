import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { parseDatabaseUrl } from './store/dialect.js';

/**
 * Configuration in two steps: `readSettings` gathers flags and `HOLDDESK_*` environment into one flat
 * record of strings; `parseConfig` validates it into a typed `Config` that fails at start-up with one
 * clear line. Nothing else in the program reads `process.env`.
 */
export type Settings = Readonly<Record<string, string | undefined>>;

const DEFAULT_DATA_DIR = fileURLToPath(new URL('../data/', import.meta.url));

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const ConfigSchema = z.object({
  dataDir: z.string().min(1).default(DEFAULT_DATA_DIR),
  /** `postgres://…`, `sqlite:<path>` or a file path; unset means `./var/holddesk.db`. */
  database: z
    .string()
    .optional()
    .transform((value, ctx) => {
      try {
        return parseDatabaseUrl(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  logLevel: z.enum(LOG_LEVELS).default('info'),
  /** Frozen clock for demos and reproducible tests, e.g. `2026-09-14T10:00:00` (UTC when no zone given). */
  fixedNow: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return undefined;
      const withZone = /[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`;
      const instant = new Date(withZone);
      if (Number.isNaN(instant.getTime())) {
        ctx.addIssue({ code: 'custom', message: `not an ISO date-time: "${value}"` });
        return z.NEVER;
      }
      return instant;
    }),
});

export type Config = z.infer<typeof ConfigSchema>;

/** Environment variable for each setting; flags use the same names in kebab-case. */
const ENVIRONMENT: Readonly<Record<keyof z.input<typeof ConfigSchema>, string>> = {
  dataDir: 'HOLDDESK_DATA_DIR',
  database: 'HOLDDESK_DATABASE_URL',
  logLevel: 'HOLDDESK_LOG_LEVEL',
  fixedNow: 'HOLDDESK_FIXED_NOW',
};

export function readSettings(flags: Settings, env: NodeJS.ProcessEnv): Settings {
  const settings: Record<string, string | undefined> = {};
  for (const [key, variable] of Object.entries(ENVIRONMENT)) {
    settings[key] = flags[key] ?? env[variable];
  }
  return settings;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function parseConfig(settings: Settings): Config {
  const defined = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ConfigSchema.safeParse(defined);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const key = String(issue.path[0] ?? '');
  const variable = ENVIRONMENT[key as keyof typeof ENVIRONMENT] ?? key;
  throw new ConfigError(`invalid configuration: ${variable}: ${issue.message}`);
}

/** The clock every adapter uses: frozen when configured, else the real one. */
export function clockFor(config: Pick<Config, 'fixedNow'>): () => Date {
  const fixed = config.fixedNow;
  return fixed ? () => new Date(fixed.getTime()) : () => new Date();
}
