import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { openStore, type Store } from '../../src/store/store.js';
import { DIALECTS, type TestDatabase } from '../support/databases.js';
import { DATA_DIR } from '../support/office.js';

/** The database argument for a test database (PostgreSQL schemas travel in the URL's options). */
function databaseArg(database: TestDatabase): string {
  const target = database.target;
  if (target.dialect === 'sqlite') return target.path;
  const url = new URL(target.url);
  url.searchParams.set('options', `-c search_path=${target.schema}`);
  return url.toString();
}

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason !== undefined)(`holddesk staff on ${dialect.name}`, () => {
    let database: TestDatabase;
    let store: Store;

    beforeAll(async () => {
      database = await dialect.create();
      store = await openStore(database.target);
    });

    afterAll(async () => {
      await store.close();
      await database.dispose();
    });

    async function staff(args: string[], env: NodeJS.ProcessEnv = {}) {
      let stdout = '';
      let stderr = '';
      const code = await main({
        argv: ['staff', ...args, '--database', databaseArg(database), '--data-dir', DATA_DIR],
        env,
        stdout: { write: (s: string) => ((stdout += s), true) },
        stderr: { write: (s: string) => ((stderr += s), true) },
      });
      return { code, stdout, stderr };
    }

    it('adds an account with a generated password, shown once', async () => {
      const { code, stdout } = await staff(['add', 'Maria', '--name', 'Maria Chen', '--role', 'admin']);
      expect(code).toBe(0);
      expect(stdout).toMatch(
        /^Staff account maria \(admin, "Maria Chen"\) added\. Password \(shown once\): [A-Za-z0-9_-]{24}\n$/,
      );
      const row = await store.db
        .selectFrom('staff_accounts')
        .selectAll()
        .where('username', '=', 'maria')
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^scrypt\$/);
      expect(row.password_hash).not.toContain(stdout.trim().split(' ').at(-1));
    });

    it('takes the password from HOLDDESK_NEW_PASSWORD, never from the command line', async () => {
      const { code, stdout } = await staff(['add', 'omar'], { HOLDDESK_NEW_PASSWORD: 'omar-password' });
      expect(code).toBe(0);
      expect(stdout).toBe('Staff account omar (staff, "omar") added.\n');
    });

    it('lists accounts', async () => {
      const { code, stdout } = await staff(['list']);
      expect(code).toBe(0);
      expect(stdout).toBe('maria\tadmin\tactive\tMaria Chen\nomar\tstaff\tactive\tomar\n');
    });

    it('sets a new password and disables an account, on the audit trail', async () => {
      expect((await staff(['passwd', 'omar'])).stdout).toMatch(
        /^New password set for omar; signed out everywhere\. Password \(shown once\): /,
      );
      expect((await staff(['disable', 'omar'])).stdout).toBe(
        'Staff account omar disabled and signed out everywhere.\n',
      );
      expect((await staff(['list'])).stdout).toMatch(/omar\tstaff\tdisabled \d{4}-/);
      const audit = await store.db
        .selectFrom('audit_log')
        .select(['action', 'actor_kind', 'actor_id', 'target_id'])
        .orderBy('seq')
        .execute();
      expect(audit).toEqual([
        { action: 'staff.added', actor_kind: 'system', actor_id: 'command-line', target_id: 'maria' },
        { action: 'staff.added', actor_kind: 'system', actor_id: 'command-line', target_id: 'omar' },
        { action: 'staff.password_reset', actor_kind: 'system', actor_id: 'command-line', target_id: 'omar' },
        { action: 'staff.disabled', actor_kind: 'system', actor_id: 'command-line', target_id: 'omar' },
      ]);
    });

    it.each([
      [['add', 'maria'], 'There is already an account with that username.'],
      [['add', 'no good'], 'Use 2 to 32 lower-case letters'],
      [['add', 'rita', '--role', 'root'], 'The role must be admin or staff.'],
      [['disable', 'maria'], 'This is the last active admin account'],
      [['disable', 'ghost'], 'There is no such account.'],
      [['passwd', 'ghost'], 'There is no such account.'],
      [['disable'], 'staff disable needs a username'],
      [['remove', 'maria'], 'use: holddesk staff add'],
    ])('refuses %j in one line', async (args, message) => {
      const { code, stderr } = await staff(args);
      expect(code).toBe(1);
      expect(stderr).toContain(message);
      expect(stderr.trim().split('\n')).toHaveLength(1);
    });

    it('refuses a short password from the environment', async () => {
      const { code, stderr } = await staff(['passwd', 'maria'], { HOLDDESK_NEW_PASSWORD: 'short' });
      expect(code).toBe(1);
      expect(stderr).toContain('Use a password of 8 to 256 characters.');
    });
  });
}
