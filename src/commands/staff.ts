import type { Config } from '../config.js';
import { loadOfficeData } from '../office-data.js';
import { openStore } from '../store/store.js';
import { createContext } from '../usecases/context.js';
import { StaffAccounts, type AccountActor } from '../usecases/staff-accounts.js';
import { AccountCommandError, type AccountIo } from './accounts.js';

export interface StaffFlags {
  readonly displayName?: string | undefined;
  readonly role?: string | undefined;
}

const USAGE =
  'use: holddesk staff add <username> [--name "Display Name"] [--role staff|admin] | list | disable <username> | passwd <username>';

const ACTOR: AccountActor = { kind: 'system', id: 'command-line' };

/**
 * `holddesk staff …`: the people who may sign in to the desk. Passwords come from
 * `HOLDDESK_NEW_PASSWORD` (so they never show in a process list) or are generated and printed once;
 * only their scrypt hashes are stored. Every change is on the audit trail as the command line.
 */
export async function staffCommand(
  config: Config,
  io: AccountIo,
  args: readonly string[],
  flags: StaffFlags,
): Promise<void> {
  const [action, username] = args;
  if (action !== 'list' && (action === undefined || !['add', 'disable', 'passwd'].includes(action))) {
    throw new AccountCommandError(USAGE);
  }
  if (action !== 'list' && !username) throw new AccountCommandError(`staff ${action} needs a username`);
  const data = await loadOfficeData(config.dataDir);
  const store = await openStore(config.database);
  try {
    const accounts = new StaffAccounts(createContext(data, store, () => new Date()));
    const given = io.env.HOLDDESK_NEW_PASSWORD === '' ? undefined : io.env.HOLDDESK_NEW_PASSWORD;
    const shown = (password: string | undefined) => (password ? ` Password (shown once): ${password}` : '');
    switch (action) {
      case 'list': {
        for (const a of await accounts.list()) {
          const status = a.disabled_at ? `disabled ${a.disabled_at}` : 'active';
          io.stdout.write(`${a.username}\t${a.role}\t${status}\t${a.display_name}\n`);
        }
        return;
      }
      case 'add': {
        const added = await accounts.add(
          {
            username: username!,
            displayName: flags.displayName ?? username!,
            role: flags.role ?? 'staff',
            password: given,
          },
          ACTOR,
        );
        if (!added.ok) throw new AccountCommandError(added.error.message);
        const { account, generatedPassword } = added.value;
        io.stdout.write(
          `Staff account ${account.username} (${account.role}, "${account.display_name}") added.${shown(generatedPassword)}\n`,
        );
        return;
      }
      case 'disable': {
        const disabled = await accounts.disable(username!, ACTOR);
        if (!disabled.ok) throw new AccountCommandError(disabled.error.message);
        io.stdout.write(`Staff account ${disabled.value.username} disabled and signed out everywhere.\n`);
        return;
      }
      default: {
        const reset = await accounts.resetPassword(username!, ACTOR, given);
        if (!reset.ok) throw new AccountCommandError(reset.error.message);
        io.stdout.write(
          `New password set for ${reset.value.account.username}; signed out everywhere.${shown(reset.value.generatedPassword)}\n`,
        );
      }
    }
  } finally {
    await store.close();
  }
}
