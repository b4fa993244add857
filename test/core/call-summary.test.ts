import { describe, expect, it } from 'vitest';
import {
  moveCall,
  newCallTimeline,
  type CallStatus,
  type CallTimeline,
  type EndReason,
} from '../../src/core/calls/call-state.js';
import { sentimentOf, summariseCall, type CallRecap } from '../../src/core/calls/call-summary.js';

const T0 = '2026-09-14T15:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

function timeline(steps: readonly [CallStatus, number, EndReason?][]): CallTimeline {
  let call = newCallTimeline(T0);
  for (const [to, seconds, reason] of steps) {
    const moved = moveCall(call, to, at(seconds), reason);
    if (!moved.ok) throw new Error(moved.error.message);
    call = moved.value;
  }
  return call;
}

const recap = (overrides: Partial<CallRecap>): CallRecap => ({
  number: '+18005551234',
  mode: 'hold_slayer',
  intent: 'dispute the Amazon charge',
  timeline: timeline([['ended', 20, 'busy']]),
  pressed: [],
  explored: false,
  transferredTo: null,
  agentLines: [],
  ...overrides,
});

describe('call summaries', () => {
  it('tells the whole story of a call handed over to staff', () => {
    const summary = summariseCall(
      recap({
        timeline: timeline([
          ['connected', 5],
          ['ivr', 6],
          ['on_hold', 20],
          ['human_detected', 272],
          ['transferring', 273],
          ['bridged', 276],
          ['ended', 900, 'completed'],
        ]),
        pressed: ['2', '1234#'],
        transferredTo: 'Desk phone',
        agentLines: ['Hi, I am happy to help. That charge has been credited.'],
      }),
      at(900),
    );
    expect(summary).toEqual({
      summary:
        'Called +18005551234 (hold slayer) about: dispute the Amazon charge. Pressed 2, 1234# in the phone menu. ' +
        'Waited 4 min 12 s on hold. A person answered 4 min 27 s after the call connected. Connected to Desk phone. ' +
        'The call was completed after 15 min.',
      action_items: [],
      sentiment: 'positive',
    });
  });

  it('asks to try again when the far end never answered', () => {
    const summary = summariseCall(recap({}), at(20));
    expect(summary.summary).toBe(
      'Called +18005551234 (hold slayer) about: dispute the Amazon charge. The line was busy after 20 s.',
    );
    expect(summary.action_items).toEqual(['Try +18005551234 again later about: dispute the Amazon charge.']);
  });

  it('asks to call again when nobody was reached, and to save an explored menu', () => {
    const summary = summariseCall(
      recap({
        intent: null,
        mode: 'direct',
        timeline: timeline([
          ['connected', 3],
          ['on_hold', 10],
          ['ended', 70, 'hung_up'],
        ]),
        pressed: ['3'],
        explored: true,
      }),
      at(70),
    );
    expect(summary.summary).toContain('Called +18005551234 (direct).');
    expect(summary.action_items).toEqual([
      'Call +18005551234 again: no person was reached.',
      'Save the menu path with learn_call_flow so the next call navigates it directly.',
    ]);
  });

  it('asks to call back when a person answered but was never connected', () => {
    const summary = summariseCall(
      recap({
        timeline: timeline([
          ['connected', 3],
          ['human_detected', 9],
          ['ended', 30, 'hung_up'],
        ]),
        agentLines: ['Unfortunately we are unable to help.'],
      }),
      at(30),
    );
    expect(summary.action_items).toEqual([
      'Call +18005551234 back: a person answered but was never connected to you.',
    ]);
    expect(summary.sentiment).toBe('negative');
  });

  it('summarises a call still in progress up to now', () => {
    const summary = summariseCall(
      recap({
        timeline: timeline([
          ['connected', 3],
          ['on_hold', 4],
        ]),
      }),
      at(64),
    );
    expect(summary.summary).toContain('Waited 1 min on hold.');
    expect(summary.summary).toContain('The call is still in progress after 1 min 4 s.');
  });

  it('reads neutral when nothing in the words leans either way', () => {
    expect(sentimentOf([])).toBe('neutral');
    expect(sentimentOf(['Thank you for your patience.', 'Sorry about that.'])).toBe('neutral');
    expect(sentimentOf(["I can't find that, sorry."])).toBe('negative');
  });
});
