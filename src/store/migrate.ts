import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Dialect } from './dialect.js';
import * as frontDesk from './migrations/2026-11-29-001-front-desk.js';
import * as accountsAndOauth from './migrations/2026-11-29-002-accounts-and-oauth.js';
import * as callGateway from './migrations/2026-11-29-003-call-gateway.js';

/**
 * Migrations are listed explicitly, in order, named by date; each is frozen once released. They take
 * the dialect so that the few statements that must differ (triggers, types) can.
 */
interface DialectMigration {
  up(db: Kysely<any>, dialect: Dialect): Promise<void>;
}

const MIGRATIONS: ReadonlyArray<readonly [string, DialectMigration]> = [
  ['2026-11-29-001-front-desk', frontDesk],
  ['2026-11-29-002-accounts-and-oauth', accountsAndOauth],
  ['2026-11-29-003-call-gateway', callGateway],
];

class ListedMigrations implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}

  getMigrations(): Promise<Record<string, Migration>> {
    const entries = MIGRATIONS.map(([name, m]): [string, Migration] => [
      name,
      { up: (db) => m.up(db, this.dialect) },
    ]);
    return Promise.resolve(Object.fromEntries(entries));
  }
}

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

/** Brings the schema up to date; safe when several instances start at once (the migrator locks). */
export async function migrateToLatest(db: Kysely<any>, dialect: Dialect): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one: another HoldDesk
  // schema in the same PostgreSQL database would then hide ours.
  const migrationTableSchema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({ db, provider: new ListedMigrations(dialect), migrationTableSchema });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === 'Error');
    const detail = error instanceof Error ? error.message : JSON.stringify(error);
    throw new MigrationError(`migration ${failed?.migrationName ?? '(setup)'} failed: ${detail}`);
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
