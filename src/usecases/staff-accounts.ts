import { randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { refusal, success, type Result } from '../core/result.js';
import {
  checkDisable,
  checkDisplayName,
  checkPassword,
  checkRole,
  checkUsername,
  normaliseUsername,
  type AccountRefusalCode,
  type StaffRole,
} from '../core/staff-accounts.js';
import { deskSessions } from '../store/desk-sessions.js';
import { staffAccounts, type StaffRecord } from '../store/staff.js';
import { isUniqueViolation, type Executor } from '../store/store.js';
import type { StaffActor } from './approval-desk.js';
import { repositories, type UseCaseContext } from './context.js';

/** An account as shown to people: never its password hash. */
export interface StaffAccountView {
  readonly username: string;
  readonly display_name: string;
  readonly role: StaffRole;
  readonly created_at: string;
  readonly disabled_at: string | null;
}

/**
 * Who changes accounts, for the audit trail: a signed-in admin, or the operator at the command line
 * or through the start-up configuration.
 */
export type AccountActor =
  | { readonly kind: 'staff'; readonly staff: StaffActor }
  | { readonly kind: 'system'; readonly id: 'command-line' | 'start-up' };

export interface NewAccount {
  readonly username: string;
  readonly displayName: string;
  readonly role: string;
  /** Unset: a random one is generated and returned once. */
  readonly password?: string | undefined;
}

/** A random password of 24 URL-safe characters (144 bits), for people to copy once. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

function toView(record: StaffRecord): StaffAccountView {
  return {
    username: record.username,
    display_name: record.display_name,
    role: record.role,
    created_at: record.created_at,
    disabled_at: record.disabled_at,
  };
}

/**
 * Staff accounts: sign-in checks, and what admins (on the desk) and operators (on the command line)
 * may do to accounts. Every change is on the audit trail, never with a password in it.
 */
export class StaffAccounts {
  constructor(private readonly ctx: UseCaseContext) {}

  private repo(db: Executor = this.ctx.store.db) {
    const officeId = this.ctx.data.office.id;
    return {
      accounts: staffAccounts(db, officeId),
      sessions: deskSessions(db, officeId),
      audit: repositories(this.ctx, db).audit,
    };
  }

  private async record(
    db: Executor,
    actor: AccountActor,
    action: string,
    username: string,
    details: Record<string, string>,
  ): Promise<void> {
    await this.repo(db).audit.append({
      at: this.ctx.clock().toISOString(),
      actor_kind: actor.kind,
      actor_id: actor.kind === 'staff' ? actor.staff.account : actor.id,
      actor_name: actor.kind === 'staff' ? actor.staff.name : null,
      action,
      target_type: 'staff_account',
      target_id: username,
      details,
    });
  }

  async list(): Promise<StaffAccountView[]> {
    return (await this.repo().accounts.list()).map(toView);
  }

  async find(username: string): Promise<StaffAccountView | undefined> {
    const record = await this.repo().accounts.find(normaliseUsername(username));
    return record ? toView(record) : undefined;
  }

  /**
   * The active account whose password this is. An unknown or disabled account costs the same
   * key derivation as a wrong password, so response times do not reveal which usernames exist.
   */
  async authenticate(username: string, password: string): Promise<StaffAccountView | undefined> {
    const record = await this.repo().accounts.findActive(normaliseUsername(username));
    const ok = await verifyPassword(password, record?.password_hash);
    return ok && record ? toView(record) : undefined;
  }

  async add(
    input: NewAccount,
    actor: AccountActor,
  ): Promise<
    Result<{ account: StaffAccountView; generatedPassword?: string }, AccountRefusalCode | 'exists'>
  > {
    const username = checkUsername(input.username);
    if (!username.ok) return username;
    const displayName = checkDisplayName(input.displayName);
    if (!displayName.ok) return displayName;
    const role = checkRole(input.role);
    if (!role.ok) return role;
    const generated = input.password === undefined || input.password === '' ? generatePassword() : undefined;
    const password = checkPassword(generated ?? input.password!);
    if (!password.ok) return password;
    if (await this.repo().accounts.find(username.value)) {
      return refusal('exists', 'There is already an account with that username.');
    }
    const record: StaffRecord = {
      office_id: this.ctx.data.office.id,
      username: username.value,
      display_name: displayName.value,
      role: role.value,
      password_hash: await hashPassword(password.value),
      created_at: this.ctx.clock().toISOString(),
      disabled_at: null,
    };
    try {
      await this.ctx.store.transaction(async (tx) => {
        const { office_id: _office, ...columns } = record;
        await this.repo(tx).accounts.insert(columns);
        await this.record(tx, actor, 'staff.added', record.username, {
          display_name: record.display_name,
          role: record.role,
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        return refusal('exists', 'There is already an account with that username.');
      }
      throw error;
    }
    return success({
      account: toView(record),
      ...(generated === undefined ? {} : { generatedPassword: generated }),
    });
  }

  /** Disables an account and signs it out everywhere; the last active admin stays. */
  async disable(
    username: string,
    actor: AccountActor,
  ): Promise<Result<StaffAccountView, 'not_found' | 'already_disabled' | 'last_admin'>> {
    const name = normaliseUsername(username);
    const at = this.ctx.clock().toISOString();
    return this.ctx.store.transaction(async (tx) => {
      const repo = this.repo(tx);
      const accounts = await repo.accounts.list();
      const allowed = checkDisable(
        name,
        accounts.map((a) => ({ username: a.username, role: a.role, disabled: a.disabled_at !== null })),
      );
      if (!allowed.ok) return allowed;
      if (!(await repo.accounts.disable(name, at))) {
        return refusal('already_disabled', 'This account is already disabled.');
      }
      await repo.sessions.deleteForUser(name);
      await this.record(tx, actor, 'staff.disabled', name, {});
      const record = await repo.accounts.find(name);
      return success(toView(record!));
    });
  }

  /** Sets a new password (generated when none is given) and signs the account out everywhere. */
  async resetPassword(
    username: string,
    actor: AccountActor,
    password?: string,
  ): Promise<
    Result<{ account: StaffAccountView; generatedPassword?: string }, 'not_found' | 'invalid_password'>
  > {
    const name = normaliseUsername(username);
    const generated = password === undefined || password === '' ? generatePassword() : undefined;
    const checked = checkPassword(generated ?? password!);
    if (!checked.ok) return checked;
    if (!(await this.repo().accounts.find(name))) return refusal('not_found', 'There is no such account.');
    const hash = await hashPassword(checked.value);
    const changed = await this.ctx.store.transaction(async (tx) => {
      const repo = this.repo(tx);
      if (!(await repo.accounts.setPassword(name, hash))) return undefined;
      await repo.sessions.deleteForUser(name);
      await this.record(tx, actor, 'staff.password_reset', name, {});
      return repo.accounts.find(name);
    });
    if (!changed) return refusal('not_found', 'There is no such account.');
    return success({
      account: toView(changed),
      ...(generated === undefined ? {} : { generatedPassword: generated }),
    });
  }

  /**
   * The desk account from the configuration, at start-up: created as an admin when missing (with a
   * generated password, returned once, unless one is configured); when a password is configured it
   * is the account's password, so changing the setting and restarting changes it.
   */
  async ensureDeskAccount(settings: {
    username: string;
    password: string | undefined;
    displayName: string;
  }): Promise<{ created: boolean; generatedPassword?: string; passwordUpdated: boolean }> {
    const actor: AccountActor = { kind: 'system', id: 'start-up' };
    const existing = await this.repo().accounts.find(settings.username);
    if (!existing) {
      const added = await this.add(
        {
          username: settings.username,
          displayName: settings.displayName,
          role: 'admin',
          password: settings.password,
        },
        actor,
      );
      // Another instance starting at the same moment created it first: its password is the one.
      if (!added.ok && added.error.code === 'exists') return { created: false, passwordUpdated: false };
      if (!added.ok) throw new Error(`cannot create the desk account: ${added.error.message}`);
      return {
        created: true,
        passwordUpdated: false,
        ...(added.value.generatedPassword === undefined
          ? {}
          : { generatedPassword: added.value.generatedPassword }),
      };
    }
    if (settings.password === undefined) return { created: false, passwordUpdated: false };
    if (await verifyPassword(settings.password, existing.password_hash)) {
      return { created: false, passwordUpdated: false };
    }
    const reset = await this.resetPassword(settings.username, actor, settings.password);
    return { created: false, passwordUpdated: reset.ok };
  }
}
