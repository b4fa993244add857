import type { StaffAccountsTable } from './schema.js';
import type { Executor } from './store.js';

export type StaffRecord = StaffAccountsTable;
export type StaffRole = StaffAccountsTable['role'];

/** Staff accounts: the people who may sign in to the desk and make requests binding. */
export function staffAccounts(db: Executor, officeId: string) {
  return {
    async insert(record: Omit<StaffRecord, 'office_id'>): Promise<void> {
      await db
        .insertInto('staff_accounts')
        .values({ ...record, office_id: officeId })
        .execute();
    },

    async find(username: string): Promise<StaffRecord | undefined> {
      return db
        .selectFrom('staff_accounts')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('username', '=', username)
        .executeTakeFirst();
    },

    /** The account if it exists and is not disabled. */
    async findActive(username: string): Promise<StaffRecord | undefined> {
      const record = await this.find(username);
      return record && record.disabled_at === null ? record : undefined;
    },

    async list(): Promise<StaffRecord[]> {
      return db
        .selectFrom('staff_accounts')
        .selectAll()
        .where('office_id', '=', officeId)
        .orderBy('username')
        .execute();
    },

    async setPassword(username: string, passwordHash: string): Promise<boolean> {
      const result = await db
        .updateTable('staff_accounts')
        .set({ password_hash: passwordHash })
        .where('office_id', '=', officeId)
        .where('username', '=', username)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async disable(username: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('staff_accounts')
        .set({ disabled_at: at })
        .where('office_id', '=', officeId)
        .where('username', '=', username)
        .where('disabled_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },
  };
}

export type StaffRepository = ReturnType<typeof staffAccounts>;
