import { sql } from 'kysely';
import type {
  CallEventsTable,
  CallRecordingsTable,
  CallSummariesTable,
  CallsTable,
  CallTranscriptLinesTable,
} from './schema.js';
import type { Executor } from './store.js';

export type CallRecord = CallsTable;
export type CallEventRecord = CallEventsTable;
export type TranscriptLineRecord = CallTranscriptLinesTable;
export type RecordingRecord = CallRecordingsTable;
export type SummaryRecord = CallSummariesTable;

export interface CallSearch {
  /** Digits anywhere in the number (other characters are ignored). */
  readonly phone?: string | undefined;
  /** Words anywhere in the intent, case-insensitive. */
  readonly intent?: string | undefined;
  readonly limit: number;
}

/** `%`, `_` and the escape character itself match literally in a LIKE pattern. */
const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Calls, their event log, transcript lines, recording metadata and summaries. */
export function calls(db: Executor, officeId: string) {
  return {
    async insert(record: Omit<CallRecord, 'office_id'>): Promise<void> {
      await db
        .insertInto('calls')
        .values({ ...record, office_id: officeId })
        .execute();
    },

    async find(id: string): Promise<CallRecord | undefined> {
      return db
        .selectFrom('calls')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async update(id: string, change: Partial<Omit<CallRecord, 'id' | 'office_id'>>): Promise<void> {
      await db
        .updateTable('calls')
        .set(change)
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .execute();
    },

    /** Calls not ended, oldest first. */
    async listActive(): Promise<CallRecord[]> {
      return db
        .selectFrom('calls')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('status', '!=', 'ended')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    /** Calls not ended whose driving instance renewed their lease after `now`: what the cap counts. */
    async countActive(now: string): Promise<number> {
      const row = await db
        .selectFrom('calls')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('office_id', '=', officeId)
        .where('status', '!=', 'ended')
        .where('lease_until', '>', now)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async countPlacedSince(instant: string): Promise<number> {
      const row = await db
        .selectFrom('calls')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('office_id', '=', officeId)
        .where('created_at', '>=', instant)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Calls not ended whose lease ran out at `now`: their instance stopped driving them. */
    async listOrphaned(now: string): Promise<CallRecord[]> {
      return db
        .selectFrom('calls')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('status', '!=', 'ended')
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
        .execute();
    },

    /** Ends a call whose lease ran out at `at`, unless it ended or was renewed meanwhile. */
    async endOrphan(id: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('calls')
        .set({ status: 'ended', end_reason: 'failed', ended_at: at, hold_started_at: null, updated_at: at })
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .where('status', '!=', 'ended')
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', at)]))
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async lastEventSeq(callId: string): Promise<number> {
      const row = await db
        .selectFrom('call_events')
        .select((eb) => eb.fn.max('seq').as('seq'))
        .where('office_id', '=', officeId)
        .where('call_id', '=', callId)
        .executeTakeFirst();
      return Number(row?.seq ?? 0);
    },

    async renewLeases(ids: readonly string[], until: string): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable('calls')
        .set({ lease_until: until })
        .where('office_id', '=', officeId)
        .where('id', 'in', ids)
        .where('status', '!=', 'ended')
        .execute();
    },

    /** Newest first. */
    async search(filter: CallSearch): Promise<CallRecord[]> {
      let query = db.selectFrom('calls').selectAll().where('office_id', '=', officeId);
      const digits = filter.phone?.replace(/\D/g, '') ?? '';
      if (digits !== '') query = query.where('number', 'like', `%${digits}%`);
      const intent = filter.intent?.trim().toLowerCase() ?? '';
      if (intent !== '') {
        query = query.where(sql<boolean>`lower(intent) like ${`%${likeLiteral(intent)}%`} escape ${'\\'}`);
      }
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
    },

    async appendEvent(record: Omit<CallEventRecord, 'office_id'>): Promise<void> {
      await db
        .insertInto('call_events')
        .values({ ...record, office_id: officeId })
        .execute();
    },

    async listEvents(callId: string): Promise<CallEventRecord[]> {
      return db
        .selectFrom('call_events')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('call_id', '=', callId)
        .orderBy('seq')
        .execute();
    },

    async appendLine(record: Omit<TranscriptLineRecord, 'office_id'>): Promise<void> {
      await db
        .insertInto('call_transcript_lines')
        .values({ ...record, office_id: officeId })
        .execute();
    },

    /** The whole transcript in order, or only its last `last` lines. */
    async listLines(callId: string, last?: number): Promise<TranscriptLineRecord[]> {
      let query = db
        .selectFrom('call_transcript_lines')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('call_id', '=', callId)
        .orderBy('seq', 'desc');
      if (last !== undefined) query = query.limit(last);
      return (await query.execute()).reverse();
    },

    async saveRecording(record: Omit<RecordingRecord, 'office_id'>): Promise<void> {
      await db
        .insertInto('call_recordings')
        .values({ ...record, office_id: officeId })
        .execute();
    },

    async findRecording(callId: string): Promise<RecordingRecord | undefined> {
      return db
        .selectFrom('call_recordings')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('call_id', '=', callId)
        .executeTakeFirst();
    },

    async saveSummary(record: Omit<SummaryRecord, 'office_id'>): Promise<void> {
      await db
        .insertInto('call_summaries')
        .values({ ...record, office_id: officeId })
        .execute();
    },

    async findSummary(callId: string): Promise<SummaryRecord | undefined> {
      return db
        .selectFrom('call_summaries')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('call_id', '=', callId)
        .executeTakeFirst();
    },
  };
}

export type CallRepository = ReturnType<typeof calls>;
