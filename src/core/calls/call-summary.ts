import { normalisePrompt } from './call-flows.js';
import {
  callDurations,
  describeDuration,
  type CallMode,
  type CallTimeline,
  type EndReason,
} from './call-state.js';

/**
 * The stored summary of a finished call: what happened, in a few factual sentences built from its
 * timeline, what the staff member may still have to do, and the tone of what the person who answered
 * said (a word-list reading, not a judgement: "unfortunately" and "unable" weigh against "resolved"
 * and "happy to help").
 */
export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

export interface CallRecap {
  readonly number: string;
  readonly mode: CallMode;
  readonly intent: string | null;
  readonly timeline: CallTimeline;
  /** DTMF sent, in order. */
  readonly pressed: readonly string[];
  /** The call navigated a menu without a stored flow that took it all the way. */
  readonly explored: boolean;
  /** Name of the device the call was handed to, if it was. */
  readonly transferredTo: string | null;
  /** What the person who answered said. */
  readonly agentLines: readonly string[];
}

export interface CallSummary {
  readonly summary: string;
  readonly action_items: string[];
  readonly sentiment: Sentiment;
}

const POSITIVE = [
  'happy to help',
  'glad to help',
  'resolved',
  'taken care of',
  'approved',
  'refund',
  'credited',
  'great',
  'perfect',
  'no problem',
  'thank you for your patience',
];
const NEGATIVE = [
  'unfortunately',
  'unable',
  'cannot',
  'can t',
  'not able',
  'denied',
  'declined',
  'not possible',
  'no record',
  'sorry',
  'call back',
];

function countPhrases(text: string, phrases: readonly string[]): number {
  const padded = ` ${text} `;
  return phrases.filter((p) => padded.includes(` ${p} `)).length;
}

export function sentimentOf(lines: readonly string[]): Sentiment {
  const text = normalisePrompt(lines.join(' '));
  const score = countPhrases(text, POSITIVE) - countPhrases(text, NEGATIVE);
  if (score > 0) return 'positive';
  return score < 0 ? 'negative' : 'neutral';
}

const ENDINGS: Readonly<Record<EndReason, string>> = {
  completed: 'The call was completed',
  busy: 'The line was busy',
  no_answer: 'Nobody answered',
  rejected: 'The call was rejected',
  failed: 'The call failed',
  hung_up: 'The call was hung up',
};

function actionItems(recap: CallRecap): string[] {
  const { timeline } = recap;
  const items: string[] = [];
  const reason = timeline.end_reason;
  if (reason === 'busy' || reason === 'no_answer' || reason === 'rejected' || reason === 'failed') {
    items.push(`Try ${recap.number} again later${recap.intent ? ` about: ${recap.intent}` : ''}.`);
  } else if (timeline.human_at === null) {
    items.push(
      `Call ${recap.number} again: no person was reached${recap.intent ? ` about: ${recap.intent}` : ''}.`,
    );
  } else if (timeline.bridged_at === null) {
    items.push(`Call ${recap.number} back: a person answered but was never connected to you.`);
  }
  if (recap.explored && recap.pressed.length > 0 && (timeline.hold_ms > 0 || timeline.human_at !== null)) {
    items.push('Save the menu path with learn_call_flow so the next call navigates it directly.');
  }
  return items;
}

/** Summarises a call that has ended; `now` only matters for a call summarised before its end. */
export function summariseCall(recap: CallRecap, now: string): CallSummary {
  const { timeline } = recap;
  const durations = callDurations(timeline, now);
  const parts = [
    `Called ${recap.number} (${recap.mode.replace('_', ' ')})${recap.intent ? ` about: ${recap.intent}` : ''}.`,
  ];
  if (recap.pressed.length > 0) parts.push(`Pressed ${recap.pressed.join(', ')} in the phone menu.`);
  if (durations.hold_ms > 0) parts.push(`Waited ${describeDuration(durations.hold_ms)} on hold.`);
  if (durations.time_to_human_ms !== undefined) {
    parts.push(`A person answered ${describeDuration(durations.time_to_human_ms)} after the call connected.`);
  }
  if (recap.transferredTo && timeline.bridged_at) parts.push(`Connected to ${recap.transferredTo}.`);
  const ending = timeline.end_reason ? ENDINGS[timeline.end_reason] : 'The call is still in progress';
  parts.push(`${ending} after ${describeDuration(durations.duration_ms)}.`);
  return {
    summary: parts.join(' '),
    action_items: actionItems(recap),
    sentiment: sentimentOf(recap.agentLines),
  };
}
