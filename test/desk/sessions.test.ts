import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginThrottle } from '../../src/auth/login-throttle.js';
import { parseConfig } from '../../src/config.js';
import { LocalChanges } from '../../src/desk/changes/feed.js';
import { createDesk, type Desk } from '../../src/desk/desk-app.js';
import { createLogger } from '../../src/logger.js';
import type { Store } from '../../src/store/store.js';
import { createContext } from '../../src/usecases/context.js';
import { StaffAccounts } from '../../src/usecases/staff-accounts.js';
import { createTestStore, DIALECTS } from '../support/databases.js';
import { bundledOfficeData, DEMO_NOW } from '../support/office.js';
import { cookieFrom, EventReader, STAFF } from './support.js';

const HOUR = 3_600_000;

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason !== undefined)(`desk sessions in-process on ${dialect.name}`, () => {
    let store: Store;
    let dispose: () => Promise<void>;
    let desk: Desk;
    let accounts: StaffAccounts;
    let now: Date;

    beforeAll(async () => {
      ({ store, dispose } = await createTestStore(dialect));
      now = new Date('2030-01-01T08:00:00Z');
      const data = await bundledOfficeData();
      // The office clock is frozen (a demo); sessions follow the real (here: movable) clock.
      const ctx = createContext(data, store, () => DEMO_NOW);
      accounts = new StaffAccounts(ctx);
      desk = await createDesk({
        ctx,
        config: parseConfig({ deskPassword: STAFF.password, logLevel: 'silent' }),
        changes: new LocalChanges(),
        throttle: new LoginThrottle(store),
        logger: createLogger({ logLevel: 'silent' }),
        securityClock: () => now,
        heartbeatMs: 30,
      });
    });

    afterAll(() => dispose());

    /** Signs in without a socket: the throttle keys on "unknown" then. */
    async function signIn(username: string = STAFF.username, password: string = STAFF.password) {
      const response = await desk.app.request('/api/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      expect(response.status).toBe(200);
      return { cookie: `holddesk_desk=${cookieFrom(response, 'holddesk_desk')!.value}` };
    }

    const session = (cookie: string) => desk.app.request('/api/session', { headers: { cookie } });

    it('ends after 8 hours of real time, even with the office clock frozen', async () => {
      const { cookie } = await signIn();
      now = new Date(now.getTime() + 8 * HOUR - 60_000);
      expect((await session(cookie)).status).toBe(200);
      now = new Date(now.getTime() + 2 * 60_000);
      expect((await session(cookie)).status).toBe(401);
      expect((await desk.app.request('/', { headers: { cookie } })).headers.get('location')).toBe(
        '/desk/login',
      );
    });

    it('ends when the account is disabled or its password reset', async () => {
      await accounts.add(
        { username: 'temp', displayName: 'Temp', role: 'staff', password: 'temp-password' },
        { kind: 'system', id: 'command-line' },
      );
      const first = await signIn('temp', 'temp-password');
      await accounts.resetPassword('temp', { kind: 'system', id: 'command-line' }, 'another-password');
      expect((await session(first.cookie)).status).toBe(401);
      const second = await signIn('temp', 'another-password');
      expect((await session(second.cookie)).status).toBe(200);
      await accounts.disable('temp', { kind: 'system', id: 'command-line' });
      expect((await session(second.cookie)).status).toBe(401);
      const refused = await desk.app.request('/api/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'temp', password: 'another-password' }),
      });
      expect(refused.status).toBe(401);
    });

    it('stops a live stream soon after its session ends', async () => {
      const { cookie } = await signIn();
      const response = await desk.app.request('/api/events', { headers: { cookie } });
      expect(response.status).toBe(200);
      const events = new EventReader(response);
      await events.next((e) => e.event === 'ready');
      const csrf = ((await (await session(cookie)).json()) as { csrf_token: string }).csrf_token;
      const out = await desk.app.request('/api/logout', {
        method: 'POST',
        headers: { cookie, 'x-csrf-token': csrf },
      });
      expect(out.status).toBe(200);
      await events.untilClosed(1000);
    });

    it('ends live streams when drained', async () => {
      const { cookie } = await signIn();
      const events = new EventReader(await desk.app.request('/api/events', { headers: { cookie } }));
      await events.next((e) => e.event === 'ready');
      desk.drain();
      await events.untilClosed(500);
    });
  });
}
