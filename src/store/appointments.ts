import { sql } from 'kysely';
import type { AppointmentState, AppointmentStatus } from '../core/appointments.js';
import type { Executor } from './store.js';
import type { AppointmentsTable } from './schema.js';

export type AppointmentRecord = Omit<AppointmentsTable, 'status' | 'status_before_cancel'> & AppointmentState;

export interface BusyRow {
  readonly staff_id: string;
  readonly starts_at: string;
  readonly ends_at: string;
}

const OCCUPYING: readonly AppointmentStatus[] = ['pending_approval', 'confirmed', 'cancel_requested'];

/**
 * An upper bound on any appointment's length: a slot must fit inside one opening period of one day
 * (see `startsIn` in core/schedule), so two days leaves room for clock changes and any office hours.
 */
export const MAX_APPOINTMENT_MS = 2 * 24 * 60 * 60_000;

/** Thrown inside a transaction when a slot cell is already taken, so the whole hold rolls back. */
export class SlotTakenError extends Error {
  override readonly name = 'SlotTakenError';
}

export function appointments(db: Executor, officeId: string) {
  return {
    async insert(record: AppointmentRecord): Promise<void> {
      await db.insertInto('appointments').values(record).execute();
    },

    /** Claims every cell of the slot; the primary key on cells makes a second claim fail. */
    async claimCells(appointmentId: string, staffId: string, cells: readonly string[]): Promise<void> {
      await db
        .insertInto('slot_cells')
        .values(
          cells.map((cell_start) => ({
            office_id: officeId,
            staff_id: staffId,
            cell_start,
            appointment_id: appointmentId,
          })),
        )
        .execute();
    },

    async releaseCells(appointmentId: string): Promise<void> {
      await db
        .deleteFrom('slot_cells')
        .where('office_id', '=', officeId)
        .where('appointment_id', '=', appointmentId)
        .execute();
    },

    async findById(id: string): Promise<AppointmentRecord | undefined> {
      const row = await db
        .selectFrom('appointments')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row as AppointmentRecord | undefined;
    },

    /**
     * Everything that occupies staff time and overlaps [from, to). Every availability check and hold
     * asks this, so it is one SQL template: the query builder's rebuild and recompile cost more.
     */
    async listBusy(from: string, to: string): Promise<BusyRow[]> {
      // `ends_at > from` cannot bound an index on start times, so without a lower bound on the start
      // the scan would walk the office's whole history before `to`. No appointment is longer than
      // MAX_APPOINTMENT_MS, so nothing starting earlier than that before `from` can overlap.
      const earliestStart = new Date(Date.parse(from) - MAX_APPOINTMENT_MS).toISOString();
      const { rows } = await sql<BusyRow>`
        select staff_id, starts_at, ends_at from appointments
        where office_id = ${officeId} and status in (${sql.join(OCCUPYING)})
          and starts_at > ${earliestStart} and starts_at < ${to} and ends_at > ${from}`.execute(db);
      return rows;
    },

    /** Appointments starting in [from, to), for calendars. */
    async listStartingBetween(from: string, to: string): Promise<AppointmentRecord[]> {
      const rows = await db
        .selectFrom('appointments')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('starts_at', '>=', from)
        .where('starts_at', '<', to)
        .orderBy('starts_at')
        .orderBy('id')
        .execute();
      return rows as AppointmentRecord[];
    },

    async listPendingHoldsStartingBefore(instant: string): Promise<AppointmentRecord[]> {
      const rows = await db
        .selectFrom('appointments')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('status', '=', 'pending_approval')
        .where('starts_at', '<=', instant)
        .orderBy('starts_at')
        .execute();
      return rows as AppointmentRecord[];
    },

    /**
     * Moves the appointment to `next` only if it is still in `expected`: two decisions racing on one
     * appointment cannot both apply. Returns whether this call made the change.
     */
    async transition(
      id: string,
      expected: AppointmentStatus,
      next: AppointmentState,
      at: string,
      extra: { cancel_reason?: string | null } = {},
    ): Promise<boolean> {
      const result = await db
        .updateTable('appointments')
        .set({
          status: next.status,
          status_before_cancel: next.status_before_cancel,
          updated_at: at,
          ...extra,
        })
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .where('status', '=', expected)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async count(): Promise<number> {
      const row = await db
        .selectFrom('appointments')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('office_id', '=', officeId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type AppointmentRepository = ReturnType<typeof appointments>;
