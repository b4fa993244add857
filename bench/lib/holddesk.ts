import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sql } from 'kysely';
import pg from 'pg';
import { openStore } from '../../src/store/store.js';
import type { DatabaseTarget } from '../../src/store/dialect.js';
import type { AppointmentsTable } from '../../src/store/schema.js';
import {
  CALLBACK,
  CLIENT_ID,
  CLIENT_SECRET,
  DEMO_PASSWORD,
  DEMO_USER,
  discover,
  userTokens,
} from '../../test/support/oauth.js';
import { spawnServer, type ChildServer } from './child.js';

/** Where the repository is, and the frozen "now" every benchmark server runs at (a Monday morning). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const NOW = '2026-09-14T15:00:00Z';
export const OFFICE_ID = 'harborview';

/**
 * Compiles the server the way `npm install` does (tsc) into a scratch folder, beside a copy of
 * package.json and links to data/ and node_modules/, so the benchmark runs `node dist/bin.js` like
 * an installation without touching the repository's own `dist/`.
 */
export function buildHoldDesk(): { bin: string; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'holddesk-bench-build-'));
  const result = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      '-p',
      join(ROOT, 'tsconfig.build.json'),
      '--outDir',
      join(dir, 'dist'),
    ],
    { encoding: 'utf8' },
  );
  const bin = join(dir, 'dist/bin.js');
  if (!existsSync(bin)) throw new Error(`build failed: ${result.stdout}${result.stderr}`);
  // tsc emits despite type errors; say so, since the numbers are then for code that does not check.
  if (result.status !== 0) process.stderr.write(`warning: the build reported errors:\n${result.stdout}`);
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'data'), join(dir, 'data'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return { bin, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

export type BenchDatabase = {
  readonly label: string;
  readonly target: DatabaseTarget;
  /** The value for HOLDDESK_DATABASE_URL. */
  readonly url: string;
  dispose(): Promise<void>;
};

export function sqliteDatabase(): BenchDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'holddesk-bench-db-'));
  const path = join(dir, 'holddesk.db');
  return {
    label: 'SQLite',
    target: { dialect: 'sqlite', path },
    url: path,
    dispose: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  };
}

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh schema of its own on the given PostgreSQL database, dropped afterwards. */
export async function postgresDatabase(baseUrl: string): Promise<BenchDatabase> {
  const schema = `holddesk_bench_${randomBytes(5).toString('hex')}`;
  await admin(baseUrl, (c) => c.query(`create schema ${schema}`));
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    label: 'PostgreSQL',
    target: { dialect: 'postgres', url: baseUrl, schema },
    url: url.toString(),
    dispose: () =>
      admin(baseUrl, (c) => c.query(`drop schema if exists ${schema} cascade`)).then(() => undefined),
  };
}

export interface HoldDeskOptions {
  readonly bin: string;
  readonly database: BenchDatabase;
  readonly stateful?: boolean;
  readonly jsonResponse?: boolean;
  readonly nodeArgs?: readonly string[];
}

export const OAUTH_ENV = {
  HOLDDESK_AUTH: 'oauth',
  HOLDDESK_OAUTH_CLIENT_ID: CLIENT_ID,
  HOLDDESK_OAUTH_CLIENT_SECRET: CLIENT_SECRET,
  HOLDDESK_OAUTH_REDIRECT_URIS: CALLBACK,
  HOLDDESK_DEMO_USERNAME: DEMO_USER,
  HOLDDESK_DEMO_PASSWORD: DEMO_PASSWORD,
};

/**
 * The environment of a benchmarked server: nothing `HOLDDESK_*` leaks in from the shell running the
 * benchmark; OAuth mode unless `oauth` is false (the plain default an office starts with).
 */
export function holddeskEnv(database: BenchDatabase, oauth = true): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('HOLDDESK_')),
  );
  return {
    ...inherited,
    ...(oauth ? { ...OAUTH_ENV, HOLDDESK_DESK_PASSWORD: 'bench-desk-password-0123' } : {}),
    HOLDDESK_DATABASE_URL: database.url,
    HOLDDESK_FIXED_NOW: NOW,
    HOLDDESK_LOG_LEVEL: 'error',
  };
}

