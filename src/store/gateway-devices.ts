import type { DevicesTable } from './schema.js';
import type { Executor } from './store.js';

export type DeviceRecord = DevicesTable;

/** The phones staff members are rung on when the gateway hands a call over. */
export function gatewayDevices(db: Executor, officeId: string) {
  return {
    async insert(record: Omit<DeviceRecord, 'office_id'>): Promise<void> {
      await db
        .insertInto('devices')
        .values({ ...record, office_id: officeId })
        .execute();
    },

    async find(id: string): Promise<DeviceRecord | undefined> {
      return db
        .selectFrom('devices')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** One staff member's devices, or the whole office's, oldest first. */
    async list(username?: string): Promise<DeviceRecord[]> {
      let query = db.selectFrom('devices').selectAll().where('office_id', '=', officeId);
      if (username !== undefined) query = query.where('staff_username', '=', username);
      return query.orderBy('created_at').orderBy('id').execute();
    },

    async remove(id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('devices')
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numDeletedRows === 1n;
    },
  };
}

export type DeviceRepository = ReturnType<typeof gatewayDevices>;
