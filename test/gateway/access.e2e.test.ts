import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalTokens } from '../../src/store/personal-tokens.js';
import { staffAccounts } from '../../src/store/staff.js';
import { DIALECTS } from '../support/databases.js';
import { discover, OAUTH_SETTINGS, serviceToken, userTokens } from '../support/oauth.js';
import { connectClient } from '../support/server.js';
import { BANK, staffTool, startGateway, type GatewayHarness } from './support.js';

const CALLER_TOKEN = 'static-caller-token-0123456789';
const DAY_MS = 24 * 60 * 60 * 1000;

const TOOLS = [
  'create_call_flow',
  'gateway_status',
  'get_call_flow',
  'get_call_recording',
  'get_call_status',
  'get_call_summary',
  'get_call_transcript',
  'hangup',
  'learn_call_flow',
  'list_active_calls',
  'list_devices',
  'make_call',
  'search_call_history',
  'send_dtmf',
  'transfer_call',
];

const initialize = (url: string, token?: string) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'probe', version: '1' },
      },
    }),
  });

/** The official client's connect, expected to fail; resolves with the HTTP status it failed on. */
async function connectFails(url: string, token: string | undefined): Promise<number | undefined> {
  const client = new Client({ name: 'holddesk-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
  });
  const error = await client.connect(transport).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  await client.close();
  expect(error).toBeInstanceOf(Error);
  return (error as Error & { code?: number }).code;
}

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason)(`staff MCP access on ${dialect.name}`, () => {
    let harness: GatewayHarness;
    let now = Date.now();

    beforeAll(async () => {
      harness = await startGateway(dialect, {
        settings: { bearerToken: CALLER_TOKEN, dailyCallLimit: '2' },
        server: { securityClock: () => new Date(now) },
      });
    });

    afterAll(async () => {
      await harness?.dispose();
    });

    const staffUrl = () => `${harness.server.url}/staff/mcp`;

    describe('/staff/mcp', () => {
      it('answers 401 without a token, with the caller bearer token and with made-up tokens', async () => {
        for (const token of [undefined, CALLER_TOKEN, 'hd_pat_' + 'A'.repeat(43), 'hd_pat_short', 'a.b.c']) {
          const response = await initialize(staffUrl(), token);
          expect(response.status).toBe(401);
          expect(response.headers.get('www-authenticate')).toBeNull();
          expect(await response.json()).toEqual({ error: 'unauthorized' });
        }
        expect(await connectFails(staffUrl(), undefined)).toBe(401);
        expect(await connectFails(staffUrl(), CALLER_TOKEN)).toBe(401);
      });

      it('lists the 15 tools and the 3 resources to a staff token', async () => {
        const client = await connectClient(staffUrl(), await harness.staffToken('sam'));
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
        expect(tools.find((t) => t.name === 'make_call')?.inputSchema.required).toEqual(['number']);
        expect(tools.find((t) => t.name === 'hangup')?.annotations).toMatchObject({ destructiveHint: true });
        const { resources } = await client.listResources();
        expect(resources.map((r) => r.uri).sort()).toEqual([
          'gateway://active-calls',
          'gateway://call-flows',
          'gateway://status',
        ]);
        const status = await client.readResource({ uri: 'gateway://status' });
        expect(JSON.parse((status.contents[0] as { text: string }).text)).toMatchObject({
          trunk: { configured: true, registered: true, name: 'scripted' },
          limits: { daily_call_limit: 2 },
        });
        // Stateless servers have nowhere to push updates, so they do not offer subscriptions.
        expect(client.getServerCapabilities()?.resources?.subscribe).toBe(false);
        await client.close();
      });

      it('stops accepting a token once it is revoked', async () => {
        const token = await harness.staffToken('rev');
        const client = await connectClient(staffUrl(), token);
        expect(await staffTool(client, 'gateway_status')).toMatchObject({ ok: true });
        const [row] = await personalTokens(harness.store.db, harness.officeId).list('rev');
        await personalTokens(harness.store.db, harness.officeId).revoke(row!.id, new Date().toISOString());
        await expect(client.listTools()).rejects.toMatchObject({ code: 401 });
        expect((await initialize(staffUrl(), token)).status).toBe(401);
        await client.close();
      });

      it('stops accepting a token once it expires', async () => {
        const token = await harness.staffToken('exp', { days: 1 });
        expect((await initialize(staffUrl(), token)).status).toBe(200);
        now += DAY_MS + 1000;
        try {
          expect((await initialize(staffUrl(), token)).status).toBe(401);
        } finally {
          now = Date.now();
        }
      });

      it('refuses the tokens of a disabled staff member', async () => {
        const token = await harness.staffToken('gone');
        expect((await initialize(staffUrl(), token)).status).toBe(200);
        await staffAccounts(harness.store.db, harness.officeId).disable('gone', new Date().toISOString());
        expect((await initialize(staffUrl(), token)).status).toBe(401);
      });

      it('records when a token was last used', async () => {
        const token = await harness.staffToken('uses');
        const [before] = await personalTokens(harness.store.db, harness.officeId).list('uses');
        expect(before?.last_used_at).toBeNull();
        await initialize(staffUrl(), token);
        const [after] = await personalTokens(harness.store.db, harness.officeId).list('uses');
        expect(after?.last_used_at).not.toBeNull();
      });
    });

    describe('/mcp', () => {
      it('refuses a staff token where the caller bearer token is required', async () => {
        const token = await harness.staffToken('sam');
        expect((await initialize(harness.server.mcpUrl, token)).status).toBe(401);
        expect((await initialize(harness.server.mcpUrl, CALLER_TOKEN)).status).toBe(200);
      });
    });

    describe('the daily budget', () => {
      it('refuses calls once the day is used up', async () => {
        const client = await connectClient(staffUrl(), await harness.staffToken('budget'));
        for (let i = 0; i < 2; i++) {
          const call = await staffTool(client, 'make_call', { number: BANK });
          expect(call).toMatchObject({ ok: true });
          await staffTool(client, 'hangup', { call_id: call.call_id });
        }
        expect(await staffTool(client, 'make_call', { number: BANK })).toMatchObject({
          ok: false,
          error: { code: 'daily_limit', calls_today: 2, daily_call_limit: 2 },
        });
        expect(await staffTool(client, 'gateway_status')).toMatchObject({
          limits: { calls_today: 2, daily_call_limit: 2 },
        });
        await client.close();
      });
    });
  });
}

