import type { PersonalAccessTokensTable } from './schema.js';
import type { Executor } from './store.js';

export type PersonalTokenRecord = PersonalAccessTokensTable;

/** Staff personal access tokens; looked up by the SHA-256 of the token, never by the token. */
export function personalTokens(db: Executor, officeId: string) {
  return {
    async insert(record: Omit<PersonalTokenRecord, 'office_id'>): Promise<void> {
      await db
        .insertInto('personal_access_tokens')
        .values({ ...record, office_id: officeId })
        .execute();
    },

    async findByHash(tokenHash: string): Promise<PersonalTokenRecord | undefined> {
      return db
        .selectFrom('personal_access_tokens')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
    },

    async find(id: string): Promise<PersonalTokenRecord | undefined> {
      return db
        .selectFrom('personal_access_tokens')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** A staff member's tokens, newest first; every staff member's when `username` is undefined. */
    async list(username?: string): Promise<PersonalTokenRecord[]> {
      let query = db.selectFrom('personal_access_tokens').selectAll().where('office_id', '=', officeId);
      if (username !== undefined) query = query.where('staff_username', '=', username);
      return query.orderBy('created_at', 'desc').orderBy('id').execute();
    },

    /** Revokes a token not yet revoked; false when there is none. */
    async revoke(id: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('personal_access_tokens')
        .set({ revoked_at: at })
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    /** Records use; skipped when the stored time is newer than `staleBefore`, so busy tokens do not write on every request. */
    async touch(id: string, at: string, staleBefore: string): Promise<void> {
      await db
        .updateTable('personal_access_tokens')
        .set({ last_used_at: at })
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
        .execute();
    },
  };
}

export type PersonalTokenRepository = ReturnType<typeof personalTokens>;
