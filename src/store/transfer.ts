import { sql } from 'kysely';
import { z } from 'zod';
import { auditTrail } from './audit.js';
import type { Dialect } from './dialect.js';
import type { Database } from './schema.js';
import type { Executor, Store } from './store.js';

/**
 * Backup and move: the whole state of a database as one JSON document, and its import into an empty
 * database of either dialect. Rows are copied column for column, so a snapshot only fits a database
 * whose schema is at the same migrations. Nothing here updates or deletes a row: the audit log stays
 * append-only, and an imported chain must verify or nothing is imported.
 */

export const SNAPSHOT_FORMAT = 'holddesk-state';
export const SNAPSHOT_VERSION = 1;

/** Rows per INSERT: 500 rows of the widest table (16 columns) stay far below both dialects' parameter limits. */
const INSERT_BATCH_ROWS = 500;

export class TransferError extends Error {
  override readonly name = 'TransferError';
}

const text = z.string();
const optionalText = z.string().nullable();
const sequence = z.number().int().positive();
const count = z.number().int().nonnegative();

/** One schema per table, mirroring `schema.ts`; strict, so a column this version lacks is refused. */
const ROW_SCHEMAS = {
  appointments: z.strictObject({
    id: text,
    office_id: text,
    owner_subject: text,
    client_name: text,
    contact_kind: z.enum(['phone', 'email']),
    contact_value: text,
    service: text,
    staff_id: text,
    starts_at: text,
    ends_at: text,
    notes: optionalText,
    status: text,
    status_before_cancel: optionalText,
    cancel_reason: optionalText,
    created_at: text,
    updated_at: text,
  }),
  escalations: z.strictObject({
    id: text,
    office_id: text,
    owner_subject: text,
    action: text,
    summary: text,
    details_json: optionalText,
    urgency: text,
    created_at: text,
  }),
  slot_cells: z.strictObject({
    office_id: text,
    staff_id: text,
    cell_start: text,
    appointment_id: text,
  }),
  approval_requests: z.strictObject({
    id: text,
    office_id: text,
    kind: text,
    status: text,
    appointment_id: optionalText,
    escalation_id: optionalText,
    requested_by: text,
    caller_said: optionalText,
    created_at: text,
    decided_at: optionalText,
    decided_by_account: optionalText,
    decided_by_name: optionalText,
    decision_note: optionalText,
  }),
  audit_log: z.strictObject({
    office_id: text,
    seq: sequence,
    at: text,
    actor_kind: text,
    actor_id: text,
    actor_name: optionalText,
    action: text,
    target_type: text,
    target_id: text,
    details_json: text,
    prev_hash: text,
    hash: text,
  }),
  audit_heads: z.strictObject({
    office_id: text,
    seq: sequence,
    hash: text,
  }),
  oauth_clients: z.strictObject({
    office_id: text,
    client_id: text,
    name: text,
    secret_hash: text,
    redirect_uris: text,
    created_at: text,
  }),
  caller_accounts: z.strictObject({
    office_id: text,
    username: text,
    password_hash: text,
    created_at: text,
    disabled_at: optionalText,
  }),
  oauth_families: z.strictObject({
    id: text,
    office_id: text,
    client_id: text,
    subject: text,
    scope: text,
    resource: optionalText,
    created_at: text,
    revoked_at: optionalText,
    revoked_reason: optionalText,
  }),
  oauth_codes: z.strictObject({
    code_hash: text,
    family_id: text,
    redirect_uri: text,
    code_challenge: text,
    expires_at: text,
    used_at: optionalText,
  }),
  oauth_tokens: z.strictObject({
    token_hash: text,
    family_id: text,
    kind: z.enum(['access', 'refresh']),
    expires_at: text,
    created_at: text,
    used_at: optionalText,
  }),
  staff_accounts: z.strictObject({
    office_id: text,
    username: text,
    display_name: text,
    role: z.enum(['admin', 'staff']),
    password_hash: text,
    created_at: text,
    disabled_at: optionalText,
  }),
  desk_sessions: z.strictObject({
    id_hash: text,
    office_id: text,
    username: text,
    csrf_token: text,
    created_at: text,
    expires_at: text,
  }),
  personal_access_tokens: z.strictObject({
    id: text,
    office_id: text,
    staff_username: text,
    name: text,
    token_hash: text,
    created_at: text,
    expires_at: text,
    last_used_at: optionalText,
    revoked_at: optionalText,
  }),
  devices: z.strictObject({
    id: text,
    office_id: text,
    staff_username: text,
    name: text,
    kind: z.enum(['sip', 'phone']),
    address: text,
    created_at: text,
  }),
  call_flows: z.strictObject({
    id: text,
    office_id: text,
    name: text,
    phone_number: text,
    steps_json: text,
    notes: optionalText,
    source: z.enum(['manual', 'learned']),
    learned_from_call_id: optionalText,
    version: sequence,
    created_by: text,
    created_at: text,
    updated_at: text,
  }),
  calls: z.strictObject({
    id: text,
    office_id: text,
    placed_by: text,
    placed_via: text,
    credential_id: optionalText,
    number: text,
    mode: text,
    intent: optionalText,
    call_flow_id: optionalText,
    device_id: optionalText,
    status: text,
    end_reason: optionalText,
    classification: optionalText,
    created_at: text,
    answered_at: optionalText,
    hold_started_at: optionalText,
    hold_ms: count,
    human_at: optionalText,
    bridged_at: optionalText,
    ended_at: optionalText,
    updated_at: text,
    lease_until: optionalText,
  }),
  call_events: z.strictObject({
    call_id: text,
    seq: sequence,
    office_id: text,
    at: text,
    kind: text,
    details_json: text,
  }),
  call_transcript_lines: z.strictObject({
    call_id: text,
    seq: sequence,
    office_id: text,
    at: text,
    offset_ms: count,
    speaker: text,
    text,
  }),
  call_recordings: z.strictObject({
    call_id: text,
    office_id: text,
    location: text,
    format: text,
    duration_ms: count,
    created_at: text,
  }),
  call_summaries: z.strictObject({
    call_id: text,
    office_id: text,
    summary: text,
    action_items_json: text,
    sentiment: text,
    created_at: text,
  }),
} satisfies { [T in keyof Database]: z.ZodType<Database[T]> };