describe('a gateway without a trunk', () => {
  let harness: GatewayHarness;

  beforeAll(async () => {
    harness = await startGateway(DIALECTS[0]!, { withoutTrunk: true });
  });

  afterAll(async () => {
    await harness?.dispose();
  });

  it('refuses make_call with no_trunk_configured and says so in gateway_status', async () => {
    const client = await connectClient(`${harness.server.url}/staff/mcp`, await harness.staffToken('sam'));
    expect(await staffTool(client, 'make_call', { number: BANK })).toMatchObject({
      ok: false,
      error: { code: 'no_trunk_configured' },
      summary: expect.stringContaining('No telephone trunk') as string,
    });
    expect(await staffTool(client, 'gateway_status')).toMatchObject({
      ok: true,
      trunk: { configured: false, registered: false },
      analysis: null,
      summary: expect.stringContaining('No trunk configured') as string,
    });
    expect(await staffTool(client, 'list_devices')).toMatchObject({ ok: true, devices: [] });
    await client.close();
  });
});

describe('a gateway beside the OAuth caller surface', () => {
  let harness: GatewayHarness;

  beforeAll(async () => {
    harness = await startGateway(DIALECTS[0]!, { settings: OAUTH_SETTINGS });
  });

  afterAll(async () => {
    await harness?.dispose();
  });

  it("refuses callers' OAuth access tokens, service and user level alike", async () => {
    const as = await discover(harness.server.url);
    const service = await serviceToken(as);
    const user = await userTokens(harness.server.url, as);
    for (const token of [service.access_token, user.access_token]) {
      expect((await initialize(harness.server.mcpUrl, token)).status).toBe(200);
      expect((await initialize(`${harness.server.url}/staff/mcp`, token)).status).toBe(401);
      const api = await fetch(`${harness.server.url}/api/calls`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(api.status).toBe(401);
    }
  });

  it('refuses staff tokens on the caller surface', async () => {
    const token = await harness.staffToken('sam');
    expect((await initialize(harness.server.mcpUrl, token)).status).toBe(401);
  });
});
