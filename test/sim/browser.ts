import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * A real browser for the simulator page: Debian's Chromium driven by playwright-core. Suites skip
 * with this reason when it is missing, except under HOLDDESK_TEST_BROWSER_REQUIRED=1 (CI), where a
 * missing browser fails the run instead.
 */
export const CHROMIUM = '/usr/bin/chromium';

export const browserSkipReason: string | undefined =
  existsSync(CHROMIUM) || process.env.HOLDDESK_TEST_BROWSER_REQUIRED === '1'
    ? undefined
    : `${CHROMIUM} is missing, so browser tests are skipped (set HOLDDESK_TEST_BROWSER_REQUIRED=1 to fail instead)`;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu'],
  });
}

export interface JourneyLogins {
  readonly callerLogin: { readonly username: string; readonly password: string };
  readonly deskLogin: { readonly username: string; readonly password: string };
}

/** Types one utterance into the page and waits for the simulator's answer to it. */
export async function say(page: Page, text: string): Promise<void> {
  const answered = page.waitForResponse((r) => /\/api\/(utterance|link\/resume)$/.test(r.url()));
  await page.fill('#text', text);
  await page.press('#text', 'Enter');
  await answered;
}

/**
 * The whole journey through the real page: openings, a hold that needs account linking (the caller
 * signs in on HoldDesk's consent page in the popup), an office question, a price range, the pending
 * status, the staff member approving in the desk frame, and the confirmed status.
 */
export async function runBrowserJourney(page: Page, simUrl: string, logins: JourneyLogins): Promise<void> {
  await page.goto(`${simUrl}/`);
  await page.waitForSelector('body[data-ready="yes"]');

  await say(page, 'Do you have any openings for a consultation on Wednesday?');
  await page.waitForSelector('.card-slots');

  await say(page, 'Please book 10:30 for Dana Reyes, my number is 630-555-0142.');
  await page.waitForSelector('#link-dialog[open]');
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.click('#link-open')]);
  await popup.waitForSelector('#username');
  await popup.fill('#username', logins.callerLogin.username);
  await popup.fill('#password', logins.callerLogin.password);
  const resumed = page.waitForResponse((r) => r.url().endsWith('/api/link/resume'));
  await popup.click('button[value="allow"]');
  await resumed;
  await page.waitForSelector('.badge-pending_approval >> text=Pending staff approval');

  await say(page, 'What documents should I bring for a quote?');
  await page.waitForSelector('.card-faq');
  await say(
    page,
    'How much would home insurance cost for a house in Illinois built in 1995 with $350,000 of coverage?',
  );
  await page.waitForSelector('.card-quote');
  await say(page, 'Is my appointment confirmed yet?');
  await page.waitForSelector('.badge-pending_approval >> text=Pending staff approval');

  const desk = page.frameLocator('#desk');
  await desk.locator('#username').fill(logins.deskLogin.username);
  await desk.locator('#password').fill(logins.deskLogin.password);
  await desk.locator('button[type="submit"]', { hasText: 'Sign in' }).click();
  await desk.locator('button.approve', { hasText: 'Approve' }).first().click();
  await desk.locator('button.approve').first().waitFor({ state: 'detached' });

  await say(page, 'Is it confirmed now?');
  await page.waitForSelector('.badge-confirmed >> text=Confirmed by staff');
}
