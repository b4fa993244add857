import { describe, expect, it } from 'vitest';
import {
  checkDisable,
  checkDisplayName,
  checkPassword,
  checkRole,
  checkUsername,
  normaliseUsername,
} from '../../src/core/staff-accounts.js';

describe('staff account rules', () => {
  it('normalises usernames to lower case and checks their shape', () => {
    expect(normaliseUsername('  Maria.Chen ')).toBe('maria.chen');
    expect(checkUsername(' Maria_1 ')).toEqual({ ok: true, value: 'maria_1' });
    for (const bad of ['m', '-maria', 'maria chen', 'märia', 'a'.repeat(33), '']) {
      expect(checkUsername(bad), bad).toMatchObject({ ok: false, error: { code: 'invalid_username' } });
    }
  });

  it('wants passwords of 8 to 256 characters', () => {
    expect(checkPassword('12345678').ok).toBe(true);
    expect(checkPassword('1234567')).toMatchObject({ ok: false, error: { code: 'invalid_password' } });
    expect(checkPassword('x'.repeat(257)).ok).toBe(false);
    expect(checkPassword('x'.repeat(256)).ok).toBe(true);
  });

  it('trims display names and refuses empty, long or control-character names', () => {
    expect(checkDisplayName('  Maria Chen ')).toEqual({ ok: true, value: 'Maria Chen' });
    for (const bad of ['  ', 'x'.repeat(81), 'tab\there', 'bell\u0007', 'c1\u0085']) {
      expect(checkDisplayName(bad).ok, JSON.stringify(bad)).toBe(false);
    }
    expect(checkDisplayName('Zoë O’Brien — 日本').ok).toBe(true);
  });

  it('knows two roles', () => {
    expect(checkRole(' admin ')).toEqual({ ok: true, value: 'admin' });
    expect(checkRole('staff')).toEqual({ ok: true, value: 'staff' });
    expect(checkRole('root')).toMatchObject({ ok: false, error: { code: 'invalid_role' } });
  });

  describe('disabling', () => {
    const accounts = [
      { username: 'ada', role: 'admin' as const, disabled: false },
      { username: 'bo', role: 'staff' as const, disabled: false },
      { username: 'cy', role: 'admin' as const, disabled: true },
    ];

    it('keeps the last active admin', () => {
      expect(checkDisable('ada', accounts)).toMatchObject({ ok: false, error: { code: 'last_admin' } });
      const twoAdmins = [...accounts, { username: 'di', role: 'admin' as const, disabled: false }];
      expect(checkDisable('ada', twoAdmins)).toMatchObject({ ok: true, value: { username: 'ada' } });
    });

    it('disables staff, and refuses unknown or already disabled accounts', () => {
      expect(checkDisable('bo', accounts).ok).toBe(true);
      expect(checkDisable('cy', accounts)).toMatchObject({ ok: false, error: { code: 'already_disabled' } });
      expect(checkDisable('zed', accounts)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    });
  });
});
