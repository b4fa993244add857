import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { DESK_SETTINGS, STAFF } from './support.js';

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL('../../scripts/smoke-client.ts', import.meta.url));
const sqlite = DIALECTS.find((d) => d.name === 'sqlite')!;

describe('scripts/smoke-client.ts', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(sqlite, DESK_SETTINGS);
  });

  afterAll(() => server.dispose());

  it('calls every tool, then approves its hold on the desk and hears "confirmed"', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', SCRIPT, server.mcpUrl, '--date', '2026-09-16'],
      {
        env: { ...process.env, HOLDDESK_DESK_PASSWORD: STAFF.password },
        timeout: 30_000,
      },
    );
    expect(stdout).toContain('< signed in as Front desk');
    expect(stdout).toMatch(/> approve REQ-\w+ \(hold APT-\w+\)\n< approved by Front desk/);
    expect(stdout).toMatch(/"status":"confirmed"/);
    expect(stdout).toContain('Every tool answered.');
  });
});
