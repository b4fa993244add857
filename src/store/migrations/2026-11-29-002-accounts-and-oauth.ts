import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Frozen in time. Who may act: OAuth clients and caller accounts (the authorization server), staff
 * accounts and desk sessions, and the login throttle shared by the consent page and the desk.
 * Secrets are never stored: only SHA-256 of tokens, codes and session ids, and KDF hashes of passwords.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('oauth_clients')
    .addColumn('office_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('oauth_clients_pk', ['office_id', 'client_id'])
    .execute();

  await db.schema
    .createTable('caller_accounts')
    .addColumn('office_id', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('disabled_at', 'text')
    .addPrimaryKeyConstraint('caller_accounts_pk', ['office_id', 'username'])
    .execute();

  // One row per authorization (a consent, or a client_credentials grant): every token minted from it
  // belongs to this family, so replaying a code or a rotated refresh token can revoke them all.
  await db.schema
    .createTable('oauth_families')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('office_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('resource', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('revoked_reason', 'text')
    .execute();

  await db.schema
    .createTable('oauth_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('family_id', 'text', (c) => c.notNull().references('oauth_families.id'))
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();

  await db.schema
    .createTable('oauth_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('family_id', 'text', (c) => c.notNull().references('oauth_families.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('oauth_tokens_by_family').on('oauth_tokens').column('family_id').execute();

  await db.schema
    .createTable('staff_accounts')
    .addColumn('office_id', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('disabled_at', 'text')
    .addPrimaryKeyConstraint('staff_accounts_pk', ['office_id', 'username'])
    .execute();

  await db.schema
    .createTable('desk_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('office_id', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  // The shape rate-limiter-flexible reads and writes (its own CREATE TABLE, made here so that
  // migrations, not the first login, create it).
  if (dialect === 'postgres') {
    await sql`create table login_throttle (key varchar(255) primary key, points integer not null default 0, expire bigint)`.execute(
      db,
    );
  } else {
    await sql`create table login_throttle (key text primary key, points integer not null default 0, expire integer)`.execute(
      db,
    );
  }
}
