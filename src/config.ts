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

const flag = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** Comma- or space-separated list, as in `HOLDDESK_ALLOWED_HOSTS=a.example,b.example`. */
const list = z
  .string()
  .optional()
  .transform((v) => (v ?? '').split(/[\s,]+/).filter((item) => item !== ''));

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

const ConfigSchema = z
  .object({
    port: z.coerce.number().int().min(0).max(65535).default(8641),
    host: z.string().min(1).default('127.0.0.1'),
    auth: z.enum(['static', 'oauth']).default('static'),
    /** Static mode: the one bearer token that opens `/mcp`; unset means open (loopback only). */
    bearerToken: z.string().min(16, 'use at least 16 characters').optional(),
    insecureOpen: flag,
    stateful: flag,
    jsonResponse: flag,
    allowedHosts: list,
    allowedOrigins: list,
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
  })
  .superRefine((config, ctx) => {
    if (config.auth === 'oauth') {
      ctx.addIssue({
        code: 'custom',
        path: ['auth'],
        message: 'oauth mode is not available in this version; use static',
      });
    }
    const open = config.auth === 'static' && config.bearerToken === undefined;
    if (open && !LOOPBACK_HOSTS.has(config.host) && !config.insecureOpen) {
      ctx.addIssue({
        code: 'custom',
        path: ['host'],
        message: `refusing to serve an open /mcp on ${config.host}: set HOLDDESK_BEARER_TOKEN, use --auth oauth, or pass --insecure-open`,
      });
    }
  });

export type Config = z.infer<typeof ConfigSchema>;

/** Environment variable for each setting (null: flag only); flags use the same names in kebab-case. */
const ENVIRONMENT: Readonly<Record<keyof z.input<typeof ConfigSchema>, string | null>> = {
  port: 'HOLDDESK_PORT',
  host: 'HOLDDESK_HOST',
  auth: 'HOLDDESK_AUTH',
  bearerToken: 'HOLDDESK_BEARER_TOKEN',
  insecureOpen: null,
  stateful: null,
  jsonResponse: null,
  allowedHosts: 'HOLDDESK_ALLOWED_HOSTS',
  allowedOrigins: 'HOLDDESK_ALLOWED_ORIGINS',
  dataDir: 'HOLDDESK_DATA_DIR',
  database: 'HOLDDESK_DATABASE_URL',
  logLevel: 'HOLDDESK_LOG_LEVEL',
  fixedNow: 'HOLDDESK_FIXED_NOW',
};

export function readSettings(flags: Settings, env: NodeJS.ProcessEnv): Settings {
  const settings: Record<string, string | undefined> = {};
  for (const [key, variable] of Object.entries(ENVIRONMENT)) {
    const fromEnv = variable === null ? undefined : env[variable];
    // Lists add up: hosts given as flags join those from the environment.
    settings[key] =
      key === 'allowedHosts' || key === 'allowedOrigins'
        ? join(flags[key], fromEnv)
        : (flags[key] ?? fromEnv);
  }
  return settings;
}

function join(...parts: (string | undefined)[]): string | undefined {
  const present = parts.filter((p): p is string => p !== undefined && p !== '');
  return present.length === 0 ? undefined : present.join(',');
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
  const variable =
    ENVIRONMENT[key as keyof typeof ENVIRONMENT] ??
    `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  throw new ConfigError(`invalid configuration: ${variable}: ${issue.message}`);
}

/** The clock every adapter uses: frozen when configured, else the real one. */
export function clockFor(config: Pick<Config, 'fixedNow'>): () => Date {
  const fixed = config.fixedNow;
  return fixed ? () => new Date(fixed.getTime()) : () => new Date();
}
