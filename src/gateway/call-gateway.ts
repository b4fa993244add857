import { sql } from 'kysely';
import {
  learnFlow,
  parseFlowSteps,
  DTMF_DIGITS,
  type ExplorationEntry,
  type FlowStep,
} from '../core/calls/call-flows.js';
import { checkCallLimits, officeDayStart, type CallLimits } from '../core/calls/call-limits.js';
import {
  CALL_MODES,
  isActive,
  navigatesMenus,
  newCallTimeline,
  type CallMode,
  type CallStatus,
} from '../core/calls/call-state.js';
import { checkDialable, parseE164 } from '../core/calls/phone-numbers.js';
import { refusal, success, type Result } from '../core/result.js';
import { findSensitiveNumbers } from '../core/sensitive.js';
import type { Logger } from '../logger.js';
import { auditTrail, type AuditEvent } from '../store/audit.js';
import { calls, type CallRecord } from '../store/calls.js';
import { gatewayDevices, type DeviceRecord } from '../store/gateway-devices.js';
import { gatewayFlows, type CallFlowRecord } from '../store/gateway-flows.js';
import { isUniqueViolation, type Executor, type Store } from '../store/store.js';
import type { AudioAnalysisPort } from './analysis-port.js';
import { CallRunner, type RunnerFlow } from './call-runner.js';
import { GatewayEvents } from './events.js';
import { newId } from './ids.js';
import { mayControl, type StaffPrincipal } from './staff-principal.js';
import type { DeviceAddress, TelephonyPort } from './telephony-port.js';
import {
  callEventView,
  callView,
  deviceView,
  flowView,
  transcriptLineView,
  type CallEventView,
  type CallView,
  type DeviceView,
  type FlowView,
  type TranscriptLineView,
} from './views.js';

/**
 * The call gateway's use cases, shared by every staff surface (MCP tools, REST, the desk): place and
 * control calls, read their records, manage call flows and devices. Rules come from
 * `core/calls`; this class checks access, persists, and keeps the live calls of this instance.
 *
 * Live calls are driven by the instance that placed them (its carrier leg is here); their state is
 * in the database, and a lease the instance renews tells the others it is still alive. A call whose
 * lease ran out (its instance stopped) is ended as failed by whichever instance notices.
 */
export interface GatewayTelephony {
  readonly carrier: TelephonyPort;
  readonly analysis: AudioAnalysisPort;
}

export interface GatewayDependencies {
  readonly store: Store;
  readonly office: { readonly id: string; readonly name: string; readonly timezone: string };
  readonly clock: () => Date;
  readonly logger: Logger;
  readonly limits: CallLimits;
  readonly telephony?: GatewayTelephony | undefined;
}

export interface PlaceCallInput {
  readonly number: string;
  readonly mode?: string | undefined;
  readonly intent?: string | undefined;
  readonly call_flow_id?: string | undefined;
  readonly device?: string | undefined;
}

export interface CallFlowInput {
  readonly name: string;
  readonly phone_number: string;
  readonly steps: unknown;
  readonly notes?: string | undefined;
}

export interface DeviceInput {
  readonly name: string;
  readonly kind: string;
  readonly address: string;
}

export interface GatewayStatusView {
  readonly trunk: {
    readonly configured: boolean;
    readonly registered: boolean;
    readonly name: string | null;
    readonly detail: string;
  };
  readonly analysis: string | null;
  readonly devices: { readonly total: number; readonly online: number };
  readonly active_calls: number;
  readonly limits: {
    readonly max_concurrent_calls: number;
    readonly daily_call_limit: number;
    readonly calls_today: number;
  };
}

export const LEASE_MS = 90_000;
const LEASE_RENEW_MS = 30_000;
const MAX_INTENT = 500;
const RECENT_LINES = 5;

const notFound = (what: string) => refusal('not_found', `There is no such ${what}.`);

const NO_TRUNK = refusal(
  'no_trunk_configured',
  'No telephone trunk is configured, so the gateway cannot place calls yet.',
);

export class CallGateway {
  readonly events: GatewayEvents;
  readonly #live = new Map<string, CallRunner>();
  readonly #maintenance: NodeJS.Timeout;

