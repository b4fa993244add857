import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/commands/serve.js';
import { sha256Hex } from '../../src/auth/secrets.js';
import { openStore, type Store } from '../../src/store/store.js';
import { DIALECTS } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { cookieFrom, DESK_SETTINGS, DeskClient, STAFF, startInstanceOn } from './support.js';

const PAGES = ['/desk', '/desk/calendar', '/desk/audit', '/desk/audit.csv', '/desk/admin/staff'];

/** The hidden double-submit token of a sign-in page. */
function loginToken(html: string): string {
  return /name="csrf_token" value="([^"]+)"/.exec(html)![1]!;
}

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason !== undefined)(`staff desk sign-in over HTTP on ${dialect.name}`, () => {
    let server: TestServer;
    let store: Store;

    beforeAll(async () => {
      server = await startTestServer(dialect, DESK_SETTINGS);
      store = await openStore(server.database.target);
    });

    afterAll(async () => {
      await store.close();
      await server.dispose();
    });

    describe('session cookie', () => {
      it('is an opaque id, HttpOnly, SameSite=Strict, Path=/desk, 8 hours, not Secure over http', async () => {
        const client = new DeskClient(server.url);
        const response = await client.login(STAFF.username, STAFF.password);
        expect(response.status).toBe(200);
        const cookie = cookieFrom(response, 'holddesk_desk')!;
        expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(cookie.attributes).toEqual(
          expect.arrayContaining(['Max-Age=28800', 'Path=/desk', 'HttpOnly', 'SameSite=Strict']),
        );
        expect(cookie.attributes).not.toContain('Secure');
      });

      it('is stored only as its SHA-256', async () => {
        const client = await DeskClient.signIn(server.url);
        const id = client.cookie.split('=')[1]!;
        const rows = await store.db.selectFrom('desk_sessions').selectAll().execute();
        expect(rows.map((r) => r.id_hash)).toContain(sha256Hex(id));
        expect(JSON.stringify(rows)).not.toContain(id);
      });

      it('gets a fresh id at every sign-in', async () => {
        const first = await DeskClient.signIn(server.url);
        const second = await DeskClient.signIn(server.url);
        expect(first.cookie).not.toBe(second.cookie);
        expect(first.csrf).not.toBe(second.csrf);
      });
    });

    describe('GET /desk/api/session', () => {
      it('says who is signed in and returns the CSRF token', async () => {
        const client = await DeskClient.signIn(server.url);
        const response = await client.fetch('/desk/api/session');
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({
          staff: { username: 'staff', display_name: STAFF.name, role: 'admin' },
          csrf_token: client.csrf,
        });
      });
    });

    describe('without a session', () => {
      it.each([
        ['GET', '/desk/api/session'],
        ['GET', '/desk/api/approvals'],
        ['POST', '/desk/api/approvals/REQ-AAAAAA/decision'],
        ['GET', '/desk/api/events'],
        ['POST', '/desk/api/logout'],
        ['GET', '/desk/partials/queue'],
      ])('%s %s answers 401', async (method, path) => {
        for (const cookie of ['', 'holddesk_desk=not-a-session', `holddesk_desk=${'A'.repeat(43)}`]) {
          const response = await fetch(`${server.url}${path}`, {
            method,
            headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': 'x' },
            ...(method === 'POST' ? { body: '{"decision":"approve"}' } : {}),
          });
          expect(response.status, `${path} with "${cookie}"`).toBe(401);
          expect(await response.json()).toMatchObject({ error: 'unauthorized' });
        }
      });

      it.each(PAGES)('the page %s sends people to sign in', async (path) => {
        const response = await fetch(`${server.url}${path}`, { redirect: 'manual' });
        expect(response.status).toBe(303);
        expect(response.headers.get('location')).toBe('/desk/login');
      });
    });

    describe('POST /desk/api/login', () => {
      it('refuses a wrong password and an unknown user alike', async () => {
        const client = new DeskClient(server.url);
        const wrong = await client.login(STAFF.username, 'not the password');
        const unknown = await client.login('nobody-here', 'not the password');
        expect(wrong.status).toBe(401);
        expect(unknown.status).toBe(401);
        expect(await wrong.json()).toEqual(await unknown.json());
        expect(cookieFrom(wrong, 'holddesk_desk')).toBeUndefined();
      });

      it('accepts the username in any case', async () => {
        const response = await new DeskClient(server.url).login('  STAFF ', STAFF.password);
        expect(response.status).toBe(200);
      });

      it('needs JSON, well-formed credentials and no foreign Origin', async () => {
        const form = await fetch(`${server.url}/desk/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `username=staff&password=${encodeURIComponent(STAFF.password)}`,
        });
        expect(form.status).toBe(415);
        const malformed = await fetch(`${server.url}/desk/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"username": 5}',
        });
        expect(malformed.status).toBe(400);
        const foreign = await new DeskClient(server.url).login(STAFF.username, STAFF.password, {
          origin: 'https://evil.example',
        });
        expect(foreign.status).toBe(403);
        expect(cookieFrom(foreign, 'holddesk_desk')).toBeUndefined();
      });
    });

    describe('the sign-in form', () => {
      it('needs the double-submit token from its own cookie', async () => {
        const page = await fetch(`${server.url}/desk/login`);
        expect(page.status).toBe(200);
        const token = loginToken(await page.text());
        const cookie = cookieFrom(page, 'holddesk_desk_login')!;
        expect(cookie.value).toBe(token);
        expect(cookie.attributes).toEqual(
          expect.arrayContaining(['Path=/desk', 'HttpOnly', 'SameSite=Strict']),
        );

        const post = (cookieHeader: string, field: string) =>
          fetch(`${server.url}/desk/login`, {
            method: 'POST',
            redirect: 'manual',
            headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader },
            body: new URLSearchParams({
              csrf_token: field,
              username: 'staff',
              password: STAFF.password,
            }).toString(),
          });
        const noCookie = await post('', token);
        expect(noCookie.status).toBe(403);
        expect(cookieFrom(noCookie, 'holddesk_desk')).toBeUndefined();
        const mismatch = await post(`holddesk_desk_login=${token}`, `${token.slice(0, -1)}x`);
        expect(mismatch.status).toBe(403);
        const noField = await post(`holddesk_desk_login=${token}`, '');
        expect(noField.status).toBe(403);

        const ok = await post(`holddesk_desk_login=${token}`, token);
        expect(ok.status).toBe(303);
        expect(ok.headers.get('location')).toBe('/desk');
        expect(cookieFrom(ok, 'holddesk_desk')?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
        // The login token is spent.
        expect(cookieFrom(ok, 'holddesk_desk_login')?.attributes).toContain('Max-Age=0');
      });

      it('says so, and sets nothing, when the password is wrong', async () => {
        const page = await fetch(`${server.url}/desk/login`);
        const token = loginToken(await page.text());
        const response = await fetch(`${server.url}/desk/login`, {
          method: 'POST',
          redirect: 'manual',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            cookie: `holddesk_desk_login=${token}`,
          },
          body: new URLSearchParams({
            csrf_token: token,
            username: 'staff',
            password: 'wrong password',
          }).toString(),
        });
        expect(response.status).toBe(401);
        expect(await response.text()).toContain('Wrong username or password.');
        expect(cookieFrom(response, 'holddesk_desk')).toBeUndefined();
      });
    });

    describe('signing out', () => {
      it('needs the CSRF token, then ends the session everywhere', async () => {
        const client = await DeskClient.signIn(server.url);
        const forged = await client.fetch('/desk/api/logout', { method: 'POST' });
        expect(forged.status).toBe(403);
        expect((await client.fetch('/desk/api/session')).status).toBe(200);
        const out = await client.fetch('/desk/api/logout', {
          method: 'POST',
          headers: { 'x-csrf-token': client.csrf },
        });
        expect(out.status).toBe(200);
        expect(cookieFrom(out, 'holddesk_desk')?.attributes).toContain('Max-Age=0');
        expect((await client.fetch('/desk/api/session')).status).toBe(401);
      });

      it('from the page form, too', async () => {
        const client = await DeskClient.signIn(server.url);
        expect((await client.form('/desk/logout', { csrf_token: 'forged' })).status).toBe(403);
        const out = await client.form('/desk/logout', {});
        expect(out.status).toBe(303);
        expect(out.headers.get('location')).toBe('/desk/login');
        expect((await client.fetch('/desk/api/session')).status).toBe(401);
      });
    });

    describe('failed-login throttling', () => {
      it('locks a username out after five failures, without checking the password meanwhile', async () => {
        const admin = await DeskClient.signIn(server.url);
        const added = await admin.form('/desk/admin/staff', {
          username: 'lockme',
          display_name: 'Lock Me',
          role: 'staff',
          password: 'lockme-password',
        });
        expect(added.status).toBe(200);

        const client = new DeskClient(server.url);
        const statuses: number[] = [];
        for (let i = 0; i < 5; i++) statuses.push((await client.login('lockme', `guess ${i}`)).status);
        expect(statuses).toEqual([401, 401, 401, 401, 429]);

        const locked = await client.login('lockme', 'lockme-password');
        expect(locked.status).toBe(429);
        const retryAfter = Number(locked.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(30);
        expect(await locked.json()).toMatchObject({ error: 'too_many_attempts', retry_after: retryAfter });
        expect(cookieFrom(locked, 'holddesk_desk')).toBeUndefined();

        // The form says so too, and other usernames from the same address are unaffected.
        const page = await fetch(`${server.url}/desk/login`);
        const token = loginToken(await page.text());
        const form = await fetch(`${server.url}/desk/login`, {
          method: 'POST',
          redirect: 'manual',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            cookie: `holddesk_desk_login=${token}`,
          },
          body: new URLSearchParams({
            csrf_token: token,
            username: 'lockme',
            password: 'lockme-password',
          }).toString(),
        });
        expect(form.status).toBe(429);
        expect(form.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(await form.text()).toContain('Too many failed sign-ins');
        expect((await new DeskClient(server.url).login(STAFF.username, STAFF.password)).status).toBe(200);
      });
    });

    describe('framing and content policy', () => {
      it('refuses every frame by default, on pages, the API and assets', async () => {
        const client = await DeskClient.signIn(server.url);
        const login = await fetch(`${server.url}/desk/login`);
        const styleUrl = /href="(\/desk\/assets\/desk\.css[^"]*)"/.exec(await login.text())![1]!;
        for (const response of [
          login,
          await client.fetch('/desk'),
          await client.fetch('/desk/api/approvals'),
          await fetch(`${server.url}/desk/api/session`),
          await fetch(`${server.url}${styleUrl}`),
        ]) {
          const csp = response.headers.get('content-security-policy')!;
          expect(csp).toContain("frame-ancestors 'none'");
          expect(csp).toContain("script-src 'self'");
          expect(csp).not.toContain('unsafe-inline');
          expect(response.headers.get('x-frame-options')).toBe('DENY');
          expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        }
      });

      it('names only the configured ancestors, and Secure cookies behind an https public URL', async () => {
        let other: RunningServer | undefined;
        try {
          other = await startInstanceOn(server.database, {
            deskFrameAncestors: 'http://127.0.0.1:8650, https://sim.example.com',
            publicUrl: 'https://desk.example.com',
          });
          const page = await fetch(`${other.url}/desk/login`);
          expect(page.headers.get('content-security-policy')).toContain(
            'frame-ancestors http://127.0.0.1:8650 https://sim.example.com',
          );
          expect(page.headers.get('x-frame-options')).toBeNull();
          const response = await new DeskClient(other.url).login(STAFF.username, STAFF.password, {
            origin: 'https://desk.example.com',
          });
          expect(response.status).toBe(200);
          expect(cookieFrom(response, 'holddesk_desk')?.attributes).toContain('Secure');
        } finally {
          await other?.close();
        }
      });
    });
  });
}
