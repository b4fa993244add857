import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { createContext } from '../../src/usecases/context.js';
import { StaffAccounts } from '../../src/usecases/staff-accounts.js';
import { createTestStore, DIALECTS } from '../support/databases.js';
import { bundledOfficeData, DEMO_NOW } from '../support/office.js';

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason !== undefined)(`StaffAccounts on ${dialect.name}`, () => {
    let store: Store;
    let dispose: () => Promise<void>;
    let accounts: StaffAccounts;

    beforeAll(async () => {
      ({ store, dispose } = await createTestStore(dialect));
      accounts = new StaffAccounts(createContext(await bundledOfficeData(), store, () => DEMO_NOW));
    });

    afterAll(() => dispose());

    describe('ensureDeskAccount', () => {
      it('creates the desk account once, as an admin, with a generated password returned once', async () => {
        const settings = { username: 'desk', password: undefined, displayName: 'Front desk' };
        const [first, second] = await Promise.all([
          accounts.ensureDeskAccount(settings),
          accounts.ensureDeskAccount(settings),
        ]);
        const created = [first, second].filter((r) => r.created);
        expect(created).toHaveLength(1);
        expect(created[0]!.generatedPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
        expect([first, second].filter((r) => r.generatedPassword !== undefined)).toHaveLength(1);
        expect(await accounts.find('desk')).toMatchObject({
          role: 'admin',
          display_name: 'Front desk',
          disabled_at: null,
        });
        expect(await accounts.authenticate('desk', created[0]!.generatedPassword!)).toMatchObject({
          username: 'desk',
        });
        expect(await accounts.ensureDeskAccount(settings)).toEqual({
          created: false,
          passwordUpdated: false,
        });
      });

      it('makes a configured password the account’s password, and leaves it when unchanged', async () => {
        const settings = { username: 'front', password: 'first-password', displayName: 'Front' };
        expect(await accounts.ensureDeskAccount(settings)).toEqual({ created: true, passwordUpdated: false });
        expect(await accounts.ensureDeskAccount(settings)).toEqual({
          created: false,
          passwordUpdated: false,
        });
        expect(await accounts.ensureDeskAccount({ ...settings, password: 'second-password' })).toEqual({
          created: false,
          passwordUpdated: true,
        });
        expect(await accounts.authenticate('front', 'first-password')).toBeUndefined();
        expect(await accounts.authenticate('FRONT', 'second-password')).toMatchObject({ username: 'front' });
      });

      it('does not revive a disabled account', async () => {
        await accounts.add(
          { username: 'gone', displayName: 'Gone', role: 'admin', password: 'gone-password' },
          { kind: 'system', id: 'command-line' },
        );
        expect((await accounts.disable('gone', { kind: 'system', id: 'command-line' })).ok).toBe(true);
        await accounts.ensureDeskAccount({
          username: 'gone',
          password: 'another-password',
          displayName: 'Gone',
        });
        expect((await accounts.find('gone'))?.disabled_at).not.toBeNull();
        expect(await accounts.authenticate('gone', 'another-password')).toBeUndefined();
      });
    });

    it('refuses what no account may have', async () => {
      const actor = { kind: 'system', id: 'command-line' } as const;
      const add = (
        over: Partial<{ username: string; displayName: string; role: string; password: string }>,
      ) =>
        accounts.add(
          { username: 'valid', displayName: 'Valid', role: 'staff', password: 'valid-password', ...over },
          actor,
        );
      expect(await add({ username: 'x' })).toMatchObject({ ok: false, error: { code: 'invalid_username' } });
      expect(await add({ displayName: 'bad\u0007name' })).toMatchObject({
        ok: false,
        error: { code: 'invalid_display_name' },
      });
      expect(await add({ role: 'owner' })).toMatchObject({ ok: false, error: { code: 'invalid_role' } });
      expect(await add({ password: 'short' })).toMatchObject({
        ok: false,
        error: { code: 'invalid_password' },
      });
      expect(await accounts.resetPassword('nobody', actor, 'long-enough')).toMatchObject({
        ok: false,
        error: { code: 'not_found' },
      });
      expect(await accounts.resetPassword('desk', actor, 'short')).toMatchObject({
        ok: false,
        error: { code: 'invalid_password' },
      });
    });
  });
}
