import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { PersonalTokens } from '../../src/gateway/personal-tokens.js';
import { auditTrail } from '../../src/store/audit.js';
import type { DatabaseTarget } from '../../src/store/dialect.js';
import { staffAccounts } from '../../src/store/staff.js';
import { openStore, type Store } from '../../src/store/store.js';
import { DIALECTS, type TestDatabase } from '../support/databases.js';
import { bundledOfficeData } from '../support/office.js';

function databaseUrl(target: DatabaseTarget): string {
  if (target.dialect === 'sqlite') return target.path;
  const url = new URL(target.url);
  url.searchParams.set('options', `-c search_path=${target.schema}`);
  return url.toString();
}

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason)(`holddesk token on ${dialect.name}`, () => {
    let database: TestDatabase;
    let store: Store;
    let officeId: string;

    const run = async (argv: string[]) => {
      let stdout = '';
      let stderr = '';
      const code = await main({
        argv,
        env: { HOLDDESK_DATABASE_URL: databaseUrl(database.target), HOLDDESK_LOG_LEVEL: 'silent' },
        stdout: { write: (s: string) => ((stdout += s), true) },
        stderr: { write: (s: string) => ((stderr += s), true) },
      });
      return { code, stdout, stderr };
    };

    beforeAll(async () => {
      database = await dialect.create();
      store = await openStore(database.target);
      officeId = (await bundledOfficeData()).office.id;
      await staffAccounts(store.db, officeId).insert({
        username: 'sam',
        display_name: 'Sam Rivera',
        role: 'staff',
        password_hash: 'unused',
        created_at: new Date().toISOString(),
        disabled_at: null,
      });
    });

    afterAll(async () => {
      await store?.close();
      await database?.dispose();
    });

    it('mints a token, printing it once and alone on stdout', async () => {
      const { code, stdout, stderr } = await run([
        'token',
        'mint',
        '--staff',
        'sam',
        '--name',
        'laptop assistant',
        '--expires-in',
        '30',
      ]);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^hd_pat_[A-Za-z0-9_-]{43}\n$/);
      expect(stderr).toMatch(
        /^Token pat_\w+ \("laptop assistant"\) for sam, valid until .+ It is shown once/,
      );
      const principal = await new PersonalTokens(store, officeId, () => new Date()).authenticate(
        stdout.trim(),
      );
      expect(principal).toMatchObject({ username: 'sam', via: 'pat' });
      const [entry] = await auditTrail(store.db, officeId, store.dialect).list({
        action: 'personal_token.minted',
      });
      expect(entry).toMatchObject({ actor_kind: 'system', actor_id: 'command-line' });
    });

    it('lists tokens without secrets, and revokes one', async () => {
      const listed = await run(['token', 'list', '--staff', 'sam']);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(/^pat_\w+\tsam\tactive\texpires \S+\tlast used \S+\tlaptop assistant\n$/);
      expect(listed.stdout).not.toContain('hd_pat_');
      const id = listed.stdout.split('\t')[0]!;
      expect(await run(['token', 'revoke', id])).toMatchObject({
        code: 0,
        stdout: `Token ${id} ("laptop assistant") of sam revoked.\n`,
      });
      expect(await run(['token', 'revoke', id])).toMatchObject({
        code: 1,
        stderr: 'holddesk: That token was already revoked.\n',
      });
      expect((await run(['token', 'list'])).stdout).toContain('\trevoked\t');
    });

    it.each([
      [['token', 'burn'], /use: holddesk token mint/],
      [['token', 'mint', '--staff', 'sam'], /needs --staff <username> and --name <label>/],
      [['token', 'mint', '--staff', 'sam', '--name', 'x', '--expires-in', 'soon'], /whole number of days/],
      [['token', 'mint', '--staff', 'sam', '--name', 'x', '--expires-in', '400'], /1 to 365 days/],
      [['token', 'mint', '--staff', 'nobody', '--name', 'x'], /no enabled staff account "nobody"/],
      [['token', 'revoke'], /needs a token id/],
      [['token', 'revoke', 'pat_missing'], /no such token/],
      [['token', 'list', 'extra'], /use: holddesk token mint/],
    ])('refuses %j in one line', async (argv, message) => {
      const { code, stderr, stdout } = await run(argv);
      expect(code).toBe(1);
      expect(stderr).toMatch(message);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stdout).toBe('');
    });
  });
}