/** The real command line, in OAuth mode, on a free port. */
export function startHoldDesk(options: HoldDeskOptions): Promise<ChildServer> {
  return spawnServer({
    nodeArgs: options.nodeArgs ?? [],
    args: [
      options.bin,
      'serve',
      '--port',
      '0',
      ...(options.stateful ? ['--stateful'] : []),
      ...(options.jsonResponse ? ['--json-response'] : []),
    ],
    env: holddeskEnv(options.database),
    ready: /MCP endpoint\s+(\S+)/,
  });
}

/** A Tier 2 (caller) access token, through the consent page and the code exchange like Alexa+. */
export async function callerToken(server: ChildServer): Promise<string> {
  const base = new URL(server.url).origin;
  const tokens = await userTokens(base, await discover(base));
  return tokens.access_token;
}

export async function connect(server: ChildServer, token: string): Promise<Client> {
  const client = new Client({ name: 'holddesk-bench', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

export async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return result.structuredContent as Record<string, unknown> & { ok: boolean };
}

export interface Slot {
  readonly date: string;
  readonly start_time: string;
  readonly staff_id: string;
}

/**
 * Every consultation that can be held at once without two overlapping: on the hour and half past,
 * for every staff member free then, on every day of the booking horizon.
 */
export async function openConsultations(client: Client, days: number): Promise<Slot[]> {
  const slots: Slot[] = [];
  const first = new Date(`${NOW.slice(0, 10)}T12:00:00Z`);
  for (let day = 1; day <= days; day++) {
    const date = new Date(first.getTime() + day * 86_400_000).toISOString().slice(0, 10);
    const open = await call(client, 'check_availability', { date, service: 'consultation' });
    if (!open.ok) continue;
    for (const slot of open.slots as { start_time: string; staff_ids: string[] }[]) {
      if (!/:(00|30)$/.test(slot.start_time)) continue;
      for (const staff_id of slot.staff_ids) slots.push({ date, start_time: slot.start_time, staff_id });
    }
  }
  return slots;
}

const STAFF = ['maria_chen', 'david_okafor', 'sofia_ramirez', 'james_whitfield'];
const SEED_BATCH = 500;

/**
 * Fills the office's history straight through the store: appointments number `from` to `to`, a few
 * years' worth, nine in ten before the benchmarked day and the rest after its horizon, as an office
 * that has used HoldDesk for a while would have. Nothing here goes through HTTP.
 */
export async function seedAppointments(
  target: DatabaseTarget,
  range: { from: number; to: number },
  around: string,
): Promise<void> {
  const store = await openStore(target);
  try {
    const centre = Date.parse(`${around}T00:00:00Z`);
    const rows: AppointmentsTable[] = [];
    const stamp = new Date(centre - 400 * 86_400_000).toISOString();
    for (let i = range.from; i < range.to; i++) {
      const past = i % 10 !== 9;
      // 30-minute steps walking away from the benchmarked day, four staff side by side.
      const step = Math.floor(i / STAFF.length) + 1;
      const offset = (past ? -1 : 1) * (step * 30 * 60_000 + (past ? 2 : 90) * 86_400_000);
      const starts = new Date(centre + offset);
      rows.push({
        id: `APT-SEED${String(i).padStart(7, '0')}`,
        office_id: OFFICE_ID,
        owner_subject: `user:seed${i % 997}`,
        client_name: `Seeded Caller ${i}`,
        contact_kind: 'email',
        contact_value: `seed${i}@example.com`,
        service: 'consultation',
        staff_id: STAFF[i % STAFF.length]!,
        starts_at: starts.toISOString(),
        ends_at: new Date(starts.getTime() + 30 * 60_000).toISOString(),
        notes: null,
        status: 'confirmed',
        status_before_cancel: null,
        cancel_reason: null,
        created_at: stamp,
        updated_at: stamp,
      });
    }
    await store.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += SEED_BATCH) {
        await tx
          .insertInto('appointments')
          .values(rows.slice(i, i + SEED_BATCH))
          .execute();
      }
    });
    // Fresh statistics, as a long-running database would have, so the planner sees the real table.
    if (target.dialect === 'postgres') await sql`analyze appointments`.execute(store.db);
  } finally {
    await store.close();
  }
}

export function ensureDir(path: string): string {
  mkdirSync(path, { recursive: true });
  return path;
}
