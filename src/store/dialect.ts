/** The two databases HoldDesk runs on; migrations receive it where SQL must differ. */
export type Dialect = 'sqlite' | 'postgres';

export type DatabaseTarget =
  | { readonly dialect: 'sqlite'; readonly path: string }
  | { readonly dialect: 'postgres'; readonly url: string; readonly schema?: string };

export const DEFAULT_SQLITE_PATH = './var/holddesk.db';

/**
 * `HOLDDESK_DATABASE_URL` forms: `postgres://…` / `postgresql://…` for PostgreSQL; `sqlite:<path>`,
 * `sqlite://<path>`, `:memory:` or a plain file path for SQLite; unset means the embedded default.
 */
export function parseDatabaseUrl(url: string | undefined): DatabaseTarget {
  if (url === undefined || url.trim() === '') return { dialect: 'sqlite', path: DEFAULT_SQLITE_PATH };
  const value = url.trim();
  if (/^postgres(ql)?:\/\//i.test(value)) return { dialect: 'postgres', url: value };
  if (/^sqlite:/i.test(value)) {
    const path = value.replace(/^sqlite:(\/\/)?/i, '');
    if (path === '') throw new RangeError('a sqlite: URL needs a file path, e.g. sqlite:./var/holddesk.db');
    return { dialect: 'sqlite', path };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new RangeError(
      `unsupported database URL scheme in "${value.split('://')[0]}://…" (use postgres:// or sqlite:)`,
    );
  }
  return { dialect: 'sqlite', path: value };
}

/** Where a target points, for logs and messages, without a password. */
export function describeTarget(target: DatabaseTarget): string {
  if (target.dialect === 'sqlite') return `SQLite ${target.path}`;
  const url = new URL(target.url);
  if (url.password) url.password = '***';
  return `PostgreSQL ${url.host}${url.pathname}${target.schema ? ` (schema ${target.schema})` : ''}`;
}
