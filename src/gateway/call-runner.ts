import {
  advanceFlow,
  startFlow,
  type FlowAction,
  type FlowPosition,
  type FlowStep,
} from '../core/calls/call-flows.js';
import {
  hangUpReason,
  moveCall,
  type CallMode,
  type CallStatus,
  type EndReason,
} from '../core/calls/call-state.js';
import { summariseCall } from '../core/calls/call-summary.js';
import { chooseMenuOption } from '../core/calls/ivr-menu.js';
import { refusal, success, type Result } from '../core/result.js';
import type { Logger } from '../logger.js';
import { calls, type CallRecord } from '../store/calls.js';
import type { DeviceRecord } from '../store/gateway-devices.js';
import { isUniqueViolation, type Store } from '../store/store.js';
import type { AnalysisSession, AudioAnalysisPort, AudioSegment } from './analysis-port.js';
import type { GatewayEvents } from './events.js';
import type { CallLeg, LegEndCause, TelephonyEvent, TelephonyPort } from './telephony-port.js';
import { callEventView, callView, timelineOf, transcriptLineView } from './views.js';

/**
 * Drives one live call: turns the carrier's events and the analysis of its audio into state changes,
 * follows the call flow through the menu, recognises hold and the person who answers, and hands the
 * call to the staff member's device. Everything that happens is written (call row, event log,
 * transcript) and then announced, one step at a time: a queue serialises the work, so the stored
 * order, the announced order and the order things happened are the same.
 */
export interface RunnerContext {
  readonly store: Store;
  readonly officeId: string;
  readonly officeName: string;
  readonly clock: () => Date;
  readonly logger: Logger;
  readonly events: GatewayEvents;
  readonly carrier: TelephonyPort;
  readonly analysis: AudioAnalysisPort;
  /** The placer's device to ring: the named one, else their first reachable one. */
  readonly resolveDevice: (username: string, hint: string | undefined) => Promise<DeviceRecord | undefined>;
  readonly onFinished: (callId: string) => void;
}

export interface RunnerFlow {
  readonly id: string;
  readonly steps: readonly FlowStep[];
}

interface Change {
  readonly row?: Partial<CallRecord>;
  readonly events?: readonly { readonly kind: string; readonly details: Record<string, unknown> }[];
  readonly line?: {
    readonly speaker: 'ivr' | 'agent' | 'gateway';
    readonly text: string;
    readonly offset_ms: number;
  };
}

/** How long a hang-up waits for the carrier to confirm before the call is ended anyway. */
const HANGUP_CONFIRM_MS = 5_000;
const TRANSFERABLE: readonly CallStatus[] = ['connected', 'ivr', 'on_hold', 'human_detected'];
const ANSWERED: readonly CallStatus[] = [...TRANSFERABLE, 'transferring', 'bridged'];

function endReasonFor(cause: LegEndCause, status: CallStatus): EndReason {
  switch (cause) {
    case 'busy':
    case 'no_answer':
    case 'rejected':
    case 'failed':
      return status === 'initiating' || status === 'ringing' || cause === 'failed' ? cause : 'failed';
    case 'local_hangup':
      return hangUpReason(status);
    case 'remote_hangup':
      return status === 'initiating' || status === 'ringing' ? 'rejected' : hangUpReason(status);
  }
}

export class CallRunner {
  #row: CallRecord;
  #leg: CallLeg | undefined;
  #session: AnalysisSession | undefined;
  #flow: { readonly id: string; readonly steps: readonly FlowStep[]; position: FlowPosition } | undefined;
  #flowAbandoned = false;
  #eventSeq: number;
  #lineSeq = 0;
  #queue: Promise<unknown> = Promise.resolve();
  #expectTimer: NodeJS.Timeout | undefined;
  /** Where the call goes back to when the device does not answer. */
  #beforeTransfer: CallStatus | undefined;
  #transferDevice: DeviceRecord | undefined;
  #hangupRequested = false;
  #released = false;
  readonly #finished: Promise<void>;
  #finish!: () => void;

