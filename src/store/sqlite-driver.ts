import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';

/**
 * Kysely's SQLite dialect with two changes that matter here:
 * - transactions start with `BEGIN IMMEDIATE`, taking the write lock up front. A deferred transaction
 *   that reads and then writes fails at once with SQLITE_BUSY when another process wrote in between
 *   (the busy timeout cannot help a lock upgrade), which would turn ordinary contention between
 *   instances into errors;
 * - prepared statements are cached by SQL text, since a hot request runs the same few queries.
 */
const STATEMENT_CACHE_LIMIT = 500;

class CachingConnection implements DatabaseConnection {
  readonly #db: SqliteDatabase;
  readonly #statements = new Map<string, Statement>();

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  #prepare(sqlText: string): Statement {
    let statement = this.#statements.get(sqlText);
    if (!statement) {
      if (this.#statements.size >= STATEMENT_CACHE_LIMIT) this.#statements.clear();
      statement = this.#db.prepare(sqlText);
      this.#statements.set(sqlText, statement);
    }
    return statement;
  }

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.#prepare(compiled.sql);
    const parameters = compiled.parameters as unknown[];
    if (statement.reader) return Promise.resolve({ rows: statement.all(parameters) as R[] });
    const { changes, lastInsertRowid } = statement.run(parameters);
    return Promise.resolve({
      numAffectedRows: BigInt(changes),
      insertId: BigInt(lastInsertRowid),
      rows: [],
    });
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not used with SQLite');
  }
}

class ImmediateSqliteDriver implements Driver {
  readonly #db: SqliteDatabase;
  #connection: CachingConnection | undefined;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async init(): Promise<void> {
    this.#connection = new CachingConnection(this.#db);
    return Promise.resolve();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(this.#connection!);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  releaseConnection(): Promise<void> {
    return Promise.resolve();
  }

  destroy(): Promise<void> {
    this.#db.close();
    return Promise.resolve();
  }
}

export class ImmediateSqliteDialect implements Dialect {
  readonly #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#db);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
