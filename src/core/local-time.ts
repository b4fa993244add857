import { WEEKDAYS } from './office.js';
import type { Weekday } from './office.js';

/**
 * Office-local calendar and wall-clock arithmetic. Dates are `YYYY-MM-DD` and times `HH:MM` in the
 * office's IANA zone; only `Intl` knows the zone rules, so every conversion goes through it and
 * everything else is plain arithmetic on UTC-midnight epochs.
 */

const SECOND_MS = 1_000;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Epoch milliseconds of a UTC calendar moment; unlike `Date.UTC` it keeps years below 100 as written. */
function utcEpoch(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const moment = new Date(0);
  moment.setUTCFullYear(year, month - 1, day);
  moment.setUTCHours(hour, minute, second, 0);
  return moment.getTime();
}

/** UTC midnight of a `YYYY-MM-DD` date; out-of-range fields roll over the way `Date` does. */
function dateEpoch(date: string): number {
  return utcEpoch(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10)));
}

function isoDateOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

export function isValidLocalDate(date: string): boolean {
  if (!DATE_PATTERN.test(date)) return false;
  // A date rolled over by `Date` (2026-02-30 -> 2026-03-02) reads back differently.
  return isoDateOf(dateEpoch(date)) === date;
}

/** The calendar date `days` after `date` (negative goes back). */
export function addDays(date: string, days: number): string {
  return isoDateOf(dateEpoch(date) + days * DAY_MS);
}

/** Whole days from `a` to `b`: positive when `b` is later. */
export function daysBetween(a: string, b: string): number {
  return Math.round((dateEpoch(b) - dateEpoch(a)) / DAY_MS);
}

export function weekdayOf(date: string): Weekday {
  return WEEKDAYS[new Date(dateEpoch(date)).getUTCDay()] as Weekday;
}

/** `HH:MM` -> minutes since midnight. */
export function minutesOf(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}

/** Minutes since midnight -> `HH:MM`. */
export function formatMinutes(minutes: number): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/** Building an `Intl.DateTimeFormat` costs far more than using one, so each zone's is built once. */
const wallClockFormatters = new Map<string, Intl.DateTimeFormat>();

function wallClockFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = wallClockFormatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    wallClockFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** en-US numeric output reads `MM/DD/YYYY, HH:MM:SS`; only the order of the numbers is relied on. */
const WALL_CLOCK_PATTERN = /(\d+)\D+(\d+)\D+(\d+)\D+(\d+)\D+(\d+)\D+(\d+)/;

/**
 * The zone's wall clock at an instant, written as if it were a UTC epoch so it can be compared.
 * Parsing `format` output is several times faster than `formatToParts`, and this is the hot path.
 */
function wallClockEpoch(epochMs: number, timeZone: string): number {
  const [, month, day, year, hour, minute, second] =
    WALL_CLOCK_PATTERN.exec(wallClockFormatter(timeZone).format(epochMs)) ?? [];
  return utcEpoch(Number(year), Number(month), Number(day), Number(hour), Number(minute), Number(second));
}

/** The zone's UTC offset at an instant, in milliseconds (Chicago in summer: -5 h). */
function offsetAt(epochMs: number, timeZone: string): number {
  const wholeSecondMs = Math.floor(epochMs / SECOND_MS) * SECOND_MS;
  return wallClockEpoch(epochMs, timeZone) - wholeSecondMs;
}

/**
 * The first instant carrying the new offset, given one instant on each side of a clock change.
 * Zone rules change offsets on whole seconds, so a binary search to the second is exact.
 */
function firstInstantAfterChange(
  beforeMs: number,
  afterMs: number,
  offsetBefore: number,
  timeZone: string,
): number {
  let lo = beforeMs;
  let hi = afterMs;
  while (hi - lo > SECOND_MS) {
    const mid = lo + Math.floor((hi - lo) / (2 * SECOND_MS)) * SECOND_MS;
    if (offsetAt(mid, timeZone) === offsetBefore) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * The UTC instant of an office-local wall time.
 *
 * Clock changes make some wall times ambiguous or nonexistent; the choices keep the mapping
 * non-decreasing, so a period that starts before it ends in wall time never ends before it starts:
 * - a time repeated at fall-back (01:30 on 2026-11-01 in Chicago) is its earlier, daylight reading;
 * - a time skipped at spring-forward (02:30 on 2026-03-08 in Chicago) is the first instant after the
 *   gap, i.e. the moment the clocks read 03:00.
 */
export function zonedToUtc(date: string, time: string, timeZone: string): Date {
  const key = `${timeZone} ${date} ${time}`;
  let epochMs = zonedInstants.get(key);
  if (epochMs === undefined) {
    if (zonedInstants.size >= ZONED_MEMO_LIMIT) zonedInstants.clear();
    epochMs = zonedToUtcUncached(date, time, timeZone).getTime();
    zonedInstants.set(key, epochMs);
  }
  return new Date(epochMs);
}

/**
 * Each conversion asks `Intl` at least twice, and every availability check converts the same opening
 * times and midnights again; zone rules do not change while the process runs, so a bounded memo of
 * the results is exact.
 */
const zonedInstants = new Map<string, number>();
const ZONED_MEMO_LIMIT = 10_000;

function zonedToUtcUncached(date: string, time: string, timeZone: string): Date {
  const wall = dateEpoch(date) + minutesOf(time) * MINUTE_MS;
  // A day either side lies outside any clock change near `wall` but within the same zone rule.
  const offsetBefore = offsetAt(wall - DAY_MS, timeZone);
  const offsetAfter = offsetAt(wall + DAY_MS, timeZone);
  // No zone changes its offset twice within two days, so equal offsets mean no change near `wall`.
  if (offsetBefore === offsetAfter) return new Date(wall - offsetBefore);
  // The larger offset gives the earlier instant, so trying it first settles ambiguity on the earlier one.
  for (const offset of [Math.max(offsetBefore, offsetAfter), Math.min(offsetBefore, offsetAfter)]) {
    if (offsetAt(wall - offset, timeZone) === offset) return new Date(wall - offset);
  }
  return new Date(firstInstantAfterChange(wall - offsetAfter, wall - offsetBefore, offsetBefore, timeZone));
}

export interface ZonedMoment {
  readonly date: string;
  readonly time: string;
  readonly weekday: Weekday;
}

/**
 * The last conversion, by zone and whole second: zone offsets are whole seconds, so every instant of
 * one second reads the same wall clock. Requests asking "what is today" within a second share it.
 */
let lastZoned: { timeZone: string; second: number; moment: ZonedMoment } | undefined;

/** The office-local date, `HH:MM` time and weekday of a UTC instant. */
export function utcToZoned(instant: Date, timeZone: string): ZonedMoment {
  const second = Math.floor(instant.getTime() / SECOND_MS);
  if (lastZoned?.second === second && lastZoned.timeZone === timeZone) return lastZoned.moment;
  const wall = new Date(wallClockEpoch(instant.getTime(), timeZone)).toISOString();
  const date = wall.slice(0, 10);
  const moment = Object.freeze({ date, time: wall.slice(11, 16), weekday: weekdayOf(date) });
  lastZoned = { timeZone, second, moment };
  return moment;
}
