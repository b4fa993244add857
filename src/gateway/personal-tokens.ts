import { randomBytes } from 'node:crypto';
import { sha256Hex, secretsEqual } from '../auth/secrets.js';
import { findSensitiveNumbers } from '../core/sensitive.js';
import { refusal, success, type Result } from '../core/result.js';
import { auditTrail } from '../store/audit.js';
import { personalTokens } from '../store/personal-tokens.js';
import { staffAccounts } from '../store/staff.js';
import type { Store } from '../store/store.js';
import { newId } from './ids.js';
import { GATEWAY_SCOPE, type StaffPrincipal } from './staff-principal.js';
import { tokenView, type TokenView } from './views.js';

/**
 * Personal access tokens: how a staff member's own assistant reaches the call gateway. A token is
 * `hd_pat_` and 43 base64url characters (256 random bits); it is shown once when minted and only its
 * SHA-256 is stored. It works until it expires or is revoked, and only while its staff account is
 * enabled. The prefix lets secret scanners recognise a leaked token and lets the gateway refuse
 * anything else without a database look-up.
 */
export const PAT_PREFIX = 'hd_pat_';
const PAT_PATTERN = /^hd_pat_[A-Za-z0-9_-]{43}$/;
export const DEFAULT_TOKEN_DAYS = 90;
export const MAX_TOKEN_DAYS = 365;
/** `last_used_at` is kept to the minute: a busy token does not write on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Who minted or revoked a token, for the audit trail: a signed-in staff member or the command line. */
export type TokenActor =
  | { readonly kind: 'staff'; readonly username: string; readonly name: string; readonly role: string }
  | { readonly kind: 'system'; readonly id: string };

export interface MintRequest {
  readonly staff: string;
  readonly name: string;
  readonly expiresInDays?: number | undefined;
  readonly actor: TokenActor;
}

export type MintRefusalCode = 'unknown_staff' | 'invalid_name' | 'invalid_expiry' | 'not_permitted';

export function looksLikePersonalToken(token: string): boolean {
  return token.startsWith(PAT_PREFIX);
}

export class PersonalTokens {
  constructor(
    private readonly store: Store,
    private readonly officeId: string,
    private readonly clock: () => Date,
  ) {}

  #audit(actor: TokenActor) {
    return actor.kind === 'staff'
      ? { actor_kind: 'staff' as const, actor_id: actor.username, actor_name: actor.name }
      : { actor_kind: 'system' as const, actor_id: actor.id, actor_name: null };
  }

  /** Mints a token; the returned `token` is the only time it exists outside the caller's hands. */
  async mint(request: MintRequest): Promise<Result<{ token: string; view: TokenView }, MintRefusalCode>> {
    const name = request.name.trim();
    if (name === '' || name.length > 80 || findSensitiveNumbers(name).length > 0) {
      return refusal(
        'invalid_name',
        'Name the token (1-80 characters) after where it is used, e.g. "laptop assistant".',
      );
    }
    const days = request.expiresInDays ?? DEFAULT_TOKEN_DAYS;
    if (!Number.isInteger(days) || days < 1 || days > MAX_TOKEN_DAYS) {
      return refusal('invalid_expiry', `A token expires in 1 to ${MAX_TOKEN_DAYS} days.`);
    }
    const { actor } = request;
    // Staff mint for themselves; an admin (or the command line on the server) may mint for anyone.
    if (actor.kind === 'staff' && actor.role !== 'admin' && actor.username !== request.staff) {
      return refusal('not_permitted', 'You can only mint tokens for yourself.');
    }
    const account = await staffAccounts(this.store.db, this.officeId).findActive(request.staff);
    if (!account) return refusal('unknown_staff', `There is no enabled staff account "${request.staff}".`);
    const token = `${PAT_PREFIX}${randomBytes(32).toString('base64url')}`;
    const now = this.clock();
    const record = {
      id: newId('pat'),
      staff_username: account.username,
      name,
      token_hash: sha256Hex(token),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + days * DAY_MS).toISOString(),
      last_used_at: null,
      revoked_at: null,
    };
    await this.store.transaction(async (tx) => {
      await personalTokens(tx, this.officeId).insert(record);
      await auditTrail(tx, this.officeId, this.store.dialect).append({
        at: record.created_at,
        ...this.#audit(actor),
        action: 'personal_token.minted',
        target_type: 'personal_token',
        target_id: record.id,
        details: { staff: record.staff_username, name, expires_at: record.expires_at },
      });
    });
    return success({ token, view: tokenView({ ...record, office_id: this.officeId }, record.created_at) });
  }

  /** A staff member's tokens (never their hashes), or everyone's for `undefined`. */
  async list(username?: string): Promise<TokenView[]> {
    const now = this.clock().toISOString();
    const rows = await personalTokens(this.store.db, this.officeId).list(username);
    return rows.map((row) => tokenView(row, now));
  }

  /** Revokes a token. Staff revoke their own; admins and the command line any. */
  async revoke(id: string, actor: TokenActor): Promise<Result<TokenView, 'not_found' | 'already_revoked'>> {
    const at = this.clock().toISOString();
    const repo = personalTokens(this.store.db, this.officeId);
    const row = await repo.find(id);
    const visible =
      row && (actor.kind === 'system' || actor.role === 'admin' || row.staff_username === actor.username);
    if (!row || !visible) return refusal('not_found', 'There is no such token.');
    const revoked = await this.store.transaction(async (tx) => {
      if (!(await personalTokens(tx, this.officeId).revoke(id, at))) return false;
      await auditTrail(tx, this.officeId, this.store.dialect).append({
        at,
        ...this.#audit(actor),
        action: 'personal_token.revoked',
        target_type: 'personal_token',
        target_id: id,
        details: { staff: row.staff_username, name: row.name },
      });
      return true;
    });
    if (!revoked) return refusal('already_revoked', 'That token was already revoked.');
    return success(tokenView({ ...row, revoked_at: at }, at));
  }

  /**
   * The staff member a token stands for, or undefined: unknown, malformed, expired, revoked, or its
   * account disabled. Looked up by its SHA-256, so the database never sees the token; the stored hash
   * is compared again in constant time so that nothing depends on how the index matched.
   */
  async authenticate(token: string): Promise<StaffPrincipal | undefined> {
    if (!PAT_PATTERN.test(token)) return undefined;
    const hash = sha256Hex(token);
    const repo = personalTokens(this.store.db, this.officeId);
    const row = await repo.findByHash(hash);
    if (!row || !secretsEqual(hash, row.token_hash)) return undefined;
    const now = this.clock();
    if (row.revoked_at !== null || row.expires_at <= now.toISOString()) return undefined;
    const account = await staffAccounts(this.store.db, this.officeId).findActive(row.staff_username);
    if (!account) return undefined;
    await repo.touch(
      row.id,
      now.toISOString(),
      new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString(),
    );
    return {
      kind: 'staff',
      username: account.username,
      displayName: account.display_name,
      role: account.role,
      via: 'pat',
      credentialId: row.id,
      clientId: `pat:${row.id}`,
      scopes: [GATEWAY_SCOPE],
    };
  }
}
