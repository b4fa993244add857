import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startServer, type RunningServer } from '../../src/commands/serve.js';
import { parseConfig, type Settings } from '../../src/config.js';
import type { GatewayTelephony } from '../../src/gateway/call-gateway.js';
import type { DatabaseTarget } from '../../src/store/dialect.js';
import type { DialectUnderTest, TestDatabase } from './databases.js';
import { DATA_DIR, DEMO_NOW } from './office.js';

export interface TestServer extends RunningServer {
  readonly mcpUrl: string;
  readonly database: TestDatabase;
  /** Stops the server and starts a new one on the same database (and port, when free). */
  restart(): Promise<TestServer>;
  /** Stops the server and drops its database. */
  dispose(): Promise<void>;
}

function targetSetting(target: DatabaseTarget): Settings {
  if (target.dialect === 'sqlite') return { database: target.path };
  const url = new URL(target.url);
  url.searchParams.set('options', `-c search_path=${target.schema}`);
  return { database: url.toString() };
}

export interface TestServerOptions {
  /** Time for token and session expiry; tests that need expiry pass a clock they can move. */
  readonly securityClock?: () => Date;
  /** A carrier and audio analysis for the call gateway (the scripted test carrier). */
  readonly telephony?: GatewayTelephony;
}

async function start(
  database: TestDatabase,
  settings: Settings,
  options: TestServerOptions,
  port = '0',
): Promise<TestServer> {
  const config = parseConfig({
    port,
    logLevel: 'silent',
    fixedNow: DEMO_NOW.toISOString(),
    dataDir: DATA_DIR,
    ...targetSetting(database.target),
    ...settings,
  });
  const running = await startServer(config, { version: 'test', ...options });
  return {
    ...running,
    mcpUrl: `${running.url}/mcp`,
    database,
    restart: async () => {
      await running.close();
      return start(database, settings, options, String(running.port));
    },
    dispose: async () => {
      await running.close();
      await database.dispose();
    },
  };
}

/** A real HoldDesk on a free loopback port, on a fresh database of the given dialect. */
export async function startTestServer(
  dialect: DialectUnderTest,
  settings: Settings = {},
  options: TestServerOptions = {},
): Promise<TestServer> {
  return start(await dialect.create(), settings, options);
}

/**
 * Another HoldDesk on the same database as `first`: several instances, one office. Its `dispose`
 * stops only this server and leaves the database to `first`.
 */
export async function startSiblingServer(
  first: TestServer,
  settings: Settings = {},
  options: TestServerOptions = {},
): Promise<TestServer> {
  const shared: TestDatabase = { target: first.database.target, dispose: () => Promise.resolve() };
  return start(shared, settings, options);
}

/** The official MCP client over Streamable HTTP, optionally with a bearer token. */
export async function connectClient(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'holddesk-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
  });
  await client.connect(transport);
  return client;
}

/** Calls a tool and returns its `structuredContent`, the shape every HoldDesk tool answers with. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown> & { ok: boolean; spoken_summary: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Record<string, unknown> & { ok: boolean; spoken_summary: string };
}
