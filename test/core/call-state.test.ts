import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CALL_STATUSES,
  callDurations,
  canMove,
  describeDuration,
  END_REASONS,
  hangUpReason,
  isActive,
  moveCall,
  navigatesMenus,
  newCallTimeline,
  type CallStatus,
  type CallTimeline,
  type EndReason,
} from '../../src/core/calls/call-state.js';

const T0 = '2026-09-14T15:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

function walk(steps: readonly [CallStatus, number, EndReason?][]): CallTimeline {
  let call = newCallTimeline(T0);
  for (const [to, seconds, reason] of steps) {
    const moved = moveCall(call, to, at(seconds), reason);
    if (!moved.ok) throw new Error(moved.error.message);
    call = moved.value;
  }
  return call;
}

describe('call state › transitions', () => {
  it('goes initiating → ringing → connected → ivr → on_hold → human_detected → transferring → bridged → ended', () => {
    const call = walk([
      ['ringing', 1],
      ['connected', 5],
      ['ivr', 6],
      ['on_hold', 20],
      ['human_detected', 260],
      ['transferring', 261],
      ['bridged', 265],
      ['ended', 600, 'completed'],
    ]);
    expect(call).toEqual({
      status: 'ended',
      end_reason: 'completed',
      created_at: T0,
      answered_at: at(5),
      hold_started_at: null,
      hold_ms: 240_000,
      human_at: at(260),
      bridged_at: at(265),
      ended_at: at(600),
    });
    expect(callDurations(call, at(9999))).toEqual({
      duration_ms: 600_000,
      hold_ms: 240_000,
      connected_ms: 595_000,
      time_to_human_ms: 255_000,
    });
  });

  it('adds up several hold periods, and counts the one in progress', () => {
    const call = walk([
      ['connected', 2],
      ['on_hold', 10],
      ['ivr', 70],
      ['on_hold', 80],
    ]);
    expect(call.hold_ms).toBe(60_000);
    expect(call.hold_started_at).toBe(at(80));
    expect(callDurations(call, at(110)).hold_ms).toBe(90_000);
    expect(callDurations(call, at(110)).time_to_human_ms).toBeUndefined();
  });

  it('keeps the first time a person answered when a voice turns out to be a recording', () => {
    const call = walk([
      ['connected', 1],
      ['human_detected', 10],
      ['on_hold', 12],
      ['human_detected', 100],
    ]);
    expect(call.human_at).toBe(at(10));
  });

  it('returns a failed transfer to where it came from', () => {
    expect(
      walk([
        ['connected', 1],
        ['on_hold', 2],
        ['transferring', 3],
        ['on_hold', 30],
      ]).status,
    ).toBe('on_hold');
    expect(
      walk([
        ['connected', 1],
        ['transferring', 2],
        ['human_detected', 30],
      ]).status,
    ).toBe('human_detected');
  });

  it.each([
    ['initiating', 'on_hold'],
    ['ringing', 'ivr'],
    ['connected', 'bridged'],
    ['bridged', 'on_hold'],
    ['ivr', 'ringing'],
    ['ended', 'ringing'],
    ['ivr', 'ivr'],
  ] as const)('refuses %s → %s', (from, to) => {
    expect(canMove(from, to)).toBe(false);
  });

  it('refuses moves that are not allowed, naming the status', () => {
    const result = moveCall(newCallTimeline(T0), 'bridged', at(1));
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_transition', status: 'initiating' } });
  });

  it('wants an end reason for, and only for, ended', () => {
    expect(moveCall(newCallTimeline(T0), 'ended', at(1))).toMatchObject({ ok: false });
    expect(moveCall(newCallTimeline(T0), 'ringing', at(1), 'busy')).toMatchObject({ ok: false });
  });

  it('allows only the end reasons that fit the status', () => {
    const ringing = walk([['ringing', 1]]);
    for (const reason of ['busy', 'no_answer', 'rejected', 'failed', 'hung_up'] as const) {
      expect(moveCall(ringing, 'ended', at(2), reason).ok).toBe(true);
    }
    expect(moveCall(ringing, 'ended', at(2), 'completed')).toMatchObject({ ok: false });
    const onHold = walk([
      ['connected', 1],
      ['on_hold', 2],
    ]);
    expect(moveCall(onHold, 'ended', at(3), 'busy')).toMatchObject({ ok: false });
    expect(moveCall(onHold, 'ended', at(3), 'hung_up').ok).toBe(true);
    const bridged = walk([
      ['connected', 1],
      ['transferring', 2],
      ['bridged', 3],
    ]);
    expect(moveCall(bridged, 'ended', at(4), 'hung_up')).toMatchObject({ ok: false });
    expect(moveCall(bridged, 'ended', at(4), 'completed').ok).toBe(true);
    expect(moveCall(bridged, 'ended', at(4), 'failed').ok).toBe(true);
  });

  it('ends exactly once: nothing moves an ended call', () => {
    const ended = walk([['ended', 1, 'busy']]);
    for (const status of CALL_STATUSES) {
      for (const reason of [undefined, ...END_REASONS])
        expect(moveCall(ended, status, at(2), reason).ok).toBe(false);
    }
  });

  it('never loses hold time, whatever path a call takes', () => {
    const statuses = CALL_STATUSES.filter((s) => s !== 'ended');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...statuses), fc.integer({ min: 0, max: 600 })), { maxLength: 30 }),
        (moves) => {
          let call = newCallTimeline(T0);
          let clock = 0;
          let expectedHold = 0;
          for (const [to, gap] of moves) {
            clock += gap;
            const moved = moveCall(call, to, at(clock));
            if (!moved.ok) continue;
            if (call.status === 'on_hold')
              expectedHold += Date.parse(at(clock)) - Date.parse(call.hold_started_at!);
            call = moved.value;
            expect(call.hold_ms).toBe(expectedHold);
            expect(callDurations(call, at(clock)).hold_ms).toBe(expectedHold);
          }
        },
      ),
    );
  });
});

describe('call state › helpers', () => {
  it('names the reason a hang-up ends a call with', () => {
    expect(hangUpReason('bridged')).toBe('completed');
    expect(hangUpReason('on_hold')).toBe('hung_up');
  });

  it('knows which modes navigate menus and which statuses are active', () => {
    expect([navigatesMenus('direct'), navigatesMenus('hold_slayer'), navigatesMenus('ai_assisted')]).toEqual([
      false,
      true,
      true,
    ]);
    expect(isActive('ended')).toBe(false);
    expect(isActive('bridged')).toBe(true);
  });

  it('reports zero connected time for a call never answered, and never negative times', () => {
    const call = walk([['ended', 30, 'no_answer']]);
    expect(callDurations(call, at(10))).toMatchObject({ duration_ms: 30_000, connected_ms: 0 });
    expect(callDurations(newCallTimeline(T0), at(-5)).duration_ms).toBe(0);
  });

  it.each([
    [0, '0 s'],
    [45_900, '45 s'],
    [60_000, '1 min'],
    [252_000, '4 min 12 s'],
    [3_600_000, '1 h'],
    [3_780_000, '1 h 3 min'],
  ])('describes %i ms as %s', (ms, text) => {
    expect(describeDuration(ms)).toBe(text);
  });
});