export type TableName = keyof typeof ROW_SCHEMAS;

/** Foreign-key order: every table comes after the tables its rows point to. */
export const TABLE_ORDER = [
  'appointments',
  'escalations',
  'slot_cells',
  'approval_requests',
  'audit_log',
  'audit_heads',
  'oauth_clients',
  'caller_accounts',
  'oauth_families',
  'oauth_codes',
  'oauth_tokens',
  'staff_accounts',
  'desk_sessions',
  'personal_access_tokens',
  'devices',
  'call_flows',
  'calls',
  'call_events',
  'call_transcript_lines',
  'call_recordings',
  'call_summaries',
] as const satisfies readonly TableName[];

const PRIMARY_KEYS: { readonly [T in TableName]: readonly (keyof Database[T] & string)[] } = {
  appointments: ['id'],
  escalations: ['id'],
  slot_cells: ['office_id', 'staff_id', 'cell_start'],
  approval_requests: ['id'],
  audit_log: ['office_id', 'seq'],
  audit_heads: ['office_id'],
  oauth_clients: ['office_id', 'client_id'],
  caller_accounts: ['office_id', 'username'],
  oauth_families: ['id'],
  oauth_codes: ['code_hash'],
  oauth_tokens: ['token_hash'],
  staff_accounts: ['office_id', 'username'],
  desk_sessions: ['id_hash'],
  personal_access_tokens: ['id'],
  devices: ['id'],
  call_flows: ['id'],
  calls: ['id'],
  call_events: ['call_id', 'seq'],
  call_transcript_lines: ['call_id', 'seq'],
  call_recordings: ['call_id'],
  call_summaries: ['call_id'],
};

