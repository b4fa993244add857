import type { Config } from '../config.js';
import { PersonalTokens, type TokenActor } from '../gateway/personal-tokens.js';
import { loadOfficeData } from '../office-data.js';
import { openStore } from '../store/store.js';
import { AccountCommandError, type AccountIo } from './accounts.js';

export interface TokenFlags {
  readonly staff?: string | undefined;
  /** `--name`: the token's label. */
  readonly name?: string | undefined;
  readonly expiresIn?: string | undefined;
}

const USAGE =
  'use: holddesk token mint --staff <username> --name <label> [--expires-in <days>] | list [--staff <username>] | revoke <token-id>';

const ACTOR: TokenActor = { kind: 'system', id: 'command-line' };

/**
 * `holddesk token …`: staff personal access tokens for the call gateway, from the server's own
 * command line. `mint` prints the token once on stdout (details on stderr, so
 * `TOKEN=$(holddesk token mint …)` captures only the token); only its hash is stored.
 */
export async function tokenCommand(
  config: Config,
  io: AccountIo & { readonly stderr: { write(text: string): unknown } },
  args: readonly string[],
  flags: TokenFlags,
): Promise<void> {
  const [action, id] = args;
  if (action === undefined || !['mint', 'list', 'revoke'].includes(action))
    throw new AccountCommandError(USAGE);
  if (action === 'revoke' && !id)
    throw new AccountCommandError('token revoke needs a token id (see token list)');
  if (action !== 'revoke' && id !== undefined) throw new AccountCommandError(USAGE);
  if (action === 'mint' && (!flags.staff || !flags.name)) {
    throw new AccountCommandError('token mint needs --staff <username> and --name <label>');
  }
  let days: number | undefined;
  if (flags.expiresIn !== undefined) {
    days = /^\d+$/.test(flags.expiresIn) ? Number(flags.expiresIn) : Number.NaN;
    if (Number.isNaN(days)) throw new AccountCommandError('--expires-in takes a whole number of days');
  }
  const data = await loadOfficeData(config.dataDir);
  const store = await openStore(config.database);
  try {
    // Token expiry is real time, even when the office clock is frozen for a demo.
    const tokens = new PersonalTokens(store, data.office.id, () => new Date());
    switch (action) {
      case 'mint': {
        const minted = await tokens.mint({
          staff: flags.staff!,
          name: flags.name!,
          expiresInDays: days,
          actor: ACTOR,
        });
        if (!minted.ok) throw new AccountCommandError(minted.error.message);
        const { token, view } = minted.value;
        io.stdout.write(`${token}\n`);
        io.stderr.write(
          `Token ${view.token_id} ("${view.name}") for ${view.staff}, valid until ${view.expires_at}. ` +
            'It is shown once: store it now.\n',
        );
        return;
      }
      case 'list': {
        for (const t of await tokens.list(flags.staff)) {
          io.stdout.write(
            `${t.token_id}\t${t.staff}\t${t.state}\texpires ${t.expires_at}\tlast used ${t.last_used_at ?? 'never'}\t${t.name}\n`,
          );
        }
        return;
      }
      default: {
        const revoked = await tokens.revoke(id!, ACTOR);
        if (!revoked.ok) throw new AccountCommandError(revoked.error.message);
        io.stdout.write(
          `Token ${revoked.value.token_id} ("${revoked.value.name}") of ${revoked.value.staff} revoked.\n`,
        );
      }
    }
  } finally {
    await store.close();
  }
}
