import { randomBytes } from 'node:crypto';
import { hashPassword } from '../auth/passwords.js';
import { sha256Hex } from '../auth/secrets.js';
import type { Config } from '../config.js';
import { loadOfficeData } from '../office-data.js';
import { oauthStore } from '../store/oauth.js';
import { openStore } from '../store/store.js';

/**
 * `holddesk caller …` and `holddesk oauth-client …`: the accounts callers link with and the OAuth
 * clients (Alexa+ skills, assistants) that may ask them to. Secrets are printed once and stored only
 * as hashes.
 */
export class AccountCommandError extends Error {
  override readonly name = 'AccountCommandError';
}

export interface AccountIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: { write(text: string): unknown };
}

async function withOauthStore<T>(
  config: Config,
  work: (repo: ReturnType<typeof oauthStore>) => Promise<T>,
): Promise<T> {
  const { office } = await loadOfficeData(config.dataDir);
  const store = await openStore(config.database);
  try {
    return await work(oauthStore(store.db, office.id));
  } finally {
    await store.close();
  }
}

const USERNAME = /^[\w.@-]{1,64}$/;
const CLIENT_ID = /^[\w.-]{1,64}$/;

export async function callerCommand(config: Config, io: AccountIo, args: readonly string[]): Promise<void> {
  const [action, username] = args;
  await withOauthStore(config, async (repo) => {
    const now = new Date().toISOString();
    switch (action) {
      case 'add': {
        if (!username || !USERNAME.test(username))
          throw new AccountCommandError('caller add needs a username (letters, digits, . _ @ -)');
        // From the environment rather than an argument, so the password never shows in a process list.
        const given = io.env.HOLDDESK_NEW_PASSWORD;
        if (given !== undefined && given.length < 8)
          throw new AccountCommandError('HOLDDESK_NEW_PASSWORD must have at least 8 characters');
        const password = given ?? randomBytes(12).toString('base64url');
        await repo.upsertCaller({ username, password_hash: await hashPassword(password), created_at: now });
        io.stdout.write(
          given === undefined
            ? `Caller ${username} added. Password (shown once): ${password}\n`
            : `Caller ${username} added.\n`,
        );
        return;
      }
      case 'list': {
        for (const caller of await repo.listCallers()) {
          io.stdout.write(
            `${caller.username}${caller.disabled_at ? `  (disabled ${caller.disabled_at})` : ''}\n`,
          );
        }
        return;
      }
      case 'disable': {
        if (!username) throw new AccountCommandError('caller disable needs a username');
        if (!(await repo.disableCaller(username, now)))
          throw new AccountCommandError(`no active caller named ${username}`);
        io.stdout.write(`Caller ${username} disabled: they can no longer link an assistant.\n`);
        return;
      }
      default:
        throw new AccountCommandError('use: holddesk caller add|list|disable [username]');
    }
  });
}

export async function oauthClientCommand(
  config: Config,
  io: AccountIo,
  args: readonly string[],
  redirectUris: readonly string[],
): Promise<void> {
  const [action, clientId] = args;
  await withOauthStore(config, async (repo) => {
    switch (action) {
      case 'add': {
        if (!clientId || !CLIENT_ID.test(clientId))
          throw new AccountCommandError('oauth-client add needs a client id (letters, digits, . _ -)');
        if (redirectUris.length === 0)
          throw new AccountCommandError('oauth-client add needs at least one --redirect-uri');
        for (const uri of redirectUris) {
          if (!URL.canParse(uri) || !/^https?:$/.test(new URL(uri).protocol)) {
            throw new AccountCommandError(`not an http(s) redirect URI: ${uri}`);
          }
        }
        const secret = randomBytes(32).toString('base64url');
        await repo.upsertClient({
          client_id: clientId,
          name: clientId,
          secret_hash: sha256Hex(secret),
          redirect_uris: JSON.stringify(redirectUris),
          created_at: new Date().toISOString(),
        });
        io.stdout.write(`OAuth client ${clientId} registered. Secret (shown once): ${secret}\n`);
        return;
      }
      case 'list': {
        for (const client of await repo.listClients()) {
          io.stdout.write(
            `${client.client_id}  ${(JSON.parse(client.redirect_uris) as string[]).join(' ')}\n`,
          );
        }
        return;
      }
      case 'remove': {
        if (!clientId) throw new AccountCommandError('oauth-client remove needs a client id');
        if (!(await repo.removeClient(clientId)))
          throw new AccountCommandError(`no OAuth client named ${clientId}`);
        io.stdout.write(`OAuth client ${clientId} removed.\n`);
        return;
      }
      default:
        throw new AccountCommandError(
          'use: holddesk oauth-client add|list|remove [client-id] [--redirect-uri <uri> ...]',
        );
    }
  });
}
