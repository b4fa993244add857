import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  MAX_DISPLAY_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  normaliseUsername,
  USERNAME_PATTERN,
} from './core/staff-accounts.js';
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

/**
 * One CSP source expression an operator may allow to frame the desk: an http(s) origin (a leading
 * `*.` wildcard allowed) or 'self'. Anything else could smuggle further directives into the header.
 */
const FRAME_ANCESTOR = /^(?:'self'|https?:\/\/(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d{1,5})?)$/i;

const ConfigSchema = z
  .object({
    port: z.coerce.number().int().min(0).max(65535).default(8641),
    host: z.string().min(1).default('127.0.0.1'),
    /** Unset: `oauth` when an OAuth client secret is configured, else `static` (the reference's rule). */
    auth: z.enum(['static', 'oauth']).optional(),
    /** `mcp`: 401s at /mcp carry `WWW-Authenticate: Bearer resource_metadata=…` for generic MCP clients. */
    authChallenge: z.enum(['mcp']).optional(),
    oauthIssuer: z.url({ protocol: /^https?$/ }).optional(),
    oauthClientId: z
      .string()
      .regex(/^[\w.-]{1,64}$/, 'letters, digits, ".", "_" or "-"')
      .default('holddesk-dev-client'),
    oauthClientSecret: z.string().min(16, 'use at least 16 characters').optional(),
    oauthRedirectUris: list,
    oauthTokenTtl: z.coerce.number().int().positive().default(3600),
    oauthResource: z.url({ protocol: /^https?$/ }).optional(),
    demoUsername: z
      .string()
      .regex(/^[\w.@-]{1,64}$/)
      .default('demo'),
    demoPassword: z.string().min(8, 'use at least 8 characters').optional(),
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
    /** The desk account created at first start (role admin); lower case. */
    deskUsername: z
      .string()
      .transform(normaliseUsername)
      .pipe(z.string().regex(USERNAME_PATTERN, 'use 2 to 32 of a-z 0-9 . _ -'))
      .default('staff'),
    /** Unset: a random password is generated when the account is created, and printed once. */
    deskPassword: z.string().min(MIN_PASSWORD_LENGTH).max(MAX_PASSWORD_LENGTH).optional(),
    deskDisplayName: z.string().trim().min(1).max(MAX_DISPLAY_NAME_LENGTH).default('Front desk'),
    /** Origins allowed to frame the desk (CSP frame-ancestors); empty means none. */
    deskFrameAncestors: list.pipe(
      z.array(
        z
          .string()
          .regex(
            FRAME_ANCESTOR,
            "use origins like https://sim.example.com (or 'self'), separated by spaces or commas",
          ),
      ),
    ),
    /** The public base URL, e.g. `https://desk.example.com`; desk cookies are `Secure` when it is https. */
    publicUrl: z
      .url({ protocol: /^https?$/, error: 'use an absolute http:// or https:// URL' })
      .transform((url) => url.replace(/\/+$/, ''))
      .optional(),
    /** Call gateway: calls in progress at once, and calls placed per office-local day. */
    maxConcurrentCalls: z.coerce.number().int().min(1).max(100).default(2),
    dailyCallLimit: z.coerce.number().int().min(1).max(10_000).default(20),
    /** Staff may also present JWTs from this OpenID provider (with this audience) on the gateway. */
    oidcIssuer: z.url({ protocol: /^https?$/ }).optional(),
    oidcAudience: z.string().min(1).optional(),
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
  .transform((config) => ({
    ...config,
    auth: config.auth ?? (config.oauthClientSecret === undefined ? 'static' : 'oauth'),
  }))
  .superRefine((config, ctx) => {
    const open = config.auth === 'static' && config.bearerToken === undefined;
    if (open && !LOOPBACK_HOSTS.has(config.host) && !config.insecureOpen) {
      ctx.addIssue({
        code: 'custom',
        path: ['host'],
        message: `refusing to serve an open /mcp on ${config.host}: set HOLDDESK_BEARER_TOKEN, use --auth oauth, or pass --insecure-open`,
      });
    }
    if ((config.oidcIssuer === undefined) !== (config.oidcAudience === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [config.oidcIssuer === undefined ? 'oidcIssuer' : 'oidcAudience'],
        message: 'set both HOLDDESK_OIDC_ISSUER and HOLDDESK_OIDC_AUDIENCE, or neither',
      });
    }
  });

export type Config = z.infer<typeof ConfigSchema>;

/** Environment variable for each setting (null: flag only); flags use the same names in kebab-case. */
const ENVIRONMENT: Readonly<Record<keyof z.input<typeof ConfigSchema>, string | null>> = {
  port: 'HOLDDESK_PORT',
  host: 'HOLDDESK_HOST',
  auth: 'HOLDDESK_AUTH',
  authChallenge: null,
  oauthIssuer: 'HOLDDESK_OAUTH_ISSUER',
  oauthClientId: 'HOLDDESK_OAUTH_CLIENT_ID',
  oauthClientSecret: 'HOLDDESK_OAUTH_CLIENT_SECRET',
  oauthRedirectUris: 'HOLDDESK_OAUTH_REDIRECT_URIS',
  oauthTokenTtl: 'HOLDDESK_OAUTH_TOKEN_TTL',
  oauthResource: 'HOLDDESK_OAUTH_RESOURCE',
  demoUsername: 'HOLDDESK_DEMO_USERNAME',
  demoPassword: 'HOLDDESK_DEMO_PASSWORD',
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
  deskUsername: 'HOLDDESK_DESK_USERNAME',
  deskPassword: 'HOLDDESK_DESK_PASSWORD',
  deskDisplayName: 'HOLDDESK_DESK_DISPLAY_NAME',
  deskFrameAncestors: 'HOLDDESK_DESK_FRAME_ANCESTORS',
  publicUrl: 'HOLDDESK_PUBLIC_URL',
  maxConcurrentCalls: 'HOLDDESK_MAX_CONCURRENT_CALLS',
  dailyCallLimit: 'HOLDDESK_DAILY_CALL_LIMIT',
  oidcIssuer: 'HOLDDESK_OIDC_ISSUER',
  oidcAudience: 'HOLDDESK_OIDC_AUDIENCE',
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
