import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { verifyPassword } from '../../src/auth/passwords.js';
import { sha256Hex } from '../../src/auth/secrets.js';
import { oauthStore } from '../../src/store/oauth.js';
import { openStore } from '../../src/store/store.js';

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

const freshDatabase = () => join(mkdtempSync(join(tmpdir(), 'holddesk-accounts-')), 'holddesk.db');

async function repo(database: string) {
  const store = await openStore({ dialect: 'sqlite', path: database });
  return { repo: oauthStore(store.db, 'harborview'), close: () => store.close() };
}

describe('holddesk caller', () => {
  it('adds a caller with a generated password shown once and stores only its hash', async () => {
    const database = freshDatabase();
    const added = await run(['caller', 'add', 'riley', '--database', database]);
    expect(added.code).toBe(0);
    const password = /Password \(shown once\): (\S+)/.exec(added.stdout)?.[1];
    expect(password).toBeDefined();
    const { repo: callers, close } = await repo(database);
    const account = await callers.findActiveCaller('riley');
    expect(account?.password_hash).not.toContain(password);
    expect(await verifyPassword(password!, account?.password_hash)).toBe(true);
    await close();
  });

  it('takes the password from HOLDDESK_NEW_PASSWORD, never from the command line', async () => {
    const database = freshDatabase();
    const added = await run(['caller', 'add', 'sam', '--database', database], {
      HOLDDESK_NEW_PASSWORD: 'a-long-password',
    });
    expect(added.stdout).toBe('Caller sam added.\n');
    const { repo: callers, close } = await repo(database);
    expect(
      await verifyPassword('a-long-password', (await callers.findActiveCaller('sam'))?.password_hash),
    ).toBe(true);
    await close();
  });

  it('lists and disables callers', async () => {
    const database = freshDatabase();
    await run(['caller', 'add', 'sam', '--database', database]);
    expect((await run(['caller', 'disable', 'sam', '--database', database])).code).toBe(0);
    expect((await run(['caller', 'list', '--database', database])).stdout).toMatch(/^sam {2}\(disabled /);
    expect((await run(['caller', 'disable', 'sam', '--database', database])).stderr).toContain(
      'no active caller named sam',
    );
  });

  it('refuses bad input in one line', async () => {
    const database = freshDatabase();
    expect((await run(['caller', 'add', 'bad name', '--database', database])).code).toBe(1);
    expect(
      (await run(['caller', 'add', 'x', '--database', database], { HOLDDESK_NEW_PASSWORD: 'short' })).stderr,
    ).toContain('at least 8 characters');
    expect((await run(['caller', 'rename', '--database', database])).stderr).toContain(
      'use: holddesk caller',
    );
  });
});

describe('holddesk oauth-client', () => {
  it('registers a client with a secret shown once, and removes it', async () => {
    const database = freshDatabase();
    const added = await run([
      'oauth-client',
      'add',
      'alexa-skill',
      '--redirect-uri',
      'https://alexa.example/cb',
      '--redirect-uri',
      'https://alexa.example/cb2',
      '--database',
      database,
    ]);
    const secret = /Secret \(shown once\): (\S+)/.exec(added.stdout)?.[1];
    expect(secret).toHaveLength(43);
    const { repo: clients, close } = await repo(database);
    const client = await clients.findClient('alexa-skill');
    expect(client?.secret_hash).toBe(sha256Hex(secret!));
    expect(JSON.parse(client!.redirect_uris)).toEqual([
      'https://alexa.example/cb',
      'https://alexa.example/cb2',
    ]);
    await close();
    expect((await run(['oauth-client', 'list', '--database', database])).stdout).toContain(
      'alexa-skill  https://alexa.example/cb',
    );
    expect((await run(['oauth-client', 'remove', 'alexa-skill', '--database', database])).code).toBe(0);
    expect((await run(['oauth-client', 'remove', 'alexa-skill', '--database', database])).code).toBe(1);
  });

  it('needs a valid redirect URI', async () => {
    const database = freshDatabase();
    expect((await run(['oauth-client', 'add', 'x', '--database', database])).stderr).toContain(
      '--redirect-uri',
    );
    expect(
      (
        await run([
          'oauth-client',
          'add',
          'x',
          '--redirect-uri',
          'javascript:alert(1)',
          '--database',
          database,
        ])
      ).stderr,
    ).toContain('not an http(s) redirect URI');
  });
});
