/**
 * Writes a screenshot of the simulator after the whole journey (hold, linking, staff approval,
 * confirmation), driven through the real page in headless Chromium:
 *
 *   npx tsx scripts/sim-screenshot.ts [out.png]      (default: var/sim-screenshot.png)
 *
 * It starts its own `holddesk demo` on free ports and a throw-away SQLite database, with the
 * scripted router and the office clock frozen at a Monday morning.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startDemo } from '../src/commands/demo.js';
import { parseConfig } from '../src/config.js';
import { readSimConfig } from '../src/sim/config.js';
import { launchBrowser, runBrowserJourney } from '../test/sim/browser.js';

const out = process.argv[2] ?? 'var/sim-screenshot.png';
const dir = mkdtempSync(join(tmpdir(), 'holddesk-sim-shot-'));
const demo = await startDemo(
  parseConfig({
    port: '0',
    logLevel: 'silent',
    database: join(dir, 'holddesk.db'),
    fixedNow: '2026-09-14T15:00:00Z',
  }),
  readSimConfig({ SIM_PORT: '0', SIM_LLM: 'scripted' }),
  { version: 'screenshot' },
);
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await runBrowserJourney(page, demo.simUrl, demo);
  await page.click('#trace summary');
  await page.waitForTimeout(300);
  mkdirSync(dirname(out), { recursive: true });
  await page.screenshot({ path: out });
  process.stdout.write(`Wrote ${out}\n`);
} finally {
  await browser.close();
  await demo.close();
  rmSync(dir, { recursive: true, force: true });
}
