import { refusal, success, type Result } from './result.js';

/**
 * Who may sign in to the desk and what makes an account acceptable. Admins manage accounts; every
 * active account, admin or staff, may decide requests.
 */
export const STAFF_ROLES = ['admin', 'staff'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Lower-case letters, digits, `.`, `_`, `-`; starts with a letter or digit; 2 to 32 characters. */
export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9._-]{1,31}$/;
/** NIST SP 800-63B §5.1.1.2: at least 8 characters; a cap keeps hashing cost bounded. */
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;
export const MAX_DISPLAY_NAME_LENGTH = 80;

export type AccountRefusalCode =
  | 'invalid_username'
  | 'invalid_password'
  | 'invalid_display_name'
  | 'invalid_role'
  | 'not_found'
  | 'already_disabled'
  | 'last_admin';

/** Usernames compare case-insensitively: the account is stored and looked up in lower case. */
export function normaliseUsername(raw: string): string {
  return raw.trim().toLowerCase();
}

export function checkUsername(raw: string): Result<string, 'invalid_username'> {
  const username = normaliseUsername(raw);
  if (USERNAME_PATTERN.test(username)) return success(username);
  return refusal(
    'invalid_username',
    'Use 2 to 32 lower-case letters, digits, dots, dashes or underscores, starting with a letter or digit.',
  );
}

export function checkPassword(password: string): Result<string, 'invalid_password'> {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    return refusal(
      'invalid_password',
      `Use a password of ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters.`,
    );
  }
  return success(password);
}

/** Control characters would corrupt the audit trail's CSV export and confuse screen readers. */
function hasControlCharacter(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

export function checkDisplayName(raw: string): Result<string, 'invalid_display_name'> {
  const name = raw.trim();
  if (name === '' || name.length > MAX_DISPLAY_NAME_LENGTH || hasControlCharacter(name)) {
    return refusal(
      'invalid_display_name',
      `Use a display name of 1 to ${MAX_DISPLAY_NAME_LENGTH} characters, without control characters.`,
    );
  }
  return success(name);
}

export function checkRole(raw: string): Result<StaffRole, 'invalid_role'> {
  const role = STAFF_ROLES.find((r) => r === raw.trim());
  return role ? success(role) : refusal('invalid_role', 'The role must be admin or staff.');
}

export interface AccountSummary {
  readonly username: string;
  readonly role: StaffRole;
  readonly disabled: boolean;
}

/**
 * Whether `username` may be disabled. The last active admin may not: nobody could manage accounts
 * afterwards, and the desk would need a command line to recover.
 */
export function checkDisable(
  username: string,
  accounts: readonly AccountSummary[],
): Result<AccountSummary, 'not_found' | 'already_disabled' | 'last_admin'> {
  const target = accounts.find((a) => a.username === username);
  if (!target) return refusal('not_found', 'There is no such account.');
  if (target.disabled) return refusal('already_disabled', 'This account is already disabled.');
  const activeAdmins = accounts.filter((a) => a.role === 'admin' && !a.disabled);
  if (target.role === 'admin' && activeAdmins.length === 1) {
    return refusal('last_admin', 'This is the last active admin account; add another admin first.');
  }
  return success(target);
}
