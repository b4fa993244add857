import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Frozen in time: this file must never change once released, and imports no application code.
 * The appointments, the approval queue, escalations and the hash-chained audit trail.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('appointments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('office_id', 'text', (c) => c.notNull())
    .addColumn('owner_subject', 'text', (c) => c.notNull())
    .addColumn('client_name', 'text', (c) => c.notNull())
    .addColumn('contact_kind', 'text', (c) => c.notNull())
    .addColumn('contact_value', 'text', (c) => c.notNull())
    .addColumn('service', 'text', (c) => c.notNull())
    .addColumn('staff_id', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_before_cancel', 'text')
    .addColumn('cancel_reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('appointments_by_start')
    .on('appointments')
    .columns(['office_id', 'starts_at'])
    .execute();
  await db.schema
    .createIndex('appointments_by_owner')
    .on('appointments')
    .columns(['office_id', 'owner_subject'])
    .execute();
  await db.schema
    .createIndex('appointments_by_status')
    .on('appointments')
    .columns(['office_id', 'status', 'starts_at'])
    .execute();

  await db.schema
    .createTable('slot_cells')
    .addColumn('office_id', 'text', (c) => c.notNull())
    .addColumn('staff_id', 'text', (c) => c.notNull())
    .addColumn('cell_start', 'text', (c) => c.notNull())
    .addColumn('appointment_id', 'text', (c) => c.notNull().references('appointments.id'))
    .addPrimaryKeyConstraint('slot_cells_pk', ['office_id', 'staff_id', 'cell_start'])
    .execute();
  await db.schema
    .createIndex('slot_cells_by_appointment')
    .on('slot_cells')
    .column('appointment_id')
    .execute();

  await db.schema
    .createTable('escalations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('office_id', 'text', (c) => c.notNull())
    .addColumn('owner_subject', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('details_json', 'text')
    .addColumn('urgency', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('approval_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('office_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('appointment_id', 'text', (c) => c.references('appointments.id'))
    .addColumn('escalation_id', 'text', (c) => c.references('escalations.id'))
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('caller_said', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .addColumn('decided_by_account', 'text')
    .addColumn('decided_by_name', 'text')
    .addColumn('decision_note', 'text')
    .execute();
  await db.schema
    .createIndex('approval_requests_by_status')
    .on('approval_requests')
    .columns(['office_id', 'status', 'created_at'])
    .execute();
  await db.schema
    .createIndex('approval_requests_by_appointment')
    .on('approval_requests')
    .column('appointment_id')
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('office_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('actor_name', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('details_json', 'text', (c) => c.notNull())
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('audit_log_pk', ['office_id', 'seq'])
    .execute();
  await db.schema.createIndex('audit_log_by_time').on('audit_log').columns(['office_id', 'at']).execute();

  await db.schema
    .createTable('audit_heads')
    .addColumn('office_id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();

  // Append-only by construction: the database itself refuses to change or remove an audit entry.
  if (dialect === 'postgres') {
    await sql`
      create function holddesk_audit_append_only() returns trigger language plpgsql as $$
      begin raise exception 'audit_log is append-only'; end $$`.execute(db);
    await sql`
      create trigger audit_log_append_only before update or delete on audit_log
      for each row execute function holddesk_audit_append_only()`.execute(db);
  } else {
    await sql`
      create trigger audit_log_no_update before update on audit_log
      begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
    await sql`
      create trigger audit_log_no_delete before delete on audit_log
      begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
  }
}
