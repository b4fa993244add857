import { describe, expect, it } from 'vitest';
import { checkCallLimits, officeDayStart } from '../../src/core/calls/call-limits.js';

const LIMITS = { maxConcurrent: 2, dailyLimit: 20 };

describe('call limits', () => {
  it('allows a call below both limits', () => {
    expect(checkCallLimits(LIMITS, { active: 1, placedToday: 19 })).toEqual({ ok: true, value: undefined });
  });

  it('refuses at the concurrency cap first, with the numbers', () => {
    expect(checkCallLimits(LIMITS, { active: 2, placedToday: 20 })).toMatchObject({
      ok: false,
      error: { code: 'concurrency_limit', active_calls: 2, max_concurrent_calls: 2 },
    });
  });

  it('refuses once the daily budget is used', () => {
    expect(checkCallLimits(LIMITS, { active: 0, placedToday: 20 })).toMatchObject({
      ok: false,
      error: { code: 'daily_limit', calls_today: 20, daily_call_limit: 20 },
    });
  });

  it('counts the day from midnight in the office time zone', () => {
    // 03:30 UTC on the 15th is still the 14th in Chicago (CDT, UTC-5).
    expect(officeDayStart(new Date('2026-09-15T03:30:00Z'), 'America/Chicago').toISOString()).toBe(
      '2026-09-14T05:00:00.000Z',
    );
    expect(officeDayStart(new Date('2026-09-15T05:30:00Z'), 'America/Chicago').toISOString()).toBe(
      '2026-09-15T05:00:00.000Z',
    );
    // Standard time after the autumn change: midnight is 06:00 UTC.
    expect(officeDayStart(new Date('2026-11-02T12:00:00Z'), 'America/Chicago').toISOString()).toBe(
      '2026-11-02T06:00:00.000Z',
    );
  });
});
