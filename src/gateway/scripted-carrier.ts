import { normalisePrompt } from '../core/calls/call-flows.js';
import type { AnalysisSession, AudioAnalysisPort, AudioLabel, AudioSegment } from './analysis-port.js';
import { synthesiseFrame, type SoundKind } from './audio-synthesis.js';
import {
  FRAME_MS,
  type AudioFrame,
  type CallLeg,
  type DeviceAddress,
  type LegEndCause,
  type TelephonyEvent,
  type TelephonyPort,
  type TrunkStatus,
} from './telephony-port.js';

/**
 * A carrier that plays scripted phone systems: it speaks the telephony port's protocol (ringing,
 * answer, 8 kHz audio frames, DTMF and speech input, bridging, hang-up) so the gateway can be driven
 * end to end without a trunk. A script is a small state machine of nodes; each node plays segments
 * (menu prompts, hold music, a person speaking) and moves on input ("press 2") or when done.
 *
 * Its paired analysis (`carrier.analysis`) knows what each frame it produced was, the way a perfect
 * classifier and recogniser would: the audio is real PCM, and the labels are the script's truth.
 */
export type ScriptSegment =
  | { readonly kind: 'ivr' | 'human'; readonly text: string; readonly ms?: number }
  | { readonly kind: 'music' | 'silence' | 'ringback' | 'tone'; readonly ms: number };

export interface ScriptNode {
  readonly play: readonly ScriptSegment[];
  /** Where input leads: DTMF digits (`"2"`, `"1234#"`) or `"say:<words>"` for speech. */
  readonly on?: Readonly<Record<string, string>>;
  /** The node to go to after playing; without it the line stays silent until input or hang-up. */
  readonly then?: string;
  /** Play the node again and again (hold music). */
  readonly loop?: boolean;
  /** The far end hangs up after playing. */
  readonly hangup?: boolean;
}

export interface CallScript {
  readonly outcome?: 'answer' | 'busy' | 'no_answer' | 'rejected' | 'failed';
  readonly ringMs?: number;
  readonly start: string;
  readonly nodes: Readonly<Record<string, ScriptNode>>;
  /** The far end hangs up this long after the bridge; without it, it stays on the line. */
  readonly afterBridgeMs?: number;
  readonly recording?: boolean;
}

export interface ScriptedCarrierOptions {
  /** Scripts by E.164 number; `"*"` answers any other number. */
  readonly scripts: Readonly<Record<string, CallScript>>;
  /** Wall-clock milliseconds per 20 ms frame: 20 is real time, smaller runs faster. */
  readonly frameIntervalMs?: number;
  readonly trunkRegistered?: boolean;
  /** SIP addresses currently registered (online). */
  readonly registeredDevices?: readonly string[];
  /** Device addresses that ring but never answer. */
  readonly unansweredDevices?: readonly string[];
}

/** What the carrier received on one leg, for tests to inspect. */
export interface ScriptedLegRecord {
  readonly id: string;
  readonly to: string;
  readonly dtmf: string[];
  readonly spoken: string[];
  bridgedTo: string | undefined;
  hungUp: boolean;
}

const DEFAULT_SPEECH_MS = 200;
const DEFAULT_RING_MS = 100;
const DEVICE_RING_MS = 100;

const LABELS: Readonly<Record<ScriptSegment['kind'], AudioLabel>> = {
  ivr: 'ivr_speech',
  human: 'human_speech',
  music: 'music',
  silence: 'silence',
  ringback: 'ringback',
  tone: 'tone',
};

const SOUNDS: Readonly<Record<ScriptSegment['kind'], SoundKind>> = {
  ivr: 'speech',
  human: 'speech',
  music: 'music',
  silence: 'silence',
  ringback: 'ringback',
  tone: 'tone',
};

interface FrameTruth {
  readonly segment: number;
  readonly label: AudioLabel;
  readonly text: string | undefined;
  readonly last: boolean;
}

const framesFor = (ms: number): number => Math.max(1, Math.ceil(ms / FRAME_MS));