const SnapshotSchema = z.strictObject({
  format: z.literal(SNAPSHOT_FORMAT),
  version: z.literal(SNAPSHOT_VERSION),
  exported_at: z.iso.datetime(),
  source_dialect: z.enum(['sqlite', 'postgres']),
  migrations: z.array(z.string()),
  tables: z.strictObject({
    appointments: z.array(ROW_SCHEMAS.appointments),
    escalations: z.array(ROW_SCHEMAS.escalations),
    slot_cells: z.array(ROW_SCHEMAS.slot_cells),
    approval_requests: z.array(ROW_SCHEMAS.approval_requests),
    audit_log: z.array(ROW_SCHEMAS.audit_log),
    audit_heads: z.array(ROW_SCHEMAS.audit_heads),
    oauth_clients: z.array(ROW_SCHEMAS.oauth_clients),
    caller_accounts: z.array(ROW_SCHEMAS.caller_accounts),
    oauth_families: z.array(ROW_SCHEMAS.oauth_families),
    oauth_codes: z.array(ROW_SCHEMAS.oauth_codes),
    oauth_tokens: z.array(ROW_SCHEMAS.oauth_tokens),
    staff_accounts: z.array(ROW_SCHEMAS.staff_accounts),
    desk_sessions: z.array(ROW_SCHEMAS.desk_sessions),
    personal_access_tokens: z.array(ROW_SCHEMAS.personal_access_tokens),
    devices: z.array(ROW_SCHEMAS.devices),
    call_flows: z.array(ROW_SCHEMAS.call_flows),
    calls: z.array(ROW_SCHEMAS.calls),
    call_events: z.array(ROW_SCHEMAS.call_events),
    call_transcript_lines: z.array(ROW_SCHEMAS.call_transcript_lines),
    call_recordings: z.array(ROW_SCHEMAS.call_recordings),
    call_summaries: z.array(ROW_SCHEMAS.call_summaries),
  }),
});

export type StateSnapshot = z.infer<typeof SnapshotSchema>;
type Row = Record<string, unknown>;

/** Rows in primary-key order by code unit, the same on both dialects whatever their collation. */
function sortByKey(rows: Row[], key: readonly string[]): Row[] {
  const compare = (a: Row, b: Row): number => {
    for (const column of key) {
      const x = a[column] as string | number;
      const y = b[column] as string | number;
      if (x < y) return -1;
      if (x > y) return 1;
    }
    return 0;
  };
  return rows.sort(compare);
}

/** A row with exactly its schema's columns in schema order; PostgreSQL may hand back integers as strings. */
function normaliseRow(table: TableName, row: Row): Row {
  const columns = Object.keys(ROW_SCHEMAS[table].shape);
  return Object.fromEntries(columns.map((c) => [c, c === 'seq' ? Number(row[c]) : row[c]]));
}

async function appliedMigrations(db: Executor): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((r) => r.name);
}

async function readTable(db: Executor, table: TableName): Promise<Row[]> {
  const rows = (await db.selectFrom(table).selectAll().execute()) as Row[];
  return sortByKey(
    rows.map((row) => normaliseRow(table, row)),
    PRIMARY_KEYS[table],
  );
}

/**
 * Every row of every table. One repeatable-read transaction makes the tables agree with each other
 * while holds keep arriving on PostgreSQL; SQLite transactions here already exclude writers.
 */
export async function exportState(store: Store): Promise<StateSnapshot> {
  return store.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (tx) => {
      const tables: Partial<Record<TableName, Row[]>> = {};
      for (const table of TABLE_ORDER) tables[table] = await readTable(tx, table);
      return {
        format: SNAPSHOT_FORMAT,
        version: SNAPSHOT_VERSION,
        exported_at: new Date().toISOString(),
        source_dialect: store.dialect,
        migrations: await appliedMigrations(tx),
        tables: tables as StateSnapshot['tables'],
      };
    });
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
    .join('');
  return `${path || '(root)'}: ${issue.message}`;
}

