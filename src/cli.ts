import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, parseConfig, readSettings, type Config } from './config.js';
import { summariseOfficeData } from './commands/check-data.js';
import { DataError, loadOfficeData } from './office-data.js';
import { describeTarget } from './store/dialect.js';
import { MigrationError, migrateToLatest } from './store/migrate.js';
import { openStore, StoreError } from './store/store.js';

/**
 * The only module that knows it runs in a terminal: it parses arguments into a `Config`, runs one
 * command, and turns known failures into one clear line on stderr with a non-zero exit code.
 */

const USAGE = `Usage: holddesk <command> [options]

HoldDesk: a voice front desk where the assistant holds and a human confirms.

Commands:
  check-data           validate the office data files and print a summary of the office
  migrate              create or update the database schema, then exit

Options:
  --database <url>     postgres://…, sqlite:<path> or a file (./var/holddesk.db) [HOLDDESK_DATABASE_URL]
  --data-dir <dir>     folder with office.json, faq.json, rate_table.json   [HOLDDESK_DATA_DIR]
  --log-level <level>  fatal|error|warn|info|debug|trace|silent (info)     [HOLDDESK_LOG_LEVEL]
  -h, --help           show this help
  -v, --version        show the version
`;

const OPTIONS = {
  database: { type: 'string' },
  'data-dir': { type: 'string' },
  'log-level': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

class UsageError extends Error {
  override readonly name = 'UsageError';
}

type Output = Pick<NodeJS.WriteStream, 'write'>;

interface Io {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: Output;
  readonly stderr: Output;
}

const COMMANDS: Readonly<Record<string, (config: Config, io: Io) => Promise<void>>> = {
  'check-data': async (config, io) => {
    const data = await loadOfficeData(config.dataDir);
    io.stdout.write(`${summariseOfficeData(data)}\n`);
  },
  migrate: async (config, io) => {
    const target = config.database;
    const store = await openStore(target, { migrate: false });
    try {
      const applied = await migrateToLatest(store.db, store.dialect);
      io.stdout.write(
        applied.length === 0
          ? `${describeTarget(target)} is up to date.\n`
          : `${describeTarget(target)}: applied ${applied.join(', ')}\n`,
      );
    } finally {
      await store.close();
    }
  },
};

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

function parse(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Runs the command line and resolves to the process exit code. */
export async function main(io: Io): Promise<number> {
  try {
    const { values, positionals } = parse(io.argv);
    if (values.version) {
      io.stdout.write(`holddesk ${packageVersion()}\n`);
      return 0;
    }
    const [name, ...rest] = positionals;
    if (values.help || name === undefined || name === 'help') {
      io.stdout.write(USAGE);
      return 0;
    }
    const command = COMMANDS[name];
    if (!command) throw new UsageError(`unknown command "${name}"`);
    if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
    const config = parseConfig(
      readSettings(
        { dataDir: values['data-dir'], database: values.database, logLevel: values['log-level'] },
        io.env,
      ),
    );
    await command(config, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`holddesk: ${error.message}\nRun "holddesk --help" for usage.\n`);
      return 2;
    }
    if (
      error instanceof ConfigError ||
      error instanceof DataError ||
      error instanceof StoreError ||
      error instanceof MigrationError
    ) {
      io.stderr.write(`holddesk: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