  constructor(private readonly deps: GatewayDependencies) {
    this.events = new GatewayEvents(deps.logger);
    this.#maintenance = setInterval(() => {
      this.maintain().catch((error: unknown) => deps.logger.warn({ err: error }, 'call lease upkeep failed'));
    }, LEASE_RENEW_MS);
    this.#maintenance.unref();
  }

  get #officeId(): string {
    return this.deps.office.id;
  }

  #now(): string {
    return this.deps.clock().toISOString();
  }

  #calls(db: Executor = this.deps.store.db) {
    return calls(db, this.#officeId);
  }

  #audit(
    tx: Executor,
    staff: StaffPrincipal,
    event: Omit<AuditEvent, 'actor_kind' | 'actor_id' | 'actor_name'>,
  ) {
    return auditTrail(tx, this.#officeId, this.deps.store.dialect).append({
      ...event,
      actor_kind: 'staff',
      actor_id: staff.username,
      actor_name: staff.displayName,
    });
  }

  // ---- status ----------------------------------------------------------------------------------

  async status(): Promise<GatewayStatusView> {
    const carrier = this.deps.telephony?.carrier;
    const trunk = carrier?.status();
    const now = this.deps.clock();
    const devices = await gatewayDevices(this.deps.store.db, this.#officeId).list();
    const [active, today] = await Promise.all([
      this.#calls().countActive(now.toISOString()),
      this.#calls().countPlacedSince(officeDayStart(now, this.deps.office.timezone).toISOString()),
    ]);
    return {
      trunk: trunk
        ? { configured: true, registered: trunk.registered, name: trunk.name, detail: trunk.detail }
        : {
            configured: false,
            registered: false,
            name: null,
            detail: 'no trunk configured: make_call is refused',
          },
      analysis: this.deps.telephony?.analysis.name ?? null,
      devices: { total: devices.length, online: devices.filter((d) => this.#online(d)).length },
      active_calls: active,
      limits: {
        max_concurrent_calls: this.deps.limits.maxConcurrent,
        daily_call_limit: this.deps.limits.dailyLimit,
        calls_today: today,
      },
    };
  }

  // ---- placing calls ---------------------------------------------------------------------------

  async placeCall(staff: StaffPrincipal, input: PlaceCallInput): Promise<Result<CallView>> {
    const telephony = this.deps.telephony;
    if (!telephony) return NO_TRUNK;
    const dialable = checkDialable(input.number);
    if (!dialable.ok) return dialable;
    const mode = (input.mode ?? 'direct') as CallMode;
    if (!CALL_MODES.includes(mode)) {
      return refusal('invalid_mode', `mode is one of ${CALL_MODES.join(', ')}.`);
    }
    const intent = input.intent?.trim() || null;
    if (intent && (intent.length > MAX_INTENT || findSensitiveNumbers(intent).length > 0)) {
      return intent.length > MAX_INTENT
        ? refusal('invalid_intent', `Keep the intent under ${MAX_INTENT} characters.`)
        : refusal('sensitive_number', 'Leave card and social security numbers out of the intent.');
    }
    if (mode === 'ai_assisted' && !intent) {
      return refusal('intent_required', 'ai_assisted calls need an intent: what the call is about.');
    }
    const flow = await this.#flowFor(mode, input.call_flow_id, dialable.value);
    if (!flow.ok) return flow;
    let device: DeviceRecord | undefined;
    if (input.device) {
      device = await this.#findDevice(staff.username, input.device);
      if (!device)
        return refusal('unknown_device', `You have no device "${input.device}"; see list_devices.`);
    }
    const trunk = telephony.carrier.status();
    if (!trunk.registered) {
      return refusal('trunk_unavailable', `The trunk ${trunk.name} is not registered: ${trunk.detail}.`);
    }

    const now = this.deps.clock();
    const at = now.toISOString();
    const row: CallRecord = {
      id: newId('call'),
      office_id: this.#officeId,
      placed_by: staff.username,
      placed_via: staff.via,
      credential_id: staff.credentialId,
      number: dialable.value,
      mode,
      intent,
      call_flow_id: flow.value?.id ?? null,
      device_id: device?.id ?? null,
      ...newCallTimeline(at),
      classification: null,
      updated_at: at,
      lease_until: new Date(now.getTime() + LEASE_MS).toISOString(),
    };
    const placed = await this.deps.store.transaction(async (tx) => {
      await this.#lockCalls(tx);
      const repo = this.#calls(tx);
      const usage = {
        active: await repo.countActive(at),
        placedToday: await repo.countPlacedSince(
          officeDayStart(now, this.deps.office.timezone).toISOString(),
        ),
      };
      const allowed = checkCallLimits(this.deps.limits, usage);
      if (!allowed.ok) return allowed;
      const { office_id: _office, ...record } = row;
      await repo.insert(record);
      await repo.appendEvent({
        call_id: row.id,
        seq: 1,
        at,
        kind: 'status',
        details_json: JSON.stringify({ status: 'initiating' }),
      });
      await this.#audit(tx, staff, {
        at,
        action: 'call.placed',
        target_type: 'call',
        target_id: row.id,
        details: {
          number: row.number,
          mode,
          intent,
          call_flow_id: row.call_flow_id,
          via: staff.via,
          credential_id: staff.credentialId,
        },
      });
      return success(undefined);
    });
    if (!placed.ok) return placed;

    const runner = new CallRunner(
      {
        store: this.deps.store,
        officeId: this.#officeId,
        officeName: this.deps.office.name,
        clock: this.deps.clock,
        logger: this.deps.logger,
        events: this.events,
        carrier: telephony.carrier,
        analysis: telephony.analysis,
        resolveDevice: (username, hint) => this.#reachableDevice(username, hint),
        onFinished: (id) => this.#live.delete(id),
      },
      row,
      staff.displayName,
      flow.value,
      1,
    );
    this.#live.set(row.id, runner);
    this.events.publish({ type: 'call.status', call: callView(row, at) });
    await runner.start();
    return success(callView(runner.row, this.#now()));
  }

  /** Serialises call placement per office, so the cap and the budget hold under concurrent requests. */
  async #lockCalls(tx: Executor): Promise<void> {
    // SQLite transactions here begin IMMEDIATE and already exclude other writers.
    if (this.deps.store.dialect === 'postgres') {
      await sql`select pg_advisory_xact_lock(hashtext(${`holddesk.calls.${this.#officeId}`}))`.execute(tx);
    }
  }

  async #flowFor(
    mode: CallMode,
    flowId: string | undefined,
    number: string,
  ): Promise<Result<RunnerFlow | undefined>> {
    if (!navigatesMenus(mode)) {
      return flowId
        ? refusal(
            'invalid_mode',
            'Direct calls do not navigate menus; use hold_slayer or ai_assisted with a call flow.',
          )
        : success(undefined);
    }
    const repo = gatewayFlows(this.deps.store.db, this.#officeId);
    // Without an explicit flow, the number's stored flow is followed: that is what learning is for.
    const record = flowId ? await repo.find(flowId) : await repo.findByNumber(number);
    if (!record) return flowId ? notFound('call flow') : success(undefined);
    return success({ id: record.id, steps: JSON.parse(record.steps_json) as FlowStep[] });
  }

  // ---- controlling calls -----------------------------------------------------------------------

  /** The live runner of a call `staff` may control, or why not. */
  async #controllable(staff: StaffPrincipal, callId: string): Promise<Result<CallRunner>> {
    const row = await this.#calls().find(callId);
    if (!row) return notFound('call');
    if (!mayControl(staff, row.placed_by)) {
      return refusal(
        'not_your_call',
        `Only ${row.placed_by}, who placed this call, or an admin can do that.`,
      );
    }
    if (!isActive(row.status as CallStatus))
      return refusal('call_not_active', 'That call has already ended.');
    const runner = this.#live.get(callId);
    if (!runner) {
      return refusal(
        'not_live_here',
        'This call is driven by another HoldDesk instance; try again through it.',
      );
    }
    return success(runner);
  }

  async hangup(staff: StaffPrincipal, callId: string): Promise<Result<CallView>> {
    const runner = await this.#controllable(staff, callId);
    if (!runner.ok) return runner;
    await this.#recordAction(staff, callId, 'call.hung_up', {});
    await runner.value.hangup();
    return this.call(callId);
  }

  async sendDtmf(staff: StaffPrincipal, callId: string, digits: string): Promise<Result<CallView>> {
    const compact = digits.replace(/[\s-]/g, '');
    if (!DTMF_DIGITS.test(compact)) {
      return refusal('invalid_digits', 'DTMF digits are 0-9, *, # and A-D, at most 32 at a time.');
    }
    if (findSensitiveNumbers(compact).length > 0) {
      return refusal(
        'sensitive_number',
        'Card and social security numbers are not sent through the gateway.',
      );
    }
    const runner = await this.#controllable(staff, callId);
    if (!runner.ok) return runner;
    const sent = await runner.value.sendDtmf(compact);
    if (!sent.ok) return sent;
    return this.call(callId);
  }

  async transfer(staff: StaffPrincipal, callId: string, deviceHint: string): Promise<Result<CallView>> {
    const runner = await this.#controllable(staff, callId);
    if (!runner.ok) return runner;
    const device = await this.#findDevice(staff.username, deviceHint);
    if (!device) return refusal('unknown_device', `You have no device "${deviceHint}"; see list_devices.`);
    if (!this.#online(device)) return refusal('device_offline', `${device.name} is offline.`);
    const moved = await runner.value.transfer(device);
    if (!moved.ok) return moved;
    await this.#recordAction(staff, callId, 'call.transferred', { device_id: device.id });
    return this.call(callId);
  }

  async #recordAction(
    staff: StaffPrincipal,
    callId: string,
    action: string,
    details: Record<string, string>,
  ) {
    await this.deps.store.transaction((tx) =>
      this.#audit(tx, staff, { at: this.#now(), action, target_type: 'call', target_id: callId, details }),
    );
  }

  // ---- reading calls ---------------------------------------------------------------------------

  async call(callId: string): Promise<Result<CallView & { recent_transcript: TranscriptLineView[] }>> {
    const row = await this.#calls().find(callId);
    if (!row) return notFound('call');
    const lines = await this.#calls().listLines(callId, RECENT_LINES);
    return success({ ...callView(row, this.#now()), recent_transcript: lines.map(transcriptLineView) });
  }

  async activeCalls(): Promise<CallView[]> {
    const now = this.#now();
    return (await this.#calls().listActive()).map((row) => callView(row, now));
  }

  async transcript(
    callId: string,
  ): Promise<Result<{ call_id: string; status: string; lines: TranscriptLineView[] }>> {
    const row = await this.#calls().find(callId);
    if (!row) return notFound('call');
    const lines = await this.#calls().listLines(callId);
    return success({ call_id: callId, status: row.status, lines: lines.map(transcriptLineView) });
  }

  async callEvents(callId: string): Promise<Result<{ call_id: string; events: CallEventView[] }>> {
    const row = await this.#calls().find(callId);
    if (!row) return notFound('call');
    return success({ call_id: callId, events: (await this.#calls().listEvents(callId)).map(callEventView) });
  }

  async recording(callId: string) {
    const row = await this.#calls().find(callId);
    if (!row) return notFound('call');
    const recording = await this.#calls().findRecording(callId);
    if (!recording) return refusal('no_recording', 'There is no recording of that call.');
    return success({
      call_id: callId,
      location: recording.location,
      format: recording.format,
      duration_seconds: Math.round(Number(recording.duration_ms) / 1000),
      created_at: recording.created_at,
    });
  }

  async summary(callId: string) {
    const row = await this.#calls().find(callId);
    if (!row) return notFound('call');
    const summary = await this.#calls().findSummary(callId);
    if (!summary) {
      return isActive(row.status as CallStatus)
        ? refusal('call_not_completed', 'The call is still in progress; its summary is written when it ends.')
        : refusal('no_summary', 'That call has no summary.');
    }
    return success({
      call_id: callId,
      summary: summary.summary,
      action_items: JSON.parse(summary.action_items_json) as string[],
      sentiment: summary.sentiment,
      created_at: summary.created_at,
    });
  }

  async searchHistory(filter: {
    phone_number?: string | undefined;
    intent?: string | undefined;
    limit?: number | undefined;
  }) {
    const limit = Math.min(Math.max(filter.limit ?? 10, 1), 100);
    const rows = await this.#calls().search({ phone: filter.phone_number, intent: filter.intent, limit });
    const now = this.#now();
    return rows.map((row) => callView(row, now));
  }

  // ---- call flows ------------------------------------------------------------------------------

  async flows(): Promise<FlowView[]> {
    return (await gatewayFlows(this.deps.store.db, this.#officeId).list()).map(flowView);
  }

  async flowByNumber(phoneNumber: string): Promise<Result<FlowView>> {
    const number = parseE164(phoneNumber);
    if (!number.ok) return number;
    const record = await gatewayFlows(this.deps.store.db, this.#officeId).findByNumber(number.value);
    return record ? success(flowView(record)) : notFound(`call flow for ${number.value}`);
  }

  async flow(id: string): Promise<Result<FlowView>> {
    const record = await gatewayFlows(this.deps.store.db, this.#officeId).find(id);
    return record ? success(flowView(record)) : notFound('call flow');
  }

  async createFlow(staff: StaffPrincipal, input: CallFlowInput): Promise<Result<FlowView>> {
    const name = input.name.trim();
    const notes = input.notes?.trim() || null;
    if (name === '' || name.length > 120)
      return refusal('invalid_call_flow', 'Name the flow in 1-120 characters.');
    if (notes && notes.length > 2000)
      return refusal('invalid_call_flow', 'Keep notes under 2000 characters.');
    if (findSensitiveNumbers(`${name}\n${notes ?? ''}`).length > 0) {
      return refusal('sensitive_number', 'Call flows must not contain card or social security numbers.');
    }
    const number = checkDialable(input.phone_number);
    if (!number.ok) return number;
    const steps = parseFlowSteps(input.steps);
    if (!steps.ok) return steps;
    const at = this.#now();
    const record: CallFlowRecord = {
      id: newId('flow'),
      office_id: this.#officeId,
      name,
      phone_number: number.value,
      steps_json: JSON.stringify(steps.value),
      notes,
      source: 'manual',
      learned_from_call_id: null,
      version: 1,
      created_by: staff.username,
      created_at: at,
      updated_at: at,
    };
    return this.#insertFlow(staff, record, 'call_flow.created');
  }

  async #insertFlow(
    staff: StaffPrincipal,
    record: CallFlowRecord,
    action: string,
  ): Promise<Result<FlowView>> {
    try {
      await this.deps.store.transaction(async (tx) => {
        const { office_id: _office, ...values } = record;
        await gatewayFlows(tx, this.#officeId).insert(values);
        await this.#audit(tx, staff, {
          at: record.created_at,
          action,
          target_type: 'call_flow',
          target_id: record.id,
          details: { phone_number: record.phone_number, steps: JSON.parse(record.steps_json) as never },
        });
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const existing = await gatewayFlows(this.deps.store.db, this.#officeId).findByNumber(
        record.phone_number,
      );
      return refusal(
        'flow_exists',
        `${record.phone_number} already has a call flow; learn_call_flow refines it.`,
        {
          call_flow_id: existing?.id ?? null,
        },
      );
    }
    this.events.publish({ type: 'call_flows.changed', call_flow_id: record.id });
    return success(flowView(record));
  }

  /** What an ended call heard and did before it reached the queue or a person, from its event log. */
  async #exploration(callId: string): Promise<ExplorationEntry[]> {
    const entries: ExplorationEntry[] = [];
    for (const event of await this.#calls().listEvents(callId)) {
      const details = JSON.parse(event.details_json) as {
        text?: string;
        digits?: string;
        status?: string;
        source?: string;
      };
      if (event.kind === 'prompt' && details.text) entries.push({ kind: 'prompt', text: details.text });
      else if (event.kind === 'dtmf' && details.digits)
        entries.push({ kind: 'press', digits: details.digits });
      else if (event.kind === 'say' && details.text && details.source !== 'intro')
        entries.push({ kind: 'say', text: details.text });
      else if (event.kind === 'status' && details.status === 'on_hold')
        entries.push({ kind: 'reached', what: 'hold' });
      else if (event.kind === 'status' && details.status === 'human_detected')
        entries.push({ kind: 'reached', what: 'human' });
    }
    return entries;
  }

  async learnFlow(
    staff: StaffPrincipal,
    callId: string,
    companyName: string | undefined,
  ): Promise<Result<FlowView & { changed: boolean }>> {
    const row = await this.#calls().find(callId);
    if (!row) return notFound('call');
    if (isActive(row.status as CallStatus)) {
      return refusal('call_not_completed', 'Learn from a call once it has ended.');
    }
    if (!navigatesMenus(row.mode as CallMode)) {
      return refusal(
        'not_an_exploration_call',
        'Direct calls do not explore menus; use a hold_slayer or ai_assisted call.',
      );
    }
    const name = companyName?.trim();
    if (name !== undefined && (name.length > 120 || findSensitiveNumbers(name).length > 0)) {
      return refusal('invalid_call_flow', 'Give a company name of at most 120 characters.');
    }
    const repo = gatewayFlows(this.deps.store.db, this.#officeId);
    const existing = await repo.findByNumber(row.number);
    const existingSteps = existing ? (JSON.parse(existing.steps_json) as FlowStep[]) : undefined;
    const learned = learnFlow(await this.#exploration(callId), existingSteps);
    if (!learned.ok) return learned;
    const checked = parseFlowSteps(learned.value);
    if (!checked.ok) return checked;
    const stepsJson = JSON.stringify(checked.value);
    const at = this.#now();
    if (!existing) {
      const created = await this.#insertFlow(
        staff,
        {
          id: newId('flow'),
          office_id: this.#officeId,
          name: name || `Learned flow for ${row.number}`,
          phone_number: row.number,
          steps_json: stepsJson,
          notes: null,
          source: 'learned',
          learned_from_call_id: callId,
          version: 1,
          created_by: staff.username,
          created_at: at,
          updated_at: at,
        },
        'call_flow.learned',
      );
      return created.ok ? success({ ...created.value, changed: true }) : created;
    }
    if (existing.steps_json === stepsJson) return success({ ...flowView(existing), changed: false });
    const change = {
      steps_json: stepsJson,
      notes: existing.notes,
      source: 'learned' as const,
      learned_from_call_id: callId,
      updated_at: at,
    };
    const revised = await this.deps.store.transaction(async (tx) => {
      if (!(await gatewayFlows(tx, this.#officeId).revise(existing.id, Number(existing.version), change)))
        return false;
      await this.#audit(tx, staff, {
        at,
        action: 'call_flow.learned',
        target_type: 'call_flow',
        target_id: existing.id,
        details: {
          phone_number: existing.phone_number,
          learned_from_call_id: callId,
          steps: checked.value as never,
        },
      });
      return true;
    });
    if (!revised) return refusal('flow_changed', 'The flow was changed meanwhile; try again.');
    this.events.publish({ type: 'call_flows.changed', call_flow_id: existing.id });
    return success({
      ...flowView({ ...existing, ...change, version: Number(existing.version) + 1 }),
      changed: true,
    });
  }

  // ---- devices ---------------------------------------------------------------------------------

  #online(device: DeviceRecord): boolean {
    const address: DeviceAddress = { kind: device.kind, address: device.address };
    return this.deps.telephony?.carrier.deviceOnline(address) ?? false;
  }

  async devices(username?: string): Promise<DeviceView[]> {
    const rows = await gatewayDevices(this.deps.store.db, this.#officeId).list(username);
    return rows.map((row) => deviceView(row, this.#online(row)));
  }

  /** A device of `username` by id, name or kind (`sip`, `phone`); reachable ones first. */
  async #findDevice(username: string, hint: string): Promise<DeviceRecord | undefined> {
    const wanted = hint.trim().toLowerCase();
    const mine = await gatewayDevices(this.deps.store.db, this.#officeId).list(username);
    const matching = mine.filter(
      (d) => d.id === hint.trim() || d.name.toLowerCase() === wanted || d.kind === wanted,
    );
    return matching.find((d) => this.#online(d)) ?? matching[0];
  }

  async #reachableDevice(username: string, hint: string | undefined): Promise<DeviceRecord | undefined> {
    if (hint) {
      const device = await this.#findDevice(username, hint);
      return device && this.#online(device) ? device : undefined;
    }
    const mine = await gatewayDevices(this.deps.store.db, this.#officeId).list(username);
    const online = mine.filter((d) => this.#online(d));
    return online.find((d) => d.kind === 'sip') ?? online[0];
  }

  async addDevice(staff: StaffPrincipal, input: DeviceInput): Promise<Result<DeviceView>> {
    const name = input.name.trim();
    if (name === '' || name.length > 60)
      return refusal('invalid_device', 'Name the device in 1-60 characters.');
    let address = input.address.trim();
    if (input.kind === 'sip') {
      if (!/^sips?:[^@\s<>"]+@[^@\s<>"]+$/i.test(address) || address.length > 200) {
        return refusal('invalid_device', 'A SIP device needs a SIP address, e.g. sip:sam@pbx.example.com.');
      }
    } else if (input.kind === 'phone') {
      const number = checkDialable(address);
      if (!number.ok) return number;
      address = number.value;
    } else {
      return refusal('invalid_device', 'kind is sip or phone.');
    }
    const record: DeviceRecord = {
      id: newId('dev'),
      office_id: this.#officeId,
      staff_username: staff.username,
      name,
      kind: input.kind,
      address,
      created_at: this.#now(),
    };
    try {
      await this.deps.store.transaction(async (tx) => {
        const { office_id: _office, ...values } = record;
        await gatewayDevices(tx, this.#officeId).insert(values);
        await this.#audit(tx, staff, {
          at: record.created_at,
          action: 'device.added',
          target_type: 'device',
          target_id: record.id,
          details: { name, kind: record.kind, address },
        });
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return refusal('device_exists', 'That address is already registered as a device.');
    }
    this.events.publish({ type: 'devices.changed' });
    return success(deviceView(record, this.#online(record)));
  }

  async removeDevice(
    staff: StaffPrincipal,
    id: string,
  ): Promise<Result<{ device_id: string; removed: true }>> {
    const repo = gatewayDevices(this.deps.store.db, this.#officeId);
    const device = await repo.find(id);
    if (!device || !(staff.role === 'admin' || device.staff_username === staff.username))
      return notFound('device');
    await this.deps.store.transaction(async (tx) => {
      await gatewayDevices(tx, this.#officeId).remove(id);
      await this.#audit(tx, staff, {
        at: this.#now(),
        action: 'device.removed',
        target_type: 'device',
        target_id: id,
        details: { name: device.name, kind: device.kind },
      });
    });
    this.events.publish({ type: 'devices.changed' });
    return success({ device_id: id, removed: true });
  }

  // ---- upkeep ----------------------------------------------------------------------------------

  /** Renews the leases of this instance's live calls and ends calls whose instance stopped. */
  async maintain(): Promise<void> {
    const now = this.deps.clock();
    const at = now.toISOString();
    const repo = this.#calls();
    await repo.renewLeases([...this.#live.keys()], new Date(now.getTime() + LEASE_MS).toISOString());
    for (const orphan of await repo.listOrphaned(at)) {
      if (this.#live.has(orphan.id)) continue;
      const ended = await this.deps.store.transaction(async (tx) => {
        // Compare-and-set: a lease renewed meanwhile, or another instance ending it first, wins.
        if (!(await this.#calls(tx).endOrphan(orphan.id, at))) return false;
        await this.#calls(tx).appendEvent({
          call_id: orphan.id,
          seq: (await this.#calls(tx).lastEventSeq(orphan.id)) + 1,
          at,
          kind: 'status',
          details_json: JSON.stringify({ status: 'ended', end_reason: 'failed', cause: 'instance_lost' }),
        });
        return true;
      });
      if (!ended) continue;
      this.events.publish({
        type: 'call.status',
        call: callView(
          { ...orphan, status: 'ended', end_reason: 'failed', ended_at: at, hold_started_at: null },
          at,
        ),
      });
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#maintenance);
    await Promise.all(
      [...this.#live.values()].map((runner) =>
        runner
          .shutdown()
          .catch((error: unknown) =>
            this.deps.logger.warn({ err: error, call: runner.id }, 'call shutdown failed'),
          ),
      ),
    );
  }
}
