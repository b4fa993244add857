import { utcToZoned, zonedToUtc } from '../local-time.js';
import { refusal, success, type Result } from '../result.js';

/**
 * The two brakes on outbound calling: at most `maxConcurrent` calls in progress at once, and at most
 * `dailyLimit` calls placed per office-local day (counted from midnight in the office's time zone,
 * every staff member together). Calls cost money and tie up lines, so both are office-wide.
 */
export interface CallLimits {
  readonly maxConcurrent: number;
  readonly dailyLimit: number;
}

export interface CallUsage {
  /** Calls not yet ended (whose driving instance is still alive). */
  readonly active: number;
  /** Calls placed since the office-local midnight. */
  readonly placedToday: number;
}

export type LimitRefusalCode = 'concurrency_limit' | 'daily_limit';

export function checkCallLimits(limits: CallLimits, usage: CallUsage): Result<void, LimitRefusalCode> {
  if (usage.active >= limits.maxConcurrent) {
    return refusal(
      'concurrency_limit',
      `${usage.active} calls are already in progress, the most allowed at once; hang one up or wait.`,
      { active_calls: usage.active, max_concurrent_calls: limits.maxConcurrent },
    );
  }
  if (usage.placedToday >= limits.dailyLimit) {
    return refusal('daily_limit', `Today's budget of ${limits.dailyLimit} calls is used up.`, {
      calls_today: usage.placedToday,
      daily_call_limit: limits.dailyLimit,
    });
  }
  return success(undefined);
}

/** The instant the office-local day containing `now` began. */
export function officeDayStart(now: Date, timeZone: string): Date {
  return zonedToUtc(utcToZoned(now, timeZone).date, '00:00', timeZone);
}