/** The snapshot, or a one-line reason it is not one this version can import. */
function parseSnapshot(input: unknown): StateSnapshot {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new TransferError('not a HoldDesk state snapshot: expected a JSON object');
  }
  const { format, version } = input as { format?: unknown; version?: unknown };
  if (format !== SNAPSHOT_FORMAT) {
    throw new TransferError(
      `not a HoldDesk state snapshot: format is ${JSON.stringify(format) ?? 'missing'}, expected "${SNAPSHOT_FORMAT}"`,
    );
  }
  if (version !== SNAPSHOT_VERSION) {
    throw new TransferError(
      `unsupported snapshot version ${JSON.stringify(version) ?? '(missing)'}: this HoldDesk reads version ${SNAPSHOT_VERSION}`,
    );
  }
  const parsed = SnapshotSchema.safeParse(input);
  if (!parsed.success) {
    const [first, ...rest] = parsed.error.issues;
    const more = rest.length > 0 ? ` (and ${rest.length} more)` : '';
    throw new TransferError(`invalid snapshot at ${first ? describeIssue(first) : '(root)'}${more}`);
  }
  return parsed.data;
}

async function rowCount(db: Executor, table: TableName): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function refuseUnlessEmpty(db: Executor): Promise<void> {
  for (const table of TABLE_ORDER) {
    const count = await rowCount(db, table);
    if (count > 0) throw new TransferError(`import needs an empty database, but ${table} has ${count} rows`);
  }
}

async function refuseOtherSchema(db: Executor, snapshot: StateSnapshot): Promise<void> {
  const here = await appliedMigrations(db);
  if (JSON.stringify(here) !== JSON.stringify(snapshot.migrations)) {
    throw new TransferError(
      `the snapshot's schema (${snapshot.migrations.at(-1) ?? 'no migrations'}) differs from this database's ` +
        `(${here.at(-1) ?? 'no migrations'}); upgrade the older side first`,
    );
  }
}

async function insertInBatches(db: Executor, table: TableName, rows: readonly Row[]): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_BATCH_ROWS) {
    // The rows were validated against this table's schema, which mirrors its columns exactly.
    await db
      .insertInto(table)
      .values(rows.slice(start, start + INSERT_BATCH_ROWS))
      .execute();
  }
}

/** Every office's chain must verify and end at its head; a chain without a head could not be appended to. */
async function verifyChains(db: Executor, dialect: Dialect, snapshot: StateSnapshot): Promise<void> {
  const { audit_log: entries, audit_heads: heads } = snapshot.tables;
  const offices = new Set([...entries.map((e) => e.office_id), ...heads.map((h) => h.office_id)]);
  const headed = new Set(heads.map((h) => h.office_id));
  for (const office of [...offices].sort()) {
    const verdict = await auditTrail(db, office, dialect).verify();
    if (!verdict.intact) {
      throw new TransferError(
        `the audit chain of office ${office} is broken at entry ${verdict.broken_at_seq} (${verdict.reason}); nothing was imported`,
      );
    }
    if (!headed.has(office)) {
      throw new TransferError(`the audit chain of office ${office} has no head; nothing was imported`);
    }
  }
}

function databaseReason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error';
}

/**
 * Loads a snapshot into an empty database in one transaction: it all lands, audit chains verified,
 * or none of it does. Returns how many rows each table received.
 */
export async function importState(
  store: Store,
  input: unknown,
): Promise<{ tables: Record<TableName, number> }> {
  const snapshot = parseSnapshot(input);
  try {
    await store.transaction(async (tx) => {
      await refuseOtherSchema(tx, snapshot);
      await refuseUnlessEmpty(tx);
      for (const table of TABLE_ORDER) await insertInBatches(tx, table, snapshot.tables[table]);
      await verifyChains(tx, store.dialect, snapshot);
    });
  } catch (error) {
    if (error instanceof TransferError) throw error;
    throw new TransferError(`import failed and nothing was imported: ${databaseReason(error)}`);
  }
  const counts = TABLE_ORDER.map((table) => [table, snapshot.tables[table].length] as const);
  return { tables: Object.fromEntries(counts) as Record<TableName, number> };
}
