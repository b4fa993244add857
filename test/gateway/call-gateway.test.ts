import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CallGateway, LEASE_MS } from '../../src/gateway/call-gateway.js';
import { ScriptedCarrier, type CallScript } from '../../src/gateway/scripted-carrier.js';
import type { StaffPrincipal } from '../../src/gateway/staff-principal.js';
import type { TelephonyPort } from '../../src/gateway/telephony-port.js';
import type { CallView } from '../../src/gateway/views.js';
import { createLogger } from '../../src/logger.js';
import { calls } from '../../src/store/calls.js';
import type { Store } from '../../src/store/store.js';
import { createTestStore, DIALECTS } from '../support/databases.js';
import { bundledOfficeData } from '../support/office.js';
import { BANK, BANK_SCRIPT, DESK_PHONE } from './support.js';

const logger = createLogger({ logLevel: 'silent' });

const SAM: StaffPrincipal = {
  kind: 'staff',
  username: 'sam',
  displayName: 'Sam Rivera',
  role: 'staff',
  via: 'pat',
  credentialId: 'pat_test',
  clientId: 'pat:pat_test',
  scopes: ['gateway'],
};
const ADMIN: StaffPrincipal = {
  ...SAM,
  username: 'ada',
  displayName: 'Ada',
  role: 'admin',
  clientId: 'pat:ada',
};

const AI_LINE = '+13125550150';
const SLOW_MENU = '+13125550160';
const BUSY_LINE = '+13125550170';

const SCRIPTS: Record<string, CallScript> = {
  [BANK]: BANK_SCRIPT,
  [AI_LINE]: {
    ringMs: 20,
    start: 'menu',
    nodes: {
      menu: {
        play: [{ kind: 'ivr', text: 'For new policies, press 1. For billing and payments, press 2.' }],
        on: { '1': 'sales', '2': 'queue' },
      },
      sales: { play: [{ kind: 'human', text: 'Sales, how can I help?' }] },
      queue: { play: [{ kind: 'music', ms: 100 }], then: 'agent' },
      agent: { play: [{ kind: 'human', text: 'Billing, this is Lee.' }] },
    },
  },
  [SLOW_MENU]: {
    ringMs: 20,
    start: 'menu',
    nodes: {
      menu: { play: [{ kind: 'ivr', text: 'Welcome. Press 5 for anything.' }], on: { '5': 'queue' } },
      queue: { play: [{ kind: 'music', ms: 200 }], loop: true },
    },
  },
  [BUSY_LINE]: { outcome: 'busy', ringMs: 40, start: 'x', nodes: {} },
};