class ScriptedLeg implements CallLeg {
  readonly record: ScriptedLegRecord;
  #phase: 'ringing' | 'playing' | 'idle' | 'bridged' | 'ended' = 'ringing';
  #ticks: number;
  #node: ScriptNode | undefined;
  #segmentIndex = 0;
  #segmentFrame = 0;
  #segmentId = 0;
  #seq = 0;
  #input = '';
  #deviceRing: { device: DeviceAddress; ticks: number } | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    readonly id: string,
    to: string,
    private readonly script: CallScript,
    private readonly carrier: ScriptedCarrier,
    private readonly listener: (event: TelephonyEvent) => void,
  ) {
    this.record = { id, to, dtmf: [], spoken: [], bridgedTo: undefined, hungUp: false };
    this.#ticks = framesFor(script.ringMs ?? DEFAULT_RING_MS);
  }

  start(intervalMs: number): void {
    setImmediate(() => {
      if (this.#phase === 'ended') return;
      this.listener({ type: 'ringing' });
      this.#timer = setInterval(() => this.#tick(), intervalMs);
    });
  }

  #tick(): void {
    if (this.#deviceRing && --this.#deviceRing.ticks <= 0) this.#finishDeviceRing();
    switch (this.#phase) {
      case 'ringing':
        if (--this.#ticks <= 0) this.#answerOrFail();
        return;
      case 'playing':
        this.#playFrame();
        return;
      case 'idle':
        this.#emitFrame('silence', {
          segment: this.#segmentId,
          label: 'silence',
          text: undefined,
          last: false,
        });
        return;
      case 'bridged':
        if (this.script.afterBridgeMs !== undefined && --this.#ticks <= 0) this.#end('remote_hangup');
        return;
      case 'ended':
        return;
    }
  }

  #answerOrFail(): void {
    const outcome = this.script.outcome ?? 'answer';
    if (outcome !== 'answer') {
      this.#end(outcome);
      return;
    }
    this.listener({ type: 'answered' });
    this.#enter(this.script.start);
  }

  #enter(name: string): void {
    const node = this.script.nodes[name];
    if (!node) throw new Error(`script has no node "${name}"`);
    this.#node = node;
    this.#phase = 'playing';
    this.#segmentIndex = 0;
    this.#segmentFrame = 0;
    this.#segmentId += 1;
    this.#input = '';
  }

  #playFrame(): void {
    const node = this.#node!;
    const segment = node.play[this.#segmentIndex];
    if (!segment) {
      this.#nodeDone(node);
      return;
    }
    const total = framesFor(segment.ms ?? DEFAULT_SPEECH_MS);
    this.#segmentFrame += 1;
    const last = this.#segmentFrame >= total;
    const text = segment.kind === 'ivr' || segment.kind === 'human' ? segment.text : undefined;
    this.#emitFrame(SOUNDS[segment.kind], {
      segment: this.#segmentId,
      label: LABELS[segment.kind],
      text,
      last,
    });
    if (last) {
      this.#segmentIndex += 1;
      this.#segmentFrame = 0;
      this.#segmentId += 1;
    }
  }

  #nodeDone(node: ScriptNode): void {
    if (node.loop) {
      this.#segmentIndex = 0;
      this.#playFrame();
    } else if (node.then) {
      this.#enter(node.then);
      this.#playFrame();
    } else if (node.hangup) {
      this.#end('remote_hangup');
    } else {
      this.#phase = 'idle';
      this.#tick();
    }
  }

  #emitFrame(sound: SoundKind, truth: FrameTruth): void {
    const frame: AudioFrame = { seq: this.#seq, samples: synthesiseFrame(sound, this.#seq) };
    this.carrier.remember(this.id, this.#seq, truth);
    this.#seq += 1;
    this.listener({ type: 'audio', frame });
  }

  #jump(key: string): boolean {
    const target = this.#node?.on?.[key];
    if (target === undefined || (this.#phase !== 'playing' && this.#phase !== 'idle')) return false;
    this.#enter(target);
    return true;
  }

  sendDtmf(digits: string): Promise<void> {
    this.record.dtmf.push(digits);
    for (const digit of digits) {
      this.#input += digit;
      if (this.#jump(this.#input)) continue;
      const keys = Object.keys(this.#node?.on ?? {}).filter((k) => !k.startsWith('say:'));
      // A digit that starts no key resets the input, as menus do after a wrong key.
      if (!keys.some((k) => k.startsWith(this.#input))) {
        this.#input = keys.some((k) => k.startsWith(digit)) ? digit : '';
      }
    }
    return Promise.resolve();
  }

  speak(text: string): Promise<void> {
    this.record.spoken.push(text);
    const said = ` ${normalisePrompt(text)} `;
    const key = Object.keys(this.#node?.on ?? {}).find(
      (k) => k.startsWith('say:') && said.includes(` ${normalisePrompt(k.slice(4))} `),
    );
    if (key) this.#jump(key);
    return Promise.resolve();
  }

  sendAudio(): void {
    // The scripted far end does not listen to audio; only DTMF and speech requests move it.
  }

  bridge(device: DeviceAddress): Promise<void> {
    setImmediate(() => {
      if (this.#phase === 'ended') return;
      this.listener({ type: 'device_ringing', device: device.address });
      this.#deviceRing = { device, ticks: framesFor(DEVICE_RING_MS) };
    });
    return Promise.resolve();
  }

  #finishDeviceRing(): void {
    const { device } = this.#deviceRing!;
    this.#deviceRing = undefined;
    if (!this.carrier.answers(device)) {
      this.listener({ type: 'bridge_failed', device: device.address, reason: 'the device did not answer' });
      return;
    }
    this.record.bridgedTo = device.address;
    this.#phase = 'bridged';
    this.#ticks = framesFor(this.script.afterBridgeMs ?? 0);
    this.listener({ type: 'bridged', device: device.address });
  }

  hangup(): Promise<void> {
    this.record.hungUp = true;
    setImmediate(() => this.#end('local_hangup'));
    return Promise.resolve();
  }

  #end(cause: LegEndCause): void {
    if (this.#phase === 'ended') return;
    const answered = this.#phase !== 'ringing';
    this.#phase = 'ended';
    clearInterval(this.#timer);
    if (this.script.recording && answered) {
      this.listener({
        type: 'recording',
        location: `scripted://recordings/${this.id}.wav`,
        format: 'audio/wav',
        duration_ms: this.#seq * FRAME_MS,
      });
    }
    this.listener({ type: 'ended', cause });
    this.carrier.forget(this.id);
  }
}

export class ScriptedCarrier implements TelephonyPort {
  readonly legs: ScriptedLegRecord[] = [];
  readonly analysis: AudioAnalysisPort;
  readonly #truth = new Map<string, Map<number, FrameTruth>>();
  readonly #registered: Set<string>;
  readonly #scripts: Map<string, CallScript>;
  #nextLeg = 0;

  constructor(private readonly options: ScriptedCarrierOptions) {
    this.#registered = new Set(options.registeredDevices ?? []);
    this.#scripts = new Map(Object.entries(options.scripts));
    this.analysis = { name: 'scripted', open: (legId) => new ScriptedAnalysisSession(this, legId) };
  }

  status(): TrunkStatus {
    const registered = this.options.trunkRegistered ?? true;
    return { name: 'scripted', registered, detail: registered ? 'scripted test carrier' : 'not registered' };
  }

  deviceOnline(device: DeviceAddress): boolean {
    return device.kind === 'sip' ? this.#registered.has(device.address) : this.status().registered;
  }

  /** Puts a phone system on a number. */
  addScript(number: string, script: CallScript): void {
    this.#scripts.set(number, script);
  }

  /** Registers or unregisters a SIP device, as a phone would. */
  setRegistered(address: string, online: boolean): void {
    if (online) this.#registered.add(address);
    else this.#registered.delete(address);
  }

  answers(device: DeviceAddress): boolean {
    return this.deviceOnline(device) && !(this.options.unansweredDevices ?? []).includes(device.address);
  }

  place(to: string, listener: (event: TelephonyEvent) => void): Promise<CallLeg> {
    const script: CallScript = this.#scripts.get(to) ??
      this.#scripts.get('*') ?? { outcome: 'failed', start: 'none', nodes: {} };
    this.#nextLeg += 1;
    const leg = new ScriptedLeg(`leg-${this.#nextLeg}`, to, script, this, listener);
    this.legs.push(leg.record);
    this.#truth.set(leg.id, new Map());
    leg.start(this.options.frameIntervalMs ?? FRAME_MS);
    return Promise.resolve(leg);
  }

  remember(legId: string, seq: number, truth: FrameTruth): void {
    this.#truth.get(legId)?.set(seq, truth);
  }

  recall(legId: string, seq: number): FrameTruth | undefined {
    const frames = this.#truth.get(legId);
    const truth = frames?.get(seq);
    frames?.delete(seq);
    return truth;
  }

  forget(legId: string): void {
    // Frames still in flight to the analysis are looked up after the leg ends; drop them later.
    setTimeout(() => this.#truth.delete(legId), 10_000).unref();
  }
}

class ScriptedAnalysisSession implements AnalysisSession {
  #current: { truth: FrameTruth; start: number; end: number } | undefined;

  constructor(
    private readonly carrier: ScriptedCarrier,
    private readonly legId: string,
  ) {}

  push(frame: AudioFrame): AudioSegment[] {
    const truth = this.carrier.recall(this.legId, frame.seq);
    if (!truth) return [];
    const done: AudioSegment[] = [];
    if (this.#current && this.#current.truth.segment !== truth.segment) done.push(...this.flush());
    const start = this.#current?.start ?? frame.seq * FRAME_MS;
    this.#current = { truth, start, end: (frame.seq + 1) * FRAME_MS };
    if (truth.last) done.push(...this.flush());
    return done;
  }

  flush(): AudioSegment[] {
    const current = this.#current;
    this.#current = undefined;
    if (!current) return [];
    const { truth, start, end } = current;
    return [
      {
        label: truth.label,
        start_ms: start,
        end_ms: end,
        confidence: 1,
        ...(truth.text === undefined ? {} : { text: truth.text }),
      },
    ];
  }
}
