import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ConfigError, parseConfig, readSettings, type Config } from './config.js';
import { AccountCommandError, callerCommand, oauthClientCommand } from './commands/accounts.js';
import { summariseOfficeData } from './commands/check-data.js';
import { describeDemo, startDemo } from './commands/demo.js';
import { startServer, StartError } from './commands/serve.js';
import { staffCommand } from './commands/staff.js';
import { tokenCommand } from './commands/token.js';
import { DataError, loadOfficeData } from './office-data.js';
import { describeTarget } from './store/dialect.js';
import { MigrationError, migrateToLatest } from './store/migrate.js';
import { openStore, StoreError } from './store/store.js';
import { exportState, importState, TransferError } from './store/transfer.js';
import { readSimConfig } from './sim/config.js';

/**
 * The only module that knows it runs in a terminal: it parses arguments into a `Config`, runs one
 * command, and turns known failures into one clear line on stderr with a non-zero exit code.
 */

const USAGE = `Usage: holddesk <command> [options]

HoldDesk: a voice front desk where the assistant holds and a human confirms.

Commands:
  serve                run the server (the default command)
  demo                 HoldDesk in OAuth mode plus the Alexa+-style voice simulator
                       (port 8650, SIM_* settings; see README), logins printed once
  check-data           validate the office data files and print a summary of the office
  migrate              create or update the database schema, then exit
  export [file]        write the whole office state as JSON (to stdout without a file)
  import <file>        read an export into an empty database (e.g. SQLite -> PostgreSQL)
  caller add|list|disable [username]
                       caller accounts for account linking (password from
                       HOLDDESK_NEW_PASSWORD, else generated and shown once)
  oauth-client add|list|remove [client-id] [--redirect-uri <uri> ...]
                       OAuth clients (the secret is generated and shown once)
  staff add|list|disable|passwd [username] [--name <display name>] [--role staff|admin]
                       staff desk accounts (password from HOLDDESK_NEW_PASSWORD,
                       else generated and shown once)
  token mint|list|revoke [token-id] [--staff <username>] [--name <label>] [--expires-in <days>]
                       call-gateway personal access tokens (minted token shown once)

Server options:
  --port <n>           port to listen on (8641)                             [HOLDDESK_PORT]
  --host <addr>        address to bind (127.0.0.1)                          [HOLDDESK_HOST]
  --auth static|oauth  static: HOLDDESK_BEARER_TOKEN or, unset, open (loopback only);
                       oauth: the built-in authorization server (default when
                       HOLDDESK_OAUTH_CLIENT_SECRET is set)                 [HOLDDESK_AUTH]
  --auth-challenge mcp 401s at /mcp name the OAuth metadata (WWW-Authenticate) for generic clients
  --stateful           issue MCP-Session-Id sessions instead of stateless requests
  --json-response      answer plain JSON instead of server-sent events
  --allowed-host <h>   also accept this Host header (repeatable)            [HOLDDESK_ALLOWED_HOSTS]
  --allowed-origin <o> also accept this Origin (repeatable)                 [HOLDDESK_ALLOWED_ORIGINS]
  --insecure-open      allow an open /mcp on a non-loopback --host
  HOLDDESK_FIXED_NOW   freeze the clock, e.g. 2026-09-14T15:00:00Z (demos and tests)

Options:
  --database <url>     postgres://…, sqlite:<path> or a file (./var/holddesk.db) [HOLDDESK_DATABASE_URL]
  --data-dir <dir>     folder with office.json, faq.json, rate_table.json   [HOLDDESK_DATA_DIR]
  --log-level <level>  fatal|error|warn|info|debug|trace|silent (info)     [HOLDDESK_LOG_LEVEL]
  -h, --help           show this help
  -v, --version        show the version
`;

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  auth: { type: 'string' },
  stateful: { type: 'boolean' },
  'json-response': { type: 'boolean' },
  'allowed-host': { type: 'string', multiple: true },
  'allowed-origin': { type: 'string', multiple: true },
  'insecure-open': { type: 'boolean' },
  'auth-challenge': { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  name: { type: 'string' },
  role: { type: 'string' },
  staff: { type: 'string' },
  'expires-in': { type: 'string' },
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

/** Command-specific flags, parsed with the rest. */
interface CommandFlags {
  readonly redirectUris: readonly string[];
  readonly displayName?: string | undefined;
  readonly role?: string | undefined;
  readonly staff?: string | undefined;
  readonly expiresIn?: string | undefined;
}

type Command = (config: Config, io: Io, args: readonly string[], flags: CommandFlags) => Promise<void>;

/** How many positional arguments each command takes after its name. */
const ARITY: Readonly<Record<string, { min: number; max: number }>> = {
  export: { min: 0, max: 1 },
  import: { min: 1, max: 1 },
  caller: { min: 1, max: 2 },
  'oauth-client': { min: 1, max: 2 },
  staff: { min: 1, max: 2 },
  token: { min: 1, max: 2 },
};

const COMMANDS: Readonly<Record<string, Command>> = {
  caller: (config, io, args) => callerCommand(config, io, args),
  staff: (config, io, args, flags) => staffCommand(config, io, args, flags),
  token: (config, io, args, flags) =>
    tokenCommand(config, io, args, {
      staff: flags.staff,
      name: flags.displayName,
      expiresIn: flags.expiresIn,
    }),
  'oauth-client': (config, io, args, flags) => oauthClientCommand(config, io, args, flags.redirectUris),
  serve: async (config, io) => {
    const server = await startServer(config, { version: packageVersion() });
    for (const notice of server.notices) io.stderr.write(`${notice}\n`);
    io.stdout.write(
      [
        `HoldDesk ${packageVersion()} is running on ${describeTarget(config.database)} (${describeAuth(config)}).`,
        `  MCP endpoint  ${server.url}/mcp`,
        `  Health        ${server.url}/healthz`,
        `  Staff desk    ${server.url}/desk`,
        `  Staff MCP     ${server.url}/staff/mcp (personal access tokens: holddesk token mint)`,
        'Press Ctrl+C to stop.',
        '',
      ].join('\n'),
    );
    const signal = await untilShutdownSignal();
    io.stdout.write(`Received ${signal}: finishing requests in flight, then stopping.\n`);
    await server.close();
  },
  demo: async (config, io) => {
    const demo = await startDemo(config, readSimConfig(io.env), { version: packageVersion() });
    for (const notice of demo.notices) io.stderr.write(`${notice}\n`);
    io.stdout.write(describeDemo(demo));
    const signal = await untilShutdownSignal();
    io.stdout.write(`Received ${signal}: stopping the simulator and HoldDesk.\n`);
    await demo.close();
  },
  'check-data': async (config, io) => {
    const data = await loadOfficeData(config.dataDir);
    io.stdout.write(`${summariseOfficeData(data)}\n`);
  },
  export: async (config, io, [file]) => {
    const store = await openStore(config.database);
    try {
      const snapshot = JSON.stringify(await exportState(store), null, 2);
      if (file === undefined) {
        io.stdout.write(`${snapshot}\n`);
      } else {
        await writeFile(file, `${snapshot}\n`, { mode: 0o600 });
        io.stderr.write(`Exported ${describeTarget(config.database)} to ${file}.\n`);
      }
    } finally {
      await store.close();
    }
  },
  import: async (config, io, [file]) => {
    let snapshot: unknown;
    try {
      snapshot = JSON.parse(await readFile(file!, 'utf8'));
    } catch (error) {
      throw new TransferError(`cannot read ${file}: ${(error as Error).message}`);
    }
    const store = await openStore(config.database);
    try {
      const { tables } = await importState(store, snapshot);
      const counts = Object.entries(tables).map(([table, n]) => `${n} ${table}`);
      io.stdout.write(`Imported into ${describeTarget(config.database)}: ${counts.join(', ')}.\n`);
    } finally {
      await store.close();
    }
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

function describeAuth(config: Config): string {
  if (config.auth === 'oauth') return 'OAuth: service and caller tokens';
  if (config.bearerToken) return 'static bearer token required';
  return 'open to local callers, no token';
}

function untilShutdownSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve(signal);
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}

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
    const [name = 'serve', ...rest] = positionals;
    if (values.help || name === 'help') {
      io.stdout.write(USAGE);
      return 0;
    }
    const command = COMMANDS[name];
    if (!command) throw new UsageError(`unknown command "${name}"`);
    const arity = ARITY[name] ?? { min: 0, max: 0 };
    if (rest.length > arity.max) throw new UsageError(`unexpected argument "${rest[arity.max]}"`);
    if (rest.length < arity.min) throw new UsageError(`${name} needs a file argument`);
    const config = parseConfig(
      readSettings(
        {
          port: values.port,
          host: values.host,
          auth: values.auth,
          stateful: values.stateful ? 'true' : undefined,
          jsonResponse: values['json-response'] ? 'true' : undefined,
          allowedHosts: values['allowed-host']?.join(','),
          allowedOrigins: values['allowed-origin']?.join(','),
          insecureOpen: values['insecure-open'] ? 'true' : undefined,
          authChallenge: values['auth-challenge'],
          dataDir: values['data-dir'],
          database: values.database,
          logLevel: values['log-level'],
        },
        io.env,
      ),
    );
    await command(config, io, rest, {
      redirectUris: values['redirect-uri'] ?? [],
      displayName: values.name,
      role: values.role,
      staff: values.staff,
      expiresIn: values['expires-in'],
    });
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
      error instanceof MigrationError ||
      error instanceof StartError ||
      error instanceof TransferError ||
      error instanceof AccountCommandError
    ) {
      io.stderr.write(`holddesk: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