  constructor(
    private readonly ctx: RunnerContext,
    row: CallRecord,
    /** The placer's name, as the gateway introduces them to the person who answers. */
    private readonly placerName: string,
    flow: RunnerFlow | undefined,
    /** Events already written for this call (its `initiating` status). */
    eventsWritten: number,
  ) {
    this.#row = row;
    this.#eventSeq = eventsWritten;
    this.#flow = flow ? { ...flow, position: { next: 0, awaiting: undefined } } : undefined;
    this.#finished = new Promise((resolve) => (this.#finish = resolve));
  }

  get id(): string {
    return this.#row.id;
  }

  get row(): CallRecord {
    return this.#row;
  }

  get mode(): CallMode {
    return this.#row.mode as CallMode;
  }

  get status(): CallStatus {
    return this.#row.status as CallStatus;
  }

  /** Places the call with the carrier; a carrier that refuses ends the call as failed. */
  async start(): Promise<void> {
    try {
      // The leg's id is known once placed; its events only start arriving after that.
      const leg = await this.ctx.carrier.place(this.#row.number, (event) => this.#onTelephony(event));
      this.#leg = leg;
      if (this.mode !== 'direct') this.#session = this.ctx.analysis.open(leg.id);
    } catch (error) {
      this.ctx.logger.warn({ err: error, call: this.id }, 'carrier refused the call');
      await this.#enqueue(() => this.#end('failed', { cause: 'carrier_refused' }));
      return;
    }
    if (this.#hangupRequested) await this.#leg.hangup();
  }

  #enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work);
    this.#queue = next.catch((error: unknown) => {
      this.ctx.logger.error({ err: error, call: this.id }, 'call step failed');
    });
    return next;
  }

  #onTelephony(event: TelephonyEvent): void {
    if (event.type === 'audio') {
      // Analysis is cheap and synchronous; only what it recognises is queued.
      for (const segment of this.#session?.push(event.frame) ?? []) {
        void this.#enqueue(() => this.#onSegment(segment));
      }
      return;
    }
    void this.#enqueue(() => this.#onCarrierEvent(event));
  }

  async #onCarrierEvent(event: Exclude<TelephonyEvent, { type: 'audio' }>): Promise<void> {
    switch (event.type) {
      case 'ringing':
        await this.#move('ringing');
        return;
      case 'answered':
        await this.#onAnswered();
        return;
      case 'device_ringing':
        await this.#commit({
          events: [{ kind: 'device_ringing', details: { device_id: this.#transferDevice?.id ?? null } }],
        });
        return;
      case 'bridged':
        await this.#move('bridged', undefined, [
          { kind: 'transferred', details: { device_id: this.#transferDevice?.id ?? null } },
        ]);
        return;
      case 'bridge_failed':
        await this.#move(this.#beforeTransfer ?? 'human_detected', undefined, [
          {
            kind: 'transfer_failed',
            details: { device_id: this.#transferDevice?.id ?? null, reason: event.reason },
          },
        ]);
        return;
      case 'recording':
        await calls(this.ctx.store.db, this.ctx.officeId).saveRecording({
          call_id: this.id,
          location: event.location,
          format: event.format,
          duration_ms: Math.round(event.duration_ms),
          created_at: this.ctx.clock().toISOString(),
        });
        await this.#commit({ events: [{ kind: 'recording', details: { duration_ms: event.duration_ms } }] });
        return;
      case 'ended':
        await this.#end(endReasonFor(event.cause, this.status), { cause: event.cause });
        return;
    }
  }

  async #onAnswered(): Promise<void> {
    if (!(await this.#move('connected'))) return;
    if (this.mode === 'direct') {
      await this.#transfer(undefined);
      return;
    }
    if (this.#flow) {
      const { actions, position } = startFlow(this.#flow.steps);
      this.#flow.position = position;
      this.#runActions(actions);
    }
  }

  async #onSegment(segment: AudioSegment): Promise<void> {
    if (this.status === 'ended') return;
    if (segment.label !== this.#row.classification)
      await this.#commit({ row: { classification: segment.label } });
    const text = segment.text?.trim();
    switch (segment.label) {
      case 'ivr_speech':
        if (text) await this.#onPrompt(text, segment.start_ms);
        return;
      case 'music':
        if (['connected', 'ivr', 'human_detected'].includes(this.status)) await this.#move('on_hold');
        return;
      case 'human_speech':
        if (text) await this.#onPerson(text, segment.start_ms);
        return;
      default:
        return;
    }
  }

  async #onPrompt(text: string, offset: number): Promise<void> {
    const enterMenu = ['connected', 'on_hold', 'human_detected'].includes(this.status);
    await this.#commit({
      events: [{ kind: 'prompt', details: { text } }],
      line: { speaker: 'ivr', text, offset_ms: offset },
    });
    if (enterMenu) await this.#move('ivr');
    if (this.status !== 'ivr') return;
    if (this.#flow && !this.#flowAbandoned) {
      const { actions, position } = advanceFlow(this.#flow.steps, this.#flow.position, text);
      this.#flow.position = position;
      this.#runActions(actions);
      return;
    }
    if (this.mode === 'ai_assisted' && this.#row.intent) {
      const option = chooseMenuOption(text, this.#row.intent);
      if (option) await this.#press(option.digits, 'intent');
    }
  }

  async #onPerson(text: string, offset: number): Promise<void> {
    await this.#commit({
      events: [{ kind: 'speech', details: { text } }],
      line: { speaker: 'agent', text, offset_ms: offset },
    });
    if (!['connected', 'ivr', 'on_hold'].includes(this.status)) return;
    this.#clearExpectTimer();
    if (!(await this.#move('human_detected'))) return;
    if (this.mode === 'ai_assisted' && this.#row.intent) {
      const intro =
        `Hello, I am calling on behalf of ${this.placerName} at ${this.ctx.officeName} about ${this.#row.intent}. ` +
        'Please hold a moment while I connect them.';
      await this.#leg?.speak(intro);
      await this.#commit({
        events: [{ kind: 'say', details: { text: intro, source: 'intro' } }],
        line: { speaker: 'gateway', text: intro, offset_ms: offset },
      });
    }
    await this.#transfer(undefined);
  }

  /** Runs flow actions in order; waits happen outside the queue so the call keeps being heard. */
  #runActions(actions: readonly FlowAction[]): void {
    this.#armExpectTimer();
    if (actions.length === 0) return;
    const flow = this.#flow;
    void (async () => {
      for (const action of actions) {
        if (this.status === 'ended' || this.#flowAbandoned || this.#flow !== flow) return;
        if (action.kind === 'wait') {
          await new Promise((resolve) => setTimeout(resolve, action.seconds * 1000));
        } else if (action.kind === 'press') {
          await this.#enqueue(() => this.#press(action.digits, 'flow', action.step));
        } else {
          await this.#enqueue(() => this.#say(action.text, 'flow', action.step));
        }
      }
    })().catch((error: unknown) => this.ctx.logger.error({ err: error, call: this.id }, 'call flow failed'));
  }

  #armExpectTimer(): void {
    this.#clearExpectTimer();
    const awaiting = this.#flow && !this.#flowAbandoned ? this.#flow.position.awaiting : undefined;
    if (!awaiting) return;
    this.#expectTimer = setTimeout(() => {
      void this.#enqueue(() => this.#abandonFlow('timeout'));
    }, awaiting.timeout_seconds * 1000);
    this.#expectTimer.unref();
  }

  #clearExpectTimer(): void {
    clearTimeout(this.#expectTimer);
    this.#expectTimer = undefined;
  }

  async #abandonFlow(reason: 'timeout' | 'manual_input'): Promise<void> {
    if (!this.#flow || this.#flowAbandoned || this.status === 'ended') return;
    this.#flowAbandoned = true;
    this.#clearExpectTimer();
    await this.#commit({
      events: [
        {
          kind: 'flow_abandoned',
          details: { call_flow_id: this.#flow.id, step: this.#flow.position.next + 1, reason },
        },
      ],
    });
  }

  async #press(digits: string, source: 'flow' | 'intent' | 'staff', step?: number): Promise<void> {
    if (!ANSWERED.includes(this.status)) return;
    await this.#leg?.sendDtmf(digits);
    await this.#commit({
      events: [
        { kind: 'dtmf', details: { digits, source, ...(step === undefined ? {} : { step: step + 1 }) } },
      ],
    });
  }

  async #say(text: string, source: 'flow', step: number): Promise<void> {
    if (!ANSWERED.includes(this.status)) return;
    await this.#leg?.speak(text);
    await this.#commit({
      events: [{ kind: 'say', details: { text, source, step: step + 1 } }],
      line: { speaker: 'gateway', text, offset_ms: 0 },
    });
  }

  /** Rings a device of the placer; without one reachable the call waits for a manual transfer. */
  async #transfer(device: DeviceRecord | undefined): Promise<void> {
    const target =
      device ?? (await this.ctx.resolveDevice(this.#row.placed_by, this.#row.device_id ?? undefined));
    if (!target) {
      await this.#commit({
        events: [
          { kind: 'transfer_unavailable', details: { reason: 'no reachable device; use transfer_call' } },
        ],
      });
      return;
    }
    this.#beforeTransfer = this.status === 'connected' ? 'human_detected' : this.status;
    this.#transferDevice = target;
    if (
      !(await this.#move('transferring', undefined, [
        { kind: 'transfer', details: { device_id: target.id } },
      ]))
    )
      return;
    await this.#leg?.bridge({ kind: target.kind, address: target.address });
  }

  async #move(
    to: CallStatus,
    reason?: EndReason,
    events: readonly { kind: string; details: Record<string, unknown> }[] = [],
  ): Promise<boolean> {
    const at = this.ctx.clock().toISOString();
    const moved = moveCall(timelineOf(this.#row), to, at, reason);
    if (!moved.ok) {
      this.ctx.logger.warn({ call: this.id, from: this.status, to, reason }, 'call transition refused');
      return false;
    }
    const { status, end_reason, answered_at, hold_started_at, hold_ms, human_at, bridged_at, ended_at } =
      moved.value;
    await this.#commit({
      row: { status, end_reason, answered_at, hold_started_at, hold_ms, human_at, bridged_at, ended_at },
      events: [{ kind: 'status', details: { status, ...(end_reason ? { end_reason } : {}) } }, ...events],
    });
    return true;
  }

  /** Writes one step in one transaction, then announces it. */
  async #commit(change: Change): Promise<void> {
    const at = this.ctx.clock().toISOString();
    const events = (change.events ?? []).map((e, i) => ({
      call_id: this.id,
      seq: this.#eventSeq + i + 1,
      at,
      kind: e.kind,
      details_json: JSON.stringify(e.details),
    }));
    const line = change.line
      ? {
          call_id: this.id,
          seq: this.#lineSeq + 1,
          at,
          speaker: change.line.speaker,
          text: change.line.text,
          offset_ms: Math.round(change.line.offset_ms),
        }
      : undefined;
    const row = change.row ? { ...change.row, updated_at: at } : undefined;
    try {
      await this.ctx.store.transaction(async (tx) => {
        const repo = calls(tx, this.ctx.officeId);
        if (row) await repo.update(this.id, row);
        for (const event of events) await repo.appendEvent(event);
        if (line) await repo.appendLine(line);
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      this.#takenOver();
      return;
    }
    this.#eventSeq += events.length;
    if (line) this.#lineSeq += 1;
    if (row) {
      this.#row = { ...this.#row, ...row };
      this.ctx.events.publish({ type: 'call.status', call: callView(this.#row, at) });
    }
    for (const event of events) {
      this.ctx.events.publish({
        type: 'call.event',
        call_id: this.id,
        event: callEventView({ ...event, office_id: this.ctx.officeId }),
      });
    }
    if (line) {
      this.ctx.events.publish({
        type: 'call.transcript',
        call_id: this.id,
        line: transcriptLineView({ ...line, office_id: this.ctx.officeId }),
      });
    }
  }

  /**
   * Another instance wrote to this call's log: it ended the call because this instance's lease ran
   * out (it was cut off from the database too long). The call is no longer this instance's to drive.
   */
  #takenOver(): void {
    if (this.#released) return;
    this.ctx.logger.warn({ call: this.id }, 'call was ended by another instance; letting it go');
    this.#released = true;
    this.#row = { ...this.#row, status: 'ended' };
    this.#clearExpectTimer();
    void this.#leg?.hangup().catch(() => undefined);
    this.ctx.onFinished(this.id);
    this.#finish();
  }

  async #end(reason: EndReason, details: Record<string, unknown>): Promise<void> {
    if (this.status === 'ended') return;
    this.#clearExpectTimer();
    // Words cut off by the hang-up still belong in the transcript; they change nothing else now.
    for (const segment of this.#session?.flush() ?? []) {
      const speaker =
        segment.label === 'ivr_speech' ? 'ivr' : segment.label === 'human_speech' ? 'agent' : undefined;
      const text = segment.text?.trim();
      if (speaker && text) await this.#commit({ line: { speaker, text, offset_ms: segment.start_ms } });
    }
    const moved = await this.#move('ended', reason, [{ kind: 'ended', details }]);
    if (!moved) await this.#move('ended', 'failed', [{ kind: 'ended', details }]);
    await this.#summarise();
    this.ctx.onFinished(this.id);
    this.#finish();
  }

  async #summarise(): Promise<void> {
    const repo = calls(this.ctx.store.db, this.ctx.officeId);
    const [events, lines] = await Promise.all([repo.listEvents(this.id), repo.listLines(this.id)]);
    const device = this.#transferDevice;
    const summary = summariseCall(
      {
        number: this.#row.number,
        mode: this.mode,
        intent: this.#row.intent,
        timeline: timelineOf(this.#row),
        pressed: events
          .filter((e) => e.kind === 'dtmf')
          .map((e) => (JSON.parse(e.details_json) as { digits: string }).digits),
        explored:
          this.mode !== 'direct' &&
          (!this.#flow || this.#flowAbandoned || this.#flow.position.next < this.#flow.steps.length),
        transferredTo: device ? device.name : null,
        agentLines: lines.filter((l) => l.speaker === 'agent').map((l) => l.text),
      },
      this.ctx.clock().toISOString(),
    );
    await repo.saveSummary({
      call_id: this.id,
      summary: summary.summary,
      action_items_json: JSON.stringify(summary.action_items),
      sentiment: summary.sentiment,
      created_at: this.ctx.clock().toISOString(),
    });
  }

  /** Staff hang up: resolves once the call has ended (the carrier confirmed, or after a grace period). */
  async hangup(): Promise<void> {
    if (this.status === 'ended') return;
    this.#hangupRequested = true;
    await this.#leg?.hangup();
    const forced = new Promise<void>((resolve) => setTimeout(resolve, HANGUP_CONFIRM_MS).unref());
    await Promise.race([this.#finished, forced]);
    await this.#enqueue(() => this.#end(hangUpReason(this.status), { cause: 'local_hangup' }));
  }

  /** The gateway is stopping: the call is hung up and ended as failed, without waiting for the carrier. */
  async shutdown(): Promise<void> {
    if (this.status === 'ended') return;
    await this.#leg?.hangup().catch(() => undefined);
    await this.#enqueue(() => this.#end('failed', { cause: 'gateway_stopped' }));
  }

  sendDtmf(digits: string): Promise<Result<void, 'call_not_connected'>> {
    return this.#enqueue(async () => {
      if (!ANSWERED.includes(this.status)) {
        return refusal(
          'call_not_connected',
          `The call is ${this.status}; digits can be sent once it is answered.`,
        );
      }
      // A person pressing keys takes over from the stored flow.
      await this.#abandonFlow('manual_input');
      await this.#press(digits, 'staff');
      return success(undefined);
    });
  }

  transfer(device: DeviceRecord): Promise<Result<void, 'call_not_transferable'>> {
    return this.#enqueue(async () => {
      if (!TRANSFERABLE.includes(this.status)) {
        return refusal('call_not_transferable', `The call is ${this.status} and cannot be transferred now.`);
      }
      this.#clearExpectTimer();
      await this.#transfer(device);
      return success(undefined);
    });
  }
}
