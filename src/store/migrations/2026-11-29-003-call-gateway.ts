import type { Kysely } from 'kysely';

/**
 * Frozen in time. The call gateway: staff personal access tokens (only their SHA-256 is stored), the
 * staff members' devices, stored IVR call flows, and the calls themselves with their event log,
 * timed transcript lines, recording metadata and summaries.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('personal_access_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('office_id', 'text', (c) => c.notNull())
    .addColumn('staff_username', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createIndex('personal_access_tokens_by_staff')
    .on('personal_access_tokens')
    .columns(['office_id', 'staff_username'])
    .execute();

  await db.schema
    .createTable('devices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('office_id', 'text', (c) => c.notNull())
    .addColumn('staff_username', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('devices_address_unique', ['office_id', 'kind', 'address'])
    .execute();

  await db.schema
    .createTable('call_flows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('office_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('phone_number', 'text', (c) => c.notNull())
    .addColumn('steps_json', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('learned_from_call_id', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('call_flows_number_unique', ['office_id', 'phone_number'])
    .execute();

  await db.schema
    .createTable('calls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('office_id', 'text', (c) => c.notNull())
    .addColumn('placed_by', 'text', (c) => c.notNull())
    .addColumn('placed_via', 'text', (c) => c.notNull())
    .addColumn('credential_id', 'text')
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('intent', 'text')
    .addColumn('call_flow_id', 'text')
    .addColumn('device_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('end_reason', 'text')
    .addColumn('classification', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('answered_at', 'text')
    .addColumn('hold_started_at', 'text')
    .addColumn('hold_ms', 'integer', (c) => c.notNull())
    .addColumn('human_at', 'text')
    .addColumn('bridged_at', 'text')
    .addColumn('ended_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    // The instance driving a live call renews this lease; an expired lease on a call that never
    // ended means its instance stopped, and the call no longer counts against the cap.
    .addColumn('lease_until', 'text')
    .execute();
  await db.schema.createIndex('calls_by_status').on('calls').columns(['office_id', 'status']).execute();
  await db.schema.createIndex('calls_by_time').on('calls').columns(['office_id', 'created_at']).execute();

  await db.schema
    .createTable('call_events')
    .addColumn('call_id', 'text', (c) => c.notNull().references('calls.id'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('office_id', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('details_json', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('call_events_pk', ['call_id', 'seq'])
    .execute();

  await db.schema
    .createTable('call_transcript_lines')
    .addColumn('call_id', 'text', (c) => c.notNull().references('calls.id'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('office_id', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('offset_ms', 'integer', (c) => c.notNull())
    .addColumn('speaker', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('call_transcript_lines_pk', ['call_id', 'seq'])
    .execute();

  await db.schema
    .createTable('call_recordings')
    .addColumn('call_id', 'text', (c) => c.primaryKey().references('calls.id'))
    .addColumn('office_id', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('call_summaries')
    .addColumn('call_id', 'text', (c) => c.primaryKey().references('calls.id'))
    .addColumn('office_id', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('action_items_json', 'text', (c) => c.notNull())
    .addColumn('sentiment', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
