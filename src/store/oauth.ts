import { sql } from 'kysely';
import type {
  CallerAccountsTable,
  OauthClientsTable,
  OauthCodesTable,
  OauthFamiliesTable,
  OauthTokensTable,
} from './schema.js';
import type { Executor } from './store.js';

export type OauthClientRecord = OauthClientsTable;
export type CallerAccountRecord = CallerAccountsTable;
export type FamilyRecord = OauthFamiliesTable;
export type CodeRecord = OauthCodesTable;
export type TokenRecord = OauthTokensTable;

/** An access or refresh token with the authorization it belongs to. */
export type TokenWithFamily = TokenRecord & {
  client_id: string;
  subject: string;
  scope: string;
  resource: string | null;
  revoked_at: string | null;
};

/**
 * The authorization server's state. Codes and tokens are looked up by the SHA-256 of their value;
 * the values themselves exist only in the responses that hand them out.
 */
export function oauthStore(db: Executor, officeId: string) {
  return {
    async upsertClient(record: Omit<OauthClientRecord, 'office_id'>): Promise<void> {
      await db
        .insertInto('oauth_clients')
        .values({ ...record, office_id: officeId })
        .onConflict((oc) =>
          oc.columns(['office_id', 'client_id']).doUpdateSet({
            name: record.name,
            secret_hash: record.secret_hash,
            redirect_uris: record.redirect_uris,
          }),
        )
        .execute();
    },

    async findClient(clientId: string): Promise<OauthClientRecord | undefined> {
      return db
        .selectFrom('oauth_clients')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
    },

    async listClients(): Promise<OauthClientRecord[]> {
      return db
        .selectFrom('oauth_clients')
        .selectAll()
        .where('office_id', '=', officeId)
        .orderBy('client_id')
        .execute();
    },

    async removeClient(clientId: string): Promise<boolean> {
      const result = await db
        .deleteFrom('oauth_clients')
        .where('office_id', '=', officeId)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      return result.numDeletedRows === 1n;
    },

    async upsertCaller(record: Omit<CallerAccountRecord, 'office_id' | 'disabled_at'>): Promise<void> {
      await db
        .insertInto('caller_accounts')
        .values({ ...record, office_id: officeId, disabled_at: null })
        .onConflict((oc) =>
          oc
            .columns(['office_id', 'username'])
            .doUpdateSet({ password_hash: record.password_hash, disabled_at: null }),
        )
        .execute();
    },

    async findActiveCaller(username: string): Promise<CallerAccountRecord | undefined> {
      return db
        .selectFrom('caller_accounts')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('username', '=', username)
        .where('disabled_at', 'is', null)
        .executeTakeFirst();
    },

    async listCallers(): Promise<CallerAccountRecord[]> {
      return db
        .selectFrom('caller_accounts')
        .selectAll()
        .where('office_id', '=', officeId)
        .orderBy('username')
        .execute();
    },

    async disableCaller(username: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('caller_accounts')
        .set({ disabled_at: at })
        .where('office_id', '=', officeId)
        .where('username', '=', username)
        .where('disabled_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async insertFamily(
      record: Omit<FamilyRecord, 'office_id' | 'revoked_at' | 'revoked_reason'>,
    ): Promise<void> {
      await db
        .insertInto('oauth_families')
        .values({ ...record, office_id: officeId, revoked_at: null, revoked_reason: null })
        .execute();
    },

    async findFamily(id: string): Promise<FamilyRecord | undefined> {
      return db
        .selectFrom('oauth_families')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** Revokes every token of an authorization at once: tokens are only valid with a live family. */
    async revokeFamily(id: string, at: string, reason: string): Promise<void> {
      await db
        .updateTable('oauth_families')
        .set({ revoked_at: at, revoked_reason: reason })
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .execute();
    },

    async insertCode(record: CodeRecord): Promise<void> {
      await db.insertInto('oauth_codes').values(record).execute();
    },

    async findCode(
      codeHash: string,
    ): Promise<(CodeRecord & { client_id: string; office_id: string }) | undefined> {
      return db
        .selectFrom('oauth_codes')
        .innerJoin('oauth_families', 'oauth_families.id', 'oauth_codes.family_id')
        .selectAll('oauth_codes')
        .select(['oauth_families.client_id', 'oauth_families.office_id'])
        .where('oauth_codes.code_hash', '=', codeHash)
        .where('oauth_families.office_id', '=', officeId)
        .executeTakeFirst();
    },

    /** Marks a code used if nobody used it first; false means this is a replay. */
    async useCode(codeHash: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('oauth_codes')
        .set({ used_at: at })
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    async insertToken(record: TokenRecord): Promise<void> {
      await db.insertInto('oauth_tokens').values(record).execute();
    },

    /**
     * Every authenticated MCP request asks this, so it is written as one SQL template: Kysely's query
     * builder rebuilds and recompiles its immutable tree on each call, several times the cost.
     */
    async findToken(tokenHash: string): Promise<TokenWithFamily | undefined> {
      const { rows } = await sql<TokenWithFamily>`
        select oauth_tokens.*, oauth_families.client_id, oauth_families.subject, oauth_families.scope,
               oauth_families.resource, oauth_families.revoked_at
        from oauth_tokens
        inner join oauth_families on oauth_families.id = oauth_tokens.family_id
        where oauth_tokens.token_hash = ${tokenHash} and oauth_families.office_id = ${officeId}`.execute(db);
      return rows[0];
    },

    /** Rotates a refresh token: true only for the first use, so a second use is detectable. */
    async useToken(tokenHash: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('oauth_tokens')
        .set({ used_at: at })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },
  };
}

export type OauthStore = ReturnType<typeof oauthStore>;
