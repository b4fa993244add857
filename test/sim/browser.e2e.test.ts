import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startDemo } from '../../src/commands/demo.js';
import { parseConfig } from '../../src/config.js';
import { readSimConfig } from '../../src/sim/config.js';
import { DIALECTS } from '../support/databases.js';
import { DATA_DIR, DEMO_NOW } from '../support/office.js';
import { browserSkipReason, launchBrowser, runBrowserJourney } from './browser.js';

function databaseUrl(target: Awaited<ReturnType<(typeof DIALECTS)[number]['create']>>['target']): string {
  if (target.dialect === 'sqlite') return target.path;
  const url = new URL(target.url);
  url.searchParams.set('options', `-c search_path=${target.schema}`);
  return url.toString();
}

describe.skipIf(browserSkipReason)('simulator page in a real browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const dialect of DIALECTS) {
    it.skipIf(dialect.skipReason)(
      `types the journey, links the account in the popup, and sees "Confirmed by staff" after approval in the desk frame (${dialect.name})`,
      async () => {
        const database = await dialect.create();
        const demo = await startDemo(
          parseConfig({
            port: '0',
            logLevel: 'silent',
            dataDir: DATA_DIR,
            database: databaseUrl(database.target),
            fixedNow: DEMO_NOW.toISOString(),
          }),
          readSimConfig({ SIM_PORT: '0', SIM_LLM: 'scripted' }),
          { version: 'test' },
        );
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        try {
          await runBrowserJourney(page, demo.simUrl, demo);
          await expect.poll(() => page.locator('.card').count()).toBeGreaterThanOrEqual(5);
          expect(await page.locator('.card-faq').textContent()).toContain('Source: faq/documents-for-quote');
          expect(await page.locator('.card-quote').textContent()).toContain('Not a quote');
          expect(await page.locator('#link-state').textContent()).toBe('Account linked');
          const trace = await page.locator('#trace-list').textContent();
          expect(trace).toContain('Tier 2 (caller)');
          expect(trace).toContain('authorization_code: Tier 2 token issued');
        } finally {
          await page.close();
          await demo.close();
          await database.dispose();
        }
      },
    );
  }
});
