import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import { describeTarget, type DatabaseTarget, type Dialect } from './dialect.js';
import { migrateToLatest } from './migrate.js';
import type { Database } from './schema.js';
import { ImmediateSqliteDialect } from './sqlite-driver.js';

/** Anything queries can run on: the database itself or an open transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;

/** The driver's own client, for the few libraries that speak to it directly (the login throttle). */
export type NativeClient =
  | { readonly dialect: 'sqlite'; readonly database: BetterSqlite3.Database }
  | { readonly dialect: 'postgres'; readonly pool: pg.Pool };

export interface Store {
  readonly dialect: Dialect;
  readonly native: NativeClient;
  readonly target: DatabaseTarget;
  readonly db: Kysely<Database>;
  /** Runs `work` in one transaction: everything it writes commits together or not at all. */
  transaction<T>(work: (tx: Transaction<Database>) => Promise<T>): Promise<T>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export class StoreError extends Error {
  override readonly name = 'StoreError';
}

const SQLITE_BUSY_TIMEOUT_MS = 5000;

function openSqlite(path: string): { db: Kysely<Database>; native: NativeClient } {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new BetterSqlite3(path, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  // WAL lets readers work while one writer commits; FULL sync makes a hold the caller was told about
  // survive a power cut, not only a crash; foreign keys are off by default in SQLite.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  return {
    db: new Kysely<Database>({ dialect: new ImmediateSqliteDialect(sqlite) }),
    native: { dialect: 'sqlite', database: sqlite },
  };
}

function openPostgres(
  url: string,
  schema: string | undefined,
): { db: Kysely<Database>; native: NativeClient } {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5000,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return {
    db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
    native: { dialect: 'postgres', pool },
  };
}

function reason(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}

/**
 * Opens the database and brings its schema up to date. Any failure becomes a `StoreError` with one
 * line that says which database and why, for the command line to print instead of a stack trace.
 */
export async function openStore(target: DatabaseTarget, options: { migrate?: boolean } = {}): Promise<Store> {
  let db: Kysely<Database>;
  let native: NativeClient;
  try {
    ({ db, native } =
      target.dialect === 'sqlite' ? openSqlite(target.path) : openPostgres(target.url, target.schema));
    await sql`select 1`.execute(db);
  } catch (error) {
    throw new StoreError(`cannot open ${describeTarget(target)}: ${reason(error)}`);
  }
  if (options.migrate ?? true) {
    try {
      await migrateToLatest(db, target.dialect);
    } catch (error) {
      await db.destroy();
      throw new StoreError(`cannot migrate ${describeTarget(target)}: ${reason(error)}`);
    }
  }
  return {
    dialect: target.dialect,
    native,
    target,
    db,
    transaction: (work) => db.transaction().execute(work),
    ping: async () => {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
    close: () => db.destroy(),
  };
}

/** A unique or primary-key violation, the database's way of saying "that slot is taken". */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
