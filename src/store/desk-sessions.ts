import type { DeskSessionsTable, StaffAccountsTable } from './schema.js';
import type { Executor } from './store.js';

export type DeskSessionRecord = Omit<DeskSessionsTable, 'office_id'>;

/** A live session together with the account it belongs to. */
export interface ActiveDeskSession extends DeskSessionRecord {
  readonly display_name: string;
  readonly role: StaffAccountsTable['role'];
}

/**
 * Staff sign-in sessions, in the database so that every instance behind a load balancer knows them.
 * Only the SHA-256 of a session id is stored: a copy of this table cannot be replayed as a cookie.
 */
export function deskSessions(db: Executor, officeId: string) {
  return {
    async insert(record: DeskSessionRecord): Promise<void> {
      await db
        .insertInto('desk_sessions')
        .values({ ...record, office_id: officeId })
        .execute();
    },

    /** The session if it has not expired and its account still exists and is not disabled. */
    async findActive(idHash: string, now: string): Promise<ActiveDeskSession | undefined> {
      return db
        .selectFrom('desk_sessions as s')
        .innerJoin('staff_accounts as a', (join) =>
          join.onRef('a.office_id', '=', 's.office_id').onRef('a.username', '=', 's.username'),
        )
        .select([
          's.id_hash',
          's.username',
          's.csrf_token',
          's.created_at',
          's.expires_at',
          'a.display_name',
          'a.role',
        ])
        .where('s.office_id', '=', officeId)
        .where('s.id_hash', '=', idHash)
        .where('s.expires_at', '>', now)
        .where('a.disabled_at', 'is', null)
        .executeTakeFirst();
    },

    async delete(idHash: string): Promise<void> {
      await db
        .deleteFrom('desk_sessions')
        .where('office_id', '=', officeId)
        .where('id_hash', '=', idHash)
        .execute();
    },

    /** Signs an account out everywhere (disabled, or its password changed). */
    async deleteForUser(username: string): Promise<number> {
      const result = await db
        .deleteFrom('desk_sessions')
        .where('office_id', '=', officeId)
        .where('username', '=', username)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async deleteExpired(now: string): Promise<number> {
      const result = await db
        .deleteFrom('desk_sessions')
        .where('office_id', '=', officeId)
        .where('expires_at', '<=', now)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type DeskSessionRepository = ReturnType<typeof deskSessions>;
