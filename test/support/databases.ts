import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseTarget } from '../../src/store/dialect.js';
import { openStore, type Store } from '../../src/store/store.js';

/**
 * Every database a suite must pass on (Kysely's "one suite, every dialect"). SQLite always runs;
 * PostgreSQL runs when HOLDDESK_TEST_DATABASE_URL is set, each test database in a fresh schema so
 * parallel runs cannot collide. Under CI the PostgreSQL run is required, never skipped.
 */
export interface TestDatabase {
  readonly target: DatabaseTarget;
  /** Drops what the test created. */
  readonly dispose: () => Promise<void>;
}

export interface DialectUnderTest {
  readonly name: 'sqlite' | 'postgres';
  /** Why the dialect cannot run here, or undefined when it can. */
  readonly skipReason: string | undefined;
  readonly create: () => Promise<TestDatabase>;
}

const postgresUrl = process.env.HOLDDESK_TEST_DATABASE_URL;

if (!postgresUrl && process.env.CI) {
  throw new Error('CI requires PostgreSQL tests: set HOLDDESK_TEST_DATABASE_URL');
}

function createSqlite(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'holddesk-test-'));
  return Promise.resolve({
    target: { dialect: 'sqlite', path: join(dir, 'holddesk.db') },
    dispose: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  });
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function createPostgres(): Promise<TestDatabase> {
  const schema = `holddesk_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((c) => c.query(`create schema ${schema}`));
  return {
    target: { dialect: 'postgres', url: postgresUrl!, schema },
    dispose: () => withAdmin((c) => c.query(`drop schema if exists ${schema} cascade`)).then(() => undefined),
  };
}

export const DIALECTS: readonly DialectUnderTest[] = [
  { name: 'sqlite', skipReason: undefined, create: createSqlite },
  {
    name: 'postgres',
    skipReason: postgresUrl
      ? undefined
      : 'HOLDDESK_TEST_DATABASE_URL is not set, so PostgreSQL suites are skipped',
    create: createPostgres,
  },
];

/** A migrated store on a fresh test database; `dispose` closes it and drops the database. */
export async function createTestStore(
  dialect: DialectUnderTest,
): Promise<{ store: Store; dispose: () => Promise<void> }> {
  const database = await dialect.create();
  const store = await openStore(database.target).catch(async (error: unknown) => {
    await database.dispose();
    throw error;
  });
  return {
    store,
    dispose: async () => {
      await store.close();
      await database.dispose();
    },
  };
}
