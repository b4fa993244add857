import { refusal, success, type Result } from '../result.js';

/**
 * The life of an outbound gateway call. A call is placed (`initiating`), rings, is answered
 * (`connected`), may walk a phone menu (`ivr`) and wait in a queue (`on_hold`) until a person
 * answers (`human_detected`); the gateway then rings the staff member's device (`transferring`) and
 * joins the two legs (`bridged`). Every call ends exactly once, with a reason:
 *
 * - `busy`, `no_answer`, `rejected`: the far end never answered;
 * - `failed`: the carrier, the network or the gateway failed;
 * - `hung_up`: ended before the staff member was connected, by a hang-up request or by the far end;
 * - `completed`: ended after the staff member was connected, by either side.
 */
export const CALL_STATUSES = [
  'initiating',
  'ringing',
  'connected',
  'ivr',
  'on_hold',
  'human_detected',
  'transferring',
  'bridged',
  'ended',
] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

export const END_REASONS = ['completed', 'busy', 'no_answer', 'rejected', 'failed', 'hung_up'] as const;
export type EndReason = (typeof END_REASONS)[number];

/**
 * - `direct`: ring the staff member's device as soon as the far end answers; no menu, no waiting.
 * - `hold_slayer`: follow the stored call flow through the menu (or, without one, record the prompts
 *   while the staff member presses digits: an exploration call), wait on hold, and ring the device
 *   when a person answers.
 * - `ai_assisted`: as `hold_slayer`, and where no flow step applies the gateway picks the menu option
 *   that matches the call's intent; when a person answers it states the intent before ringing the
 *   device. Needs an intent.
 */
export const CALL_MODES = ['direct', 'hold_slayer', 'ai_assisted'] as const;
export type CallMode = (typeof CALL_MODES)[number];

export function navigatesMenus(mode: CallMode): boolean {
  return mode !== 'direct';
}

export function isActive(status: CallStatus): boolean {
  return status !== 'ended';
}

/** Everything the state machine tracks about a call; instants are UTC ISO strings. */
export interface CallTimeline {
  readonly status: CallStatus;
  readonly end_reason: EndReason | null;
  readonly created_at: string;
  readonly answered_at: string | null;
  /** Start of the hold period in progress, if the call is on hold. */
  readonly hold_started_at: string | null;
  /** Hold time of the periods already over. */
  readonly hold_ms: number;
  /** When a person first answered. */
  readonly human_at: string | null;
  readonly bridged_at: string | null;
  readonly ended_at: string | null;
}

export function newCallTimeline(at: string): CallTimeline {
  return {
    status: 'initiating',
    end_reason: null,
    created_at: at,
    answered_at: null,
    hold_started_at: null,
    hold_ms: 0,
    human_at: null,
    bridged_at: null,
    ended_at: null,
  };
}

const NEXT: Readonly<Record<CallStatus, readonly CallStatus[]>> = {
  // Some carriers report the answer without a ringing signal first.
  initiating: ['ringing', 'connected', 'ended'],
  ringing: ['connected', 'ended'],
  connected: ['ivr', 'on_hold', 'human_detected', 'transferring', 'ended'],
  ivr: ['on_hold', 'human_detected', 'transferring', 'ended'],
  on_hold: ['ivr', 'human_detected', 'transferring', 'ended'],
  // A voice that turns out to be a recording ("please continue to hold") sends the call back.
  human_detected: ['ivr', 'on_hold', 'transferring', 'ended'],
  // The device did not answer: the call goes back to the person or the queue it came from.
  transferring: ['bridged', 'human_detected', 'on_hold', 'ended'],
  bridged: ['ended'],
  ended: [],
};

const END_REASONS_FROM: Readonly<Record<CallStatus, readonly EndReason[]>> = {
  initiating: ['busy', 'no_answer', 'rejected', 'failed', 'hung_up'],
  ringing: ['busy', 'no_answer', 'rejected', 'failed', 'hung_up'],
  connected: ['failed', 'hung_up'],
  ivr: ['failed', 'hung_up'],
  on_hold: ['failed', 'hung_up'],
  human_detected: ['failed', 'hung_up'],
  transferring: ['failed', 'hung_up'],
  bridged: ['completed', 'failed'],
  ended: [],
};

export function canMove(from: CallStatus, to: CallStatus): boolean {
  return NEXT[from].includes(to);
}

/** The reason a call in `status` ends with when someone hangs it up. */
export function hangUpReason(status: CallStatus): EndReason {
  return status === 'bridged' ? 'completed' : 'hung_up';
}

const msBetween = (from: string, to: string): number =>
  Math.max(0, new Date(to).getTime() - new Date(from).getTime());

export type TransitionRefusal = 'invalid_transition';

/** Moves a call to `to` at `at`; `reason` is required for, and only for, `ended`. */
export function moveCall(
  call: CallTimeline,
  to: CallStatus,
  at: string,
  reason?: EndReason,
): Result<CallTimeline, TransitionRefusal> {
  if (!canMove(call.status, to)) {
    return refusal('invalid_transition', `A call that is ${call.status} cannot become ${to}.`, {
      status: call.status,
    });
  }
  if ((to === 'ended') !== (reason !== undefined)) {
    return refusal('invalid_transition', 'An end reason is given when, and only when, a call ends.');
  }
  if (reason && !END_REASONS_FROM[call.status].includes(reason)) {
    return refusal('invalid_transition', `A call that is ${call.status} cannot end as ${reason}.`, {
      status: call.status,
    });
  }
  const leavingHold = call.status === 'on_hold' && call.hold_started_at !== null;
  const next: CallTimeline = {
    ...call,
    status: to,
    hold_ms: leavingHold ? call.hold_ms + msBetween(call.hold_started_at, at) : call.hold_ms,
    hold_started_at: to === 'on_hold' ? at : null,
    answered_at: to === 'connected' ? at : call.answered_at,
    human_at: to === 'human_detected' && call.human_at === null ? at : call.human_at,
    bridged_at: to === 'bridged' ? at : call.bridged_at,
    ended_at: to === 'ended' ? at : null,
    end_reason: reason ?? null,
  };
  return success(next);
}

export interface CallDurations {
  /** From placing the call until it ended (or now). */
  readonly duration_ms: number;
  /** All time on hold, including the period in progress. */
  readonly hold_ms: number;
  /** From the answer until the end (or now); zero if never answered. */
  readonly connected_ms: number;
  /** From the answer until a person answered; undefined until one did. */
  readonly time_to_human_ms: number | undefined;
}

export function callDurations(call: CallTimeline, now: string): CallDurations {
  const end = call.ended_at ?? now;
  return {
    duration_ms: msBetween(call.created_at, end),
    hold_ms: call.hold_ms + (call.hold_started_at ? msBetween(call.hold_started_at, end) : 0),
    connected_ms: call.answered_at ? msBetween(call.answered_at, end) : 0,
    time_to_human_ms:
      call.human_at && call.answered_at ? msBetween(call.answered_at, call.human_at) : undefined,
  };
}

/** "4 min 12 s", "45 s", "1 h 3 min": how long something took, for summaries. */
export function describeDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}
