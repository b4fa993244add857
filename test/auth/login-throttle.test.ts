import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoginThrottle, THROTTLE } from '../../src/auth/login-throttle.js';
import type { Store } from '../../src/store/store.js';
import { createTestStore, DIALECTS } from '../support/databases.js';

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason !== undefined)(`login throttle on ${dialect.name}`, () => {
    let store: Store;
    let dispose: () => Promise<void>;

    beforeEach(async () => {
      ({ store, dispose } = await createTestStore(dialect));
    });

    afterEach(async () => {
      await dispose();
    });

    it('allows attempts until the fifth failure of one IP and username, then locks that pair out', async () => {
      const throttle = new LoginThrottle(store);
      for (let i = 0; i < THROTTLE.pairFailures - 1; i++) {
        await throttle.recordFailure('10.0.0.1', 'staff');
        expect(await throttle.check('10.0.0.1', 'staff')).toEqual({ allowed: true });
      }
      await throttle.recordFailure('10.0.0.1', 'staff');
      const verdict = await throttle.check('10.0.0.1', 'staff');
      expect(verdict.allowed).toBe(false);
      expect(!verdict.allowed && verdict.retryAfterSeconds).toBeGreaterThan(25);
      expect(!verdict.allowed && verdict.retryAfterSeconds).toBeLessThanOrEqual(THROTTLE.firstLockoutSeconds);
      expect(await throttle.check('10.0.0.2', 'staff')).toEqual({ allowed: true });
      expect(await throttle.check('10.0.0.1', 'other')).toEqual({ allowed: true });
    });

    it('doubles the lockout each time it is earned again', async () => {
      const throttle = new LoginThrottle(store);
      for (let i = 0; i < THROTTLE.pairFailures; i++) await throttle.recordFailure('10.0.0.1', 'staff');
      await throttle.recordFailure('10.0.0.1', 'staff');
      const verdict = await throttle.check('10.0.0.1', 'staff');
      expect(!verdict.allowed && verdict.retryAfterSeconds).toBeGreaterThan(THROTTLE.firstLockoutSeconds);
    });

    it('treats usernames case-insensitively', async () => {
      const throttle = new LoginThrottle(store);
      for (let i = 0; i < THROTTLE.pairFailures; i++)
        await throttle.recordFailure('10.0.0.1', i % 2 ? 'Staff' : 'staff');
      expect((await throttle.check('10.0.0.1', 'STAFF')).allowed).toBe(false);
    });

    it('locks an IP out across usernames after twenty failures', async () => {
      const throttle = new LoginThrottle(store);
      for (let i = 0; i <= THROTTLE.ipFailures; i++) await throttle.recordFailure('10.0.0.9', `user${i}`);
      expect((await throttle.check('10.0.0.9', 'someone-new')).allowed).toBe(false);
      expect((await throttle.check('10.0.0.8', 'someone-new')).allowed).toBe(true);
    });

    it('clears a pair’s failures on success', async () => {
      const throttle = new LoginThrottle(store);
      for (let i = 0; i < THROTTLE.pairFailures - 1; i++) await throttle.recordFailure('10.0.0.1', 'staff');
      await throttle.recordSuccess('10.0.0.1', 'staff');
      await throttle.recordFailure('10.0.0.1', 'staff');
      expect(await throttle.check('10.0.0.1', 'staff')).toEqual({ allowed: true });
    });

    it('counts the same failures from every instance on one database', async () => {
      const a = new LoginThrottle(store);
      const b = new LoginThrottle(store);
      for (let i = 0; i < THROTTLE.pairFailures; i++)
        await (i % 2 ? a : b).recordFailure('10.0.0.1', 'staff');
      expect((await a.check('10.0.0.1', 'staff')).allowed).toBe(false);
      expect((await b.check('10.0.0.1', 'staff')).allowed).toBe(false);
    });
  });
}
