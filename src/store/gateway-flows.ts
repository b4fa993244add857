import type { CallFlowsTable } from './schema.js';
import type { Executor } from './store.js';

export type CallFlowRecord = CallFlowsTable;

/** Stored IVR call flows, at most one per phone number (the database's unique key). */
export function gatewayFlows(db: Executor, officeId: string) {
  return {
    async insert(record: Omit<CallFlowRecord, 'office_id'>): Promise<void> {
      await db
        .insertInto('call_flows')
        .values({ ...record, office_id: officeId })
        .execute();
    },

    async find(id: string): Promise<CallFlowRecord | undefined> {
      return db
        .selectFrom('call_flows')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async findByNumber(phoneNumber: string): Promise<CallFlowRecord | undefined> {
      return db
        .selectFrom('call_flows')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('phone_number', '=', phoneNumber)
        .executeTakeFirst();
    },

    async list(): Promise<CallFlowRecord[]> {
      return db
        .selectFrom('call_flows')
        .selectAll()
        .where('office_id', '=', officeId)
        .orderBy('name')
        .orderBy('id')
        .execute();
    },

    /** Replaces a flow's steps if it is still at `version` (compare-and-set); false when someone else won. */
    async revise(
      id: string,
      version: number,
      change: Pick<CallFlowRecord, 'steps_json' | 'notes' | 'source' | 'learned_from_call_id' | 'updated_at'>,
    ): Promise<boolean> {
      const result = await db
        .updateTable('call_flows')
        .set({ ...change, version: version + 1 })
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .where('version', '=', version)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },
  };
}

export type CallFlowRepository = ReturnType<typeof gatewayFlows>;