async function until<T>(check: () => Promise<T | undefined>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason)(`the call gateway on ${dialect.name}`, () => {
    let store: Store;
    let dispose: () => Promise<void>;
    let carrier: ScriptedCarrier;
    let gateway: CallGateway;
    let now: number;

    const make = async (telephony: TelephonyPort = carrier) => {
      const data = await bundledOfficeData();
      return new CallGateway({
        store,
        office: { id: data.office.id, name: data.office.name, timezone: data.office.timezone },
        clock: () => new Date(now),
        logger,
        limits: { maxConcurrent: 5, dailyLimit: 100 },
        telephony: { carrier: telephony, analysis: carrier.analysis },
      });
    };
    const status = async (id: string) => {
      const call = await gateway.call(id);
      if (!call.ok) throw new Error(call.error.message);
      return call.value;
    };
    const untilStatus = (id: string, wanted: string) =>
      until(async () => ((await status(id)).status === wanted ? true : undefined));
    const eventsOf = async (id: string) => {
      const result = await gateway.callEvents(id);
      if (!result.ok) throw new Error(result.error.message);
      return result.value.events;
    };
    const place = async (number: string, mode: 'direct' | 'hold_slayer' | 'ai_assisted', intent?: string) => {
      const placed = await gateway.placeCall(SAM, { number, mode, intent });
      if (!placed.ok) throw new Error(placed.error.message);
      return placed.value;
    };

    // One database for the file; each test gets its own gateway, which hangs up its calls when closed.
    beforeAll(async () => {
      ({ store, dispose } = await createTestStore(dialect));
      now = Date.now();
      carrier = new ScriptedCarrier({
        scripts: SCRIPTS,
        frameIntervalMs: 2,
        registeredDevices: [DESK_PHONE],
      });
      gateway = await make();
      const added = await gateway.addDevice(SAM, { name: 'Desk phone', kind: 'sip', address: DESK_PHONE });
      expect(added.ok).toBe(true);
      await gateway.close();
    });

    afterAll(async () => {
      await dispose();
    });

    beforeEach(async () => {
      now = Date.now();
      carrier = new ScriptedCarrier({
        scripts: SCRIPTS,
        frameIntervalMs: 2,
        registeredDevices: [DESK_PHONE],
      });
      gateway = await make();
    });

    afterEach(async () => {
      await gateway.close();
    });

    it('ai_assisted: picks the menu option from the intent and states the intent to the person', async () => {
      const call = await place(AI_LINE, 'ai_assisted', 'a question about my billing statement');
      await untilStatus(call.call_id, 'bridged');
      const leg = carrier.legs.at(-1)!;
      expect(leg.dtmf).toEqual(['2']);
      expect(leg.spoken).toEqual([
        expect.stringMatching(
          /^Hello, I am calling on behalf of Sam Rivera at .+ about a question about my billing statement\./,
        ) as string,
      ]);
      const events = await eventsOf(call.call_id);
      expect(events.find((e) => e.kind === 'dtmf')?.details).toEqual({ digits: '2', source: 'intent' });
      const transcript = await gateway.transcript(call.call_id);
      expect(transcript.ok && transcript.value.lines.map((l) => l.speaker)).toEqual([
        'ivr',
        'agent',
        'gateway',
      ]);
    });

    it('abandons a flow whose prompt does not come, and goes on as an exploration call', async () => {
      const flow = await gateway.createFlow(SAM, {
        name: 'Slow',
        phone_number: SLOW_MENU,
        steps: [{ expect: 'this is never said', press: '9', timeout_seconds: 1 }],
      });
      expect(flow.ok).toBe(true);
      const call = await place(SLOW_MENU, 'hold_slayer');
      await until(async () =>
        (await eventsOf(call.call_id)).some((e) => e.kind === 'flow_abandoned') ? true : undefined,
      );
      const abandoned = (await eventsOf(call.call_id)).find((e) => e.kind === 'flow_abandoned');
      expect(abandoned?.details).toMatchObject({ step: 1, reason: 'timeout' });
      const pressed = await gateway.sendDtmf(SAM, call.call_id, '5');
      expect(pressed.ok).toBe(true);
      await untilStatus(call.call_id, 'on_hold');
      expect(carrier.legs.at(-1)?.dtmf).toEqual(['5']);
    });

    it('refuses a transfer to an offline device, transfers on request, and not twice', async () => {
      const call = await place(SLOW_MENU, 'hold_slayer');
      await until(async () => ((await status(call.call_id)).status === 'ivr' ? true : undefined));
      await gateway.sendDtmf(SAM, call.call_id, '5');
      await untilStatus(call.call_id, 'on_hold');
      carrier.setRegistered(DESK_PHONE, false);
      expect(await gateway.transfer(SAM, call.call_id, 'sip')).toMatchObject({
        ok: false,
        error: { code: 'device_offline' },
      });
      expect((await gateway.devices('sam'))[0]).toMatchObject({ online: false });
      carrier.setRegistered(DESK_PHONE, true);
      expect(await gateway.transfer(SAM, call.call_id, 'Desk phone')).toMatchObject({ ok: true });
      await untilStatus(call.call_id, 'bridged');
      expect(await gateway.transfer(SAM, call.call_id, 'sip')).toMatchObject({
        ok: false,
        error: { code: 'call_not_transferable' },
      });
    });

    it('returns a call to the person when the transfer fails', async () => {
      await gateway.close();
      carrier = new ScriptedCarrier({
        scripts: SCRIPTS,
        frameIntervalMs: 2,
        registeredDevices: [DESK_PHONE],
        unansweredDevices: [DESK_PHONE],
      });
      gateway = await make();
      const call = await place(AI_LINE, 'ai_assisted', 'billing');
      await until(async () =>
        (await eventsOf(call.call_id)).some((e) => e.kind === 'transfer_failed') ? true : undefined,
      );
      expect((await status(call.call_id)).status).toBe('human_detected');
    });

    it('ends a call the far end never answers with its reason, and sums it up', async () => {
      const call = await place(BUSY_LINE, 'hold_slayer');
      await untilStatus(call.call_id, 'ended');
      expect(await status(call.call_id)).toMatchObject({ end_reason: 'busy', answered_at: null });
      const summary = await until(async () => {
        const s = await gateway.summary(call.call_id);
        return s.ok ? s.value : undefined;
      });
      expect(summary.action_items).toEqual([`Try ${BUSY_LINE} again later.`]);
      expect(await gateway.recording(call.call_id)).toMatchObject({
        ok: false,
        error: { code: 'no_recording' },
      });
    });

    it('ends a call as failed when the carrier refuses to place it', async () => {
      await gateway.close();
      const refusing: TelephonyPort = {
        status: () => ({ name: 'flaky', registered: true, detail: 'test' }),
        deviceOnline: () => true,
        place: () => Promise.reject(new Error('SIP 503')),
      };
      gateway = await make(refusing);
      const placed = await gateway.placeCall(SAM, { number: BANK });
      expect(placed).toMatchObject({ ok: true, value: { status: 'ended', end_reason: 'failed' } });
    });

    it('refuses calls while the trunk is not registered', async () => {
      await gateway.close();
      carrier = new ScriptedCarrier({ scripts: SCRIPTS, trunkRegistered: false });
      gateway = await make();
      expect(await gateway.placeCall(SAM, { number: BANK })).toMatchObject({
        ok: false,
        error: { code: 'trunk_unavailable' },
      });
      expect((await gateway.status()).trunk).toMatchObject({ configured: true, registered: false });
    });

    it("lets an admin control another staff member's call", async () => {
      const call = await place(SLOW_MENU, 'hold_slayer');
      const hung = await gateway.hangup(ADMIN, call.call_id);
      expect(hung).toMatchObject({ ok: true, value: { status: 'ended', end_reason: 'hung_up' } });
    });

    it('ends the calls of a stopped instance once their lease runs out, and only then', async () => {
      const call = await place(SLOW_MENU, 'hold_slayer');
      await untilStatus(call.call_id, 'ivr');
      // Another instance shares the database but does not drive this call.
      const other = await make();
      await other.maintain();
      expect((await status(call.call_id)).status).toBe('ivr');
      expect(await other.hangup(SAM, call.call_id)).toMatchObject({
        ok: false,
        error: { code: 'not_live_here' },
      });
      // This instance stops without ending the call (a crash): its lease runs out.
      const seen: CallView[] = [];
      other.events.subscribe((e) => {
        if (e.type === 'call.status') seen.push(e.call);
      });
      await calls(store.db, (await bundledOfficeData()).office.id).renewLeases(
        [call.call_id],
        new Date(now).toISOString(),
      );
      now += LEASE_MS;
      expect((await gateway.status()).active_calls).toBe(0);
      await other.maintain();
      expect(await status(call.call_id)).toMatchObject({ status: 'ended', end_reason: 'failed' });
      expect(seen.map((c) => c.status)).toEqual(['ended']);
      const last = (await eventsOf(call.call_id)).at(-1);
      expect(last?.details).toMatchObject({ status: 'ended', cause: 'instance_lost' });
      await other.close();
    });

    it('renews the leases of its own live calls', async () => {
      const call = await place(SLOW_MENU, 'hold_slayer');
      now += LEASE_MS - 1000;
      await gateway.maintain();
      now += LEASE_MS - 1000;
      expect((await gateway.status()).active_calls).toBe(1);
      await gateway.hangup(SAM, call.call_id);
    });

    it('hangs up its live calls when it closes', async () => {
      const call = await place(SLOW_MENU, 'hold_slayer');
      await untilStatus(call.call_id, 'ivr');
      await gateway.close();
      expect(await status(call.call_id)).toMatchObject({ status: 'ended', end_reason: 'failed' });
      expect(carrier.legs.at(-1)?.hungUp).toBe(true);
    });

    it('refuses devices and digits it cannot use', async () => {
      expect(
        await gateway.addDevice(SAM, { name: 'x'.repeat(61), kind: 'sip', address: DESK_PHONE }),
      ).toMatchObject({
        error: { code: 'invalid_device' },
      });
      expect(
        await gateway.addDevice(SAM, { name: 'Fax', kind: 'fax', address: '+13125550101' }),
      ).toMatchObject({
        error: { code: 'invalid_device' },
      });
      expect(await gateway.removeDevice(SAM, 'dev_missing')).toMatchObject({ error: { code: 'not_found' } });
      const call = await place(SLOW_MENU, 'hold_slayer');
      expect(await gateway.sendDtmf(SAM, call.call_id, '12x')).toMatchObject({
        error: { code: 'invalid_digits' },
      });
      expect(await gateway.sendDtmf(SAM, call.call_id, '4111111111111111')).toMatchObject({
        error: { code: 'sensitive_number' },
      });
      await gateway.hangup(SAM, call.call_id);
    });

    it('keeps the words cut off by a hang-up in the transcript', async () => {
      carrier.addScript('+13125550180', {
        ringMs: 20,
        start: 'a',
        nodes: { a: { play: [{ kind: 'ivr', text: 'This is a very long announcement.', ms: 60_000 }] } },
      });
      const call = await place('+13125550180', 'hold_slayer');
      await untilStatus(call.call_id, 'connected');
      await new Promise((resolve) => setTimeout(resolve, 50));
      await gateway.hangup(SAM, call.call_id);
      const transcript = await gateway.transcript(call.call_id);
      expect(transcript.ok && transcript.value.lines).toEqual([
        expect.objectContaining({ speaker: 'ivr', text: 'This is a very long announcement.', offset_ms: 0 }),
      ]);
    });

    it('refuses digits before the call is answered', async () => {
      await gateway.close();
      carrier = new ScriptedCarrier({
        scripts: { [SLOW_MENU]: { ...SCRIPTS[SLOW_MENU]!, ringMs: 5000 } },
        frameIntervalMs: 20,
      });
      gateway = await make();
      const call = await place(SLOW_MENU, 'hold_slayer');
      expect(await gateway.sendDtmf(SAM, call.call_id, '1')).toMatchObject({
        ok: false,
        error: { code: 'call_not_connected' },
      });
      expect(await gateway.hangup(SAM, call.call_id)).toMatchObject({
        ok: true,
        value: { end_reason: 'hung_up' },
      });
    });
  });
}
