import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Settings } from '../../src/config.js';
import { PersonalTokens } from '../../src/gateway/personal-tokens.js';
import {
  ScriptedCarrier,
  type CallScript,
  type ScriptedCarrierOptions,
} from '../../src/gateway/scripted-carrier.js';
import { staffAccounts } from '../../src/store/staff.js';
import { openStore, type Store } from '../../src/store/store.js';
import type { DialectUnderTest } from '../support/databases.js';
import { bundledOfficeData } from '../support/office.js';
import { startTestServer, type TestServer, type TestServerOptions } from '../support/server.js';

export const BANK = '+13125550100';

/**
 * A bank's phone system: a greeting, a menu, an account-number prompt, a queue with hold music and
 * finally a person. The person hangs up a little after the call is handed over.
 */
export const BANK_SCRIPT: CallScript = {
  ringMs: 40,
  start: 'welcome',
  recording: true,
  afterBridgeMs: 200,
  nodes: {
    welcome: {
      play: [
        { kind: 'ivr', text: 'Thank you for calling Acme Bank. Calls may be recorded.' },
        {
          kind: 'ivr',
          text: 'For billing, press 2. For claims, press 3. To speak with a representative, press 0.',
        },
      ],
      on: { '2': 'billing', '3': 'claims', '0': 'queue' },
    },
    billing: {
      play: [{ kind: 'ivr', text: 'Billing. Please enter your account number, followed by pound.' }],
      on: { '12345678#': 'queue' },
    },
    claims: { play: [{ kind: 'ivr', text: 'Claims are closed today. Goodbye.' }], hangup: true },
    queue: {
      play: [
        { kind: 'ivr', text: 'Please hold for the next available agent.' },
        { kind: 'music', ms: 400 },
      ],
      then: 'agent',
    },
    agent: { play: [{ kind: 'human', text: 'Hi, this is Dana in billing. How can I help you today?' }] },
  },
};

export const BANK_FLOW = [
  { expect: 'for billing', press: '2' },
  { expect: 'account number', press: '12345678#' },
];

export const DESK_PHONE = 'sip:sam@desk.example';

export interface GatewayHarness {
  readonly server: TestServer;
  readonly carrier: ScriptedCarrier;
  /** A second connection to the server's database, for seeding and checking. */
  readonly store: Store;
  readonly officeId: string;
  /** Creates a staff account and mints a token for it. */
  staffToken(username: string, options?: { role?: 'admin' | 'staff'; days?: number }): Promise<string>;
  dispose(): Promise<void>;
}

export async function startGateway(
  dialect: DialectUnderTest,
  options: {
    settings?: Settings;
    carrier?: Partial<ScriptedCarrierOptions>;
    server?: TestServerOptions;
    withoutTrunk?: boolean;
  } = {},
): Promise<GatewayHarness> {
  const carrier = new ScriptedCarrier({
    scripts: { [BANK]: BANK_SCRIPT },
    frameIntervalMs: 2,
    registeredDevices: [DESK_PHONE],
    ...options.carrier,
  });
  const server = await startTestServer(dialect, options.settings, {
    ...options.server,
    ...(options.withoutTrunk ? {} : { telephony: { carrier, analysis: carrier.analysis } }),
  });
  const store = await openStore(server.database.target, { migrate: false });
  const officeId = (await bundledOfficeData()).office.id;
  const tokens = new PersonalTokens(store, officeId, options.server?.securityClock ?? (() => new Date()));
  return {
    server,
    carrier,
    store,
    officeId,
    async staffToken(username, { role = 'staff', days } = {}) {
      const accounts = staffAccounts(store.db, officeId);
      if (!(await accounts.find(username))) {
        await accounts.insert({
          username,
          display_name: username.replace(/^./, (c) => c.toUpperCase()),
          role,
          password_hash: 'unused',
          created_at: new Date().toISOString(),
          disabled_at: null,
        });
      }
      const minted = await tokens.mint({
        staff: username,
        name: `${username} test assistant`,
        expiresInDays: days,
        actor: { kind: 'system', id: 'test' },
      });
      if (!minted.ok) throw new Error(minted.error.message);
      return minted.value.token;
    },
    async dispose() {
      await store.close();
      await server.dispose();
    },
  };
}

export type StaffResult = Record<string, unknown> & {
  ok: boolean;
  summary: string;
  error?: { code: string; message: string };
};

/** Calls a staff tool and returns its `structuredContent`. */
export async function staffTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<StaffResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  return result.structuredContent as StaffResult;
}

/** Polls a call until it has ended (its runner wrote everything, summary included). */
export async function untilEnded(
  client: Client,
  callId: string,
  timeoutMs = 10_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await staffTool(client, 'get_call_status', { call_id: callId });
    const call = status.call as Record<string, unknown>;
    if (call.status === 'ended') {
      const summary = await staffTool(client, 'get_call_summary', { call_id: callId });
      if (summary.ok) return call;
    }
    if (Date.now() > deadline) throw new Error(`call ${callId} did not end: ${JSON.stringify(call)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Polls until `check` passes. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
