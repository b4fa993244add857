import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { callTool, connectClient, startTestServer, type TestServer } from '../support/server.js';
import { browserSkipReason, launchBrowser } from './browser.js';
import { DESK_SETTINGS, DeskClient, holdArgs, openSlots, STAFF } from './support.js';

const XSS_NAME = '<img src=x onerror="window.pwned=1">Mallory';
const XSS_NOTES = '</blockquote><script>window.pwned=2</script><b onmouseover="window.pwned=3">notes</b>';

describe.skipIf(browserSkipReason !== undefined)('staff desk in a real browser', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  for (const [index, dialect] of DIALECTS.entries()) {
    // Layout and the sign-in form's lockout do not depend on the database (the throttle itself is
    // tested on every database over HTTP), so they run once, on the first database.
    const once = index === 0;
    describe.skipIf(dialect.skipReason !== undefined)(`on ${dialect.name}`, () => {
      let server: TestServer;
      let mcp: Client;
      const contexts: BrowserContext[] = [];
      const slots = openSlots();
      /** The desk signed in by the first test, kept open for the others (as staff keep it all day). */
      let desk: Page;

      beforeAll(async () => {
        server = await startTestServer(dialect, DESK_SETTINGS);
        mcp = await connectClient(server.mcpUrl);
      });

      afterAll(async () => {
        for (const context of contexts) await context.close();
        await mcp.close();
        await server.dispose();
      });

      /** A fresh browser profile (its own cookies) with a page, failing the test on any dialog. */
      async function newPage(viewport = { width: 1280, height: 800 }): Promise<Page> {
        const context = await browser.newContext({ viewport });
        contexts.push(context);
        const page = await context.newPage();
        page.on('dialog', (dialog) => {
          throw new Error(`unexpected dialog: ${dialog.message()}`);
        });
        return page;
      }

      async function book(overrides: Record<string, unknown> = {}) {
        const placed = await callTool(mcp, 'book_appointment', {
          ...holdArgs(slots.next().value),
          ...overrides,
        });
        expect(placed.ok).toBe(true);
        return placed.appointment_id as string;
      }

      it('signs in with the keyboard alone', async () => {
        const page = await newPage();
        await page.goto(`${server.url}/desk`);
        expect(new URL(page.url()).pathname).toBe('/desk/login');
        await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('username');
        await page.keyboard.type(STAFF.username);
        await page.keyboard.press('Tab');
        await page.keyboard.type(STAFF.password);
        await page.keyboard.press('Enter');
        await page.waitForURL(`${server.url}/desk`);
        await expect.poll(() => page.locator('h1').textContent()).toContain('Waiting for a decision');
        expect(await page.locator('.who').textContent()).toContain(STAFF.name);
        await page.locator('#live-state[data-state="live"]').waitFor();
        desk = page;
      });

      it('shows a hold made over MCP on every open desk within a second; approving it confirms it', async () => {
        const first = desk;
        // A second tab of the same signed-in browser: its own page and its own live connection.
        const second = await desk.context().newPage();
        await second.goto(`${server.url}/desk`);
        await second.locator('#live-state[data-state="live"]').waitFor();

        const started = Date.now();
        const appointmentId = await book({ client_name: 'Dana Live', notes: 'First visit' });
        const card = (page: Page) => page.locator('li.card', { hasText: 'Dana Live' });
        await Promise.all([card(first).waitFor({ timeout: 1000 }), card(second).waitFor({ timeout: 1000 })]);
        expect(Date.now() - started).toBeLessThan(1000);
        expect(await first.locator('[data-queue-count]').textContent()).toBe('1');

        await card(first).getByLabel('Note for the record (optional)').fill('Confirmed by phone');
        await card(first)
          .getByRole('button', { name: /^Approve: Dana Live/ })
          .click();
        await card(first).waitFor({ state: 'detached' });
        await expect.poll(() => first.locator('#announcer').textContent()).toContain('Dana Live');
        // The other desk hears about it and drops the card too.
        await card(second).waitFor({ state: 'detached', timeout: 2000 });
        await second.close();

        const status = await callTool(mcp, 'get_appointment_status', {
          appointment_id: appointmentId,
          contact: '0199',
        });
        expect(status).toMatchObject({ ok: true, status: 'confirmed' });
        const script = await DeskClient.signIn(server.url);
        const csv = await (
          await script.fetch(`/desk/audit.csv?target=${appointmentId}&action=hold.approved`)
        ).text();
        expect(csv).toContain(`,staff,staff,Front desk,hold.approved,appointment,${appointmentId},`);
        expect(csv).toContain('Confirmed by phone');
      });

      it('rejects a cancellation with the keyboard: the appointment stays booked', async () => {
        const page = desk;
        const appointmentId = await book({ client_name: 'Kim Keeps' });
        const hold = page.locator('li.card.kind-hold', { hasText: 'Kim Keeps' });
        await hold.waitFor({ timeout: 1000 });
        await hold.getByRole('button', { name: /^Approve: Kim Keeps/ }).click();
        await hold.waitFor({ state: 'detached' });

        await callTool(mcp, 'cancel_appointment', {
          appointment_id: appointmentId,
          contact: '(312) 555-0199',
          reason: 'Changed my mind',
        });
        const cancellation = page.locator('li.card.kind-cancellation', { hasText: 'Kim Keeps' });
        await cancellation.waitFor({ timeout: 1000 });
        expect(await cancellation.locator('blockquote').textContent()).toBe('Changed my mind');
        const keep = cancellation.getByRole('button', { name: /^Keep appointment: Kim Keeps/ });
        for (let i = 0; i < 40 && !(await keep.evaluate((el) => el === document.activeElement)); i++) {
          await page.keyboard.press('Tab');
        }
        await expect.poll(() => keep.evaluate((el) => el === document.activeElement)).toBe(true);
        await page.keyboard.press('Enter');
        await cancellation.waitFor({ state: 'detached' });
        const status = await callTool(mcp, 'get_appointment_status', {
          appointment_id: appointmentId,
          contact: '0199',
        });
        expect(status.status).toBe('confirmed');
      });

      it('shows a hostile caller name and notes as text and never runs them', async () => {
        const page = desk;
        const violations: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') violations.push(message.text());
        });
        await book({ client_name: XSS_NAME, notes: XSS_NOTES });
        const card = page.locator('li.card', { hasText: 'Mallory' });
        await card.waitFor({ timeout: 1000 });
        expect(await card.locator('h3').textContent()).toBe(XSS_NAME);
        expect(await card.locator('blockquote').textContent()).toBe(XSS_NOTES);
        expect(await page.locator('#queue img, #queue script, #queue b').count()).toBe(0);
        await card.locator('blockquote').hover();
        expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();

        // Rendered by the server on a full load as well.
        await page.reload();
        await card.waitFor();
        expect(await card.locator('h3').textContent()).toBe(XSS_NAME);
        expect(await page.locator('#queue img, #queue script, #queue b').count()).toBe(0);
        expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
        expect(violations.filter((v) => v.includes('Content Security Policy'))).toEqual([]);
        await card.getByRole('button', { name: /^Reject:/ }).click();
        await card.waitFor({ state: 'detached' });
      });

      if (once)
        it('fits a phone-sized screen and 1280x800 without sideways scrolling', async () => {
          await book({ client_name: 'Pat Phone', notes: 'A long note '.repeat(30) });
          const page = desk;
          for (const viewport of [
            { width: 390, height: 844 },
            { width: 1280, height: 800 },
          ]) {
            await page.setViewportSize(viewport);
            for (const path of ['/desk/calendar?view=week', '/desk/audit', '/desk/admin/staff', '/desk']) {
              await page.goto(`${server.url}${path}`);
              const overflow = await page.evaluate(
                () => document.documentElement.scrollWidth - window.innerWidth,
              );
              expect(overflow, `${path} at ${viewport.width}px`).toBeLessThanOrEqual(0);
            }
          }
          await page.locator('li.card', { hasText: 'Pat Phone' }).waitFor();
        });

      if (once)
        it('locks the sign-in out after repeated failures', async () => {
          const admin = await DeskClient.signIn(server.url);
          await admin.form('/desk/admin/staff', {
            username: 'locky',
            display_name: 'Locky',
            role: 'staff',
            password: 'locky-password',
          });
          // Four failures from a script at the same address, the fifth from the page: one throttle.
          const script = new DeskClient(server.url);
          for (let i = 0; i < 4; i++) expect((await script.login('locky', `wrong ${i}`)).status).toBe(401);
          const page = await newPage();
          await page.goto(`${server.url}/desk/login`);
          const submit = async (password: string) => {
            await page.getByLabel('Username').fill('locky');
            await page.getByLabel('Password').fill(password);
            const [response] = await Promise.all([
              page.waitForResponse((r) => r.url().endsWith('/desk/login') && r.request().method() === 'POST'),
              page.getByRole('button', { name: 'Sign in' }).click(),
            ]);
            await page.waitForLoadState();
            return response.status();
          };
          expect(await submit('wrong again')).toBe(429);
          expect(await page.getByRole('alert').textContent()).toMatch(
            /Too many failed sign-ins\. Try again in \d+ seconds?\./,
          );
          // The right password is not even checked during the lockout.
          expect(await submit('locky-password')).toBe(429);
          expect(new URL(page.url()).pathname).toBe('/desk/login');
        });
    });
  }
});
