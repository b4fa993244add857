import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../src/bin.ts', import.meta.url));

function holddesk(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], {
    env: { ...process.env, HOLDDESK_LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const output = async (pattern: RegExp) => {
    for (let waited = 0; !pattern.test(stdout) && waited < 15_000; waited += 50) {
      if (child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    return stdout;
  };
  return { child, exited, output, stderr: () => stderr };
}

describe('holddesk serve (a real process)', () => {
  it('prints where to go, serves, and stops cleanly on SIGTERM', async () => {
    const database = join(mkdtempSync(join(tmpdir(), 'holddesk-serve-')), 'holddesk.db');
    const server = holddesk(['--port', '0'], { HOLDDESK_DATABASE_URL: database });
    const printed = await server.output(/Health/);
    const mcpUrl = /MCP endpoint\s+(\S+)/.exec(printed)?.[1];
    expect(mcpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const health = await fetch(mcpUrl!.replace('/mcp', '/healthz'));
    expect(health.status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(await server.output(/finishing requests/)).toContain('Received SIGTERM');
  });

  it('stops start-up with one clear line when the database cannot be opened', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'holddesk-serve-'));
    const server = holddesk(['--port', '0'], { HOLDDESK_DATABASE_URL: dir });
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toMatch(/^holddesk: cannot open SQLite .+\n$/);
  });

  it('refuses a port that is already taken with one clear line', async () => {
    const database = join(mkdtempSync(join(tmpdir(), 'holddesk-serve-')), 'holddesk.db');
    const first = holddesk(['--port', '0'], { HOLDDESK_DATABASE_URL: database });
    const port = /127\.0\.0\.1:(\d+)/.exec(await first.output(/Health/))?.[1];
    const second = holddesk(['--port', port!], { HOLDDESK_DATABASE_URL: `${database}-2` });
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain('already in use');
    first.child.kill('SIGTERM');
    await first.exited;
  });
});
