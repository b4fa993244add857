import { initialApprovalStatus, type ApprovalKind, type ApprovalStatus } from '../core/approvals.js';
import type { ApprovalRequestsTable, EscalationsTable } from './schema.js';
import type { Executor } from './store.js';

export type ApprovalRecord = Omit<ApprovalRequestsTable, 'kind' | 'status'> & {
  kind: ApprovalKind;
  status: ApprovalStatus;
};
export type EscalationRecord = EscalationsTable;

const AWAITING: readonly ApprovalStatus[] = ['pending', 'open'];

export interface DecisionStamp {
  readonly status: ApprovalStatus;
  readonly at: string;
  readonly account: string;
  readonly name: string;
  readonly note: string | null;
}

export function approvals(db: Executor, officeId: string) {
  return {
    async insert(record: ApprovalRecord): Promise<void> {
      await db.insertInto('approval_requests').values(record).execute();
    },

    /** Opens a request in the queue, awaiting its first decision. */
    async open(request: {
      id: string;
      kind: ApprovalKind;
      appointment_id?: string;
      escalation_id?: string;
      requested_by: string;
      caller_said: string | null;
      created_at: string;
    }): Promise<void> {
      await this.insert({
        appointment_id: null,
        escalation_id: null,
        ...request,
        office_id: officeId,
        status: initialApprovalStatus(request.kind),
        decided_at: null,
        decided_by_account: null,
        decided_by_name: null,
        decision_note: null,
      });
    },

    async findById(id: string): Promise<ApprovalRecord | undefined> {
      const row = await db
        .selectFrom('approval_requests')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row as ApprovalRecord | undefined;
    },

    /** The open request of `kind` for an appointment, if any. */
    async findAwaitingForAppointment(
      appointmentId: string,
      kind: ApprovalKind,
    ): Promise<ApprovalRecord | undefined> {
      const row = await db
        .selectFrom('approval_requests')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('appointment_id', '=', appointmentId)
        .where('kind', '=', kind)
        .where('status', 'in', AWAITING)
        .executeTakeFirst();
      return row as ApprovalRecord | undefined;
    },

    async listAwaiting(): Promise<ApprovalRecord[]> {
      const rows = await db
        .selectFrom('approval_requests')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('status', 'in', AWAITING)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows as ApprovalRecord[];
    },

    async listRecent(limit: number): Promise<ApprovalRecord[]> {
      const rows = await db
        .selectFrom('approval_requests')
        .selectAll()
        .where('office_id', '=', officeId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows as ApprovalRecord[];
    },

    /**
     * Records a decision only if nobody decided first (compare-and-set on the status), so of two staff
     * deciding at once exactly one lands. Returns whether this call decided.
     */
    async decide(id: string, stamp: DecisionStamp): Promise<boolean> {
      const result = await db
        .updateTable('approval_requests')
        .set({
          status: stamp.status,
          decided_at: stamp.at,
          decided_by_account: stamp.account,
          decided_by_name: stamp.name,
          decision_note: stamp.note,
        })
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .where('status', 'in', AWAITING)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async insertEscalation(record: EscalationRecord): Promise<void> {
      await db.insertInto('escalations').values(record).execute();
    },

    async findEscalation(id: string): Promise<EscalationRecord | undefined> {
      return db
        .selectFrom('escalations')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
  };
}

export type ApprovalRepository = ReturnType<typeof approvals>;
