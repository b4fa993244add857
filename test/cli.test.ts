import { mkdtempSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli.js';
import { DATA_DIR } from './support/office.js';

async function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main({
    argv,
    env,
    stdout: { write: (s: string) => ((stdout += s), true) },
    stderr: { write: (s: string) => ((stderr += s), true) },
  });
  return { code, stdout, stderr };
}

describe('holddesk command line', () => {
  it('--help lists the commands', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('check-data');
  });

  it('--version prints the package version', async () => {
    const { code, stdout } = await run(['--version']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^holddesk \d+\.\d+\.\d+\n$/);
  });

  describe('check-data', () => {
    it('validates the bundled data and summarises the office', async () => {
      const { code, stdout } = await run(['check-data']);
      expect(code).toBe(0);
      expect(stdout).toContain('Harborview Insurance Agency');
      expect(stdout).toContain('policy_review');
      expect(stdout).toMatch(/FAQ: \d+ entries/);
      expect(stdout).toContain('All data files are valid.');
    });

    it('reports a broken data file in one line and exits 1', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'holddesk-data-'));
      cpSync(DATA_DIR, dir, { recursive: true });
      writeFileSync(join(dir, 'office.json'), '{"id": "x"');
      const { code, stderr } = await run(['check-data', '--data-dir', dir]);
      expect(code).toBe(1);
      expect(stderr).toMatch(/^holddesk: office\.json: not valid JSON/);
      expect(stderr.trim().split('\n')).toHaveLength(1);
    });

    it('names the field that fails its schema', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'holddesk-data-'));
      cpSync(DATA_DIR, dir, { recursive: true });
      writeFileSync(join(dir, 'rate_table.json'), '{}');
      const { code, stderr } = await run(['check-data'], { HOLDDESK_DATA_DIR: dir });
      expect(code).toBe(1);
      expect(stderr).toMatch(/^holddesk: rate_table\.json: /);
    });

    it('says when a data file is missing', async () => {
      const { code, stderr } = await run([
        'check-data',
        '--data-dir',
        join(tmpdir(), 'no-such-holddesk-dir'),
      ]);
      expect(code).toBe(1);
      expect(stderr).toMatch(/cannot read \(ENOENT\)/);
    });
  });

  describe('migrate', () => {
    it('creates the schema once and then reports it up to date', async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'holddesk-db-')), 'nested', 'holddesk.db');
      const first = await run(['migrate', '--database', file]);
      expect(first).toMatchObject({ code: 0 });
      expect(first.stdout).toContain('applied 2026-11-29-001-front-desk');
      const second = await run(['migrate'], { HOLDDESK_DATABASE_URL: `sqlite:${file}` });
      expect(second.stdout).toContain('is up to date');
    });

    it('explains in one line when the database cannot be opened', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'holddesk-db-'));
      const { code, stderr } = await run(['migrate', '--database', dir]);
      expect(code).toBe(1);
      expect(stderr).toMatch(/^holddesk: cannot open SQLite .+\n$/);
    });

    it('explains in one line when PostgreSQL is unreachable', async () => {
      const { code, stderr } = await run(['migrate', '--database', 'postgres://nobody@127.0.0.1:1/none']);
      expect(code).toBe(1);
      expect(stderr).toMatch(/^holddesk: cannot open PostgreSQL 127\.0\.0\.1:1\/none: .+\n$/);
    });

    it('refuses an unsupported database URL scheme', async () => {
      const { code, stderr } = await run(['migrate', '--database', 'mysql://localhost/x']);
      expect(code).toBe(1);
      expect(stderr).toContain('HOLDDESK_DATABASE_URL: unsupported database URL scheme');
    });
  });

  describe('export and import', () => {
    it('moves an office from one database file to another', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'holddesk-db-'));
      const source = join(dir, 'source.db');
      const target = join(dir, 'target.db');
      const file = join(dir, 'state.json');
      expect((await run(['migrate', '--database', source])).code).toBe(0);
      expect((await run(['export', file, '--database', source])).code).toBe(0);
      const imported = await run(['import', file, '--database', target]);
      expect(imported).toMatchObject({ code: 0 });
      expect(imported.stdout).toContain('Imported into SQLite');
      const printed = await run(['export', '--database', target]);
      expect(JSON.parse(printed.stdout)).toMatchObject({ format: 'holddesk-state', version: 1 });
    });

    it('explains in one line why an import was refused', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'holddesk-db-'));
      writeFileSync(join(dir, 'bad.json'), '{"format":"something-else"}');
      const refused = await run(['import', join(dir, 'bad.json'), '--database', join(dir, 'x.db')]);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      const missing = await run(['import', join(dir, 'missing.json'), '--database', join(dir, 'x.db')]);
      expect(missing).toMatchObject({ code: 1 });
      expect(missing.stderr).toContain('cannot read');
    });

    it('import needs a file', async () => {
      expect((await run(['import'])).code).toBe(2);
    });
  });

  describe('usage errors exit 2', () => {
    it('an unknown command', async () => {
      const { code, stderr } = await run(['frobnicate']);
      expect(code).toBe(2);
      expect(stderr).toContain('unknown command "frobnicate"');
    });

    it('an unknown option', async () => {
      const { code, stderr } = await run(['check-data', '--nope']);
      expect(code).toBe(2);
      expect(stderr).toContain('--nope');
    });

    it('an invalid setting names its environment variable', async () => {
      const { code, stderr } = await run(['check-data'], { HOLDDESK_LOG_LEVEL: 'loud' });
      expect(code).toBe(1);
      expect(stderr).toContain('HOLDDESK_LOG_LEVEL');
    });
  });
});
