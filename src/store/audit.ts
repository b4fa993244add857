import { sql } from 'kysely';
import {
  chainHash,
  GENESIS_HASH,
  linkFault,
  type ChainedEntry,
  type ChainVerdict,
  type JsonValue,
} from '../core/audit-chain.js';
import type { Dialect } from './dialect.js';
import type { AuditLogTable } from './schema.js';
import type { Executor } from './store.js';

export interface AuditEvent {
  readonly at: string;
  readonly actor_kind: 'caller' | 'staff' | 'system';
  readonly actor_id: string;
  readonly actor_name: string | null;
  readonly action: string;
  readonly target_type: string;
  readonly target_id: string;
  readonly details: JsonValue;
}

export interface AuditFilter {
  readonly action?: string;
  readonly actorId?: string;
  readonly targetId?: string;
  readonly from?: string;
  readonly to?: string;
  readonly limit?: number;
  readonly beforeSeq?: number;
}

const VERIFY_PAGE = 1000;

function toEntry(row: AuditLogTable): ChainedEntry {
  return { ...row, seq: Number(row.seq), details: JSON.parse(row.details_json) as JsonValue };
}

/**
 * The append-only audit trail. There is deliberately no update or delete here, and the database
 * refuses both with a trigger. `append` must run inside the transaction that made the change it
 * records, so a change and its audit entry commit together.
 */
export function auditTrail(db: Executor, officeId: string, dialect: Dialect) {
  return {
    async append(event: AuditEvent): Promise<ChainedEntry> {
      // Lock this office's chain head so concurrent appends line up one after another. SQLite
      // transactions here already hold the write lock (BEGIN IMMEDIATE).
      const lock = dialect === 'postgres' ? sql` for update` : sql``;
      const head = await sql<{
        seq: number;
        hash: string;
      }>`select seq, hash from audit_heads where office_id = ${officeId}${lock}`
        .execute(db)
        .then((r) => r.rows[0]);
      const content = { office_id: officeId, seq: Number(head?.seq ?? 0) + 1, ...event };
      const prevHash = head?.hash ?? GENESIS_HASH;
      const entry: ChainedEntry = { ...content, prev_hash: prevHash, hash: chainHash(prevHash, content) };
      const { details, ...columns } = entry;
      await db
        .insertInto('audit_log')
        .values({ ...columns, details_json: JSON.stringify(details) })
        .execute();
      if (head) {
        await db
          .updateTable('audit_heads')
          .set({ seq: entry.seq, hash: entry.hash })
          .where('office_id', '=', officeId)
          .execute();
      } else {
        // Two first appends racing: the loser's insert fails on the primary key and its transaction
        // rolls back, which is the right outcome for an office's very first audit entry.
        await db
          .insertInto('audit_heads')
          .values({ office_id: officeId, seq: entry.seq, hash: entry.hash })
          .execute();
      }
      return entry;
    },

    /** Newest first, filtered; `beforeSeq` pages backwards. */
    async list(filter: AuditFilter = {}): Promise<ChainedEntry[]> {
      let query = db.selectFrom('audit_log').selectAll().where('office_id', '=', officeId);
      if (filter.action) query = query.where('action', '=', filter.action);
      if (filter.actorId) query = query.where('actor_id', '=', filter.actorId);
      if (filter.targetId) query = query.where('target_id', '=', filter.targetId);
      if (filter.from) query = query.where('at', '>=', filter.from);
      if (filter.to) query = query.where('at', '<', filter.to);
      if (filter.beforeSeq !== undefined) query = query.where('seq', '<', filter.beforeSeq);
      const rows = await query
        .orderBy('seq', 'desc')
        .limit(filter.limit ?? 100)
        .execute();
      return rows.map(toEntry);
    },

    /** Walks the whole chain from the first entry in pages, recomputing every hash. */
    async verify(): Promise<ChainVerdict> {
      let prevHash = GENESIS_HASH;
      let prevSeq = 0;
      for (;;) {
        const rows = await db
          .selectFrom('audit_log')
          .selectAll()
          .where('office_id', '=', officeId)
          .where('seq', '>', prevSeq)
          .orderBy('seq')
          .limit(VERIFY_PAGE)
          .execute();
        for (const row of rows) {
          const entry = toEntry(row);
          const fault = linkFault(prevHash, prevSeq, entry);
          if (fault) return { intact: false, entries: prevSeq, broken_at_seq: entry.seq, reason: fault };
          prevHash = entry.hash;
          prevSeq = entry.seq;
        }
        if (rows.length < VERIFY_PAGE) break;
      }
      const head = await db
        .selectFrom('audit_heads')
        .select(['seq', 'hash'])
        .where('office_id', '=', officeId)
        .executeTakeFirst();
      // Deleting the newest entries leaves a valid-looking shorter chain; the head row catches that.
      if (head && (Number(head.seq) !== prevSeq || head.hash !== prevHash)) {
        return {
          intact: false,
          entries: prevSeq,
          broken_at_seq: Number(head.seq),
          reason: 'entries missing at the end',
        };
      }
      return { intact: true, entries: prevSeq, head: prevHash };
    },
  };
}

export type AuditTrail = ReturnType<typeof auditTrail>;
