import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  addDays,
  daysBetween,
  formatMinutes,
  isValidLocalDate,
  minutesOf,
  utcToZoned,
  weekdayOf,
  zonedToUtc,
} from '../../src/core/local-time.js';

const CHICAGO = 'America/Chicago';
const ZONES = [
  'America/Chicago',
  'Europe/London',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'UTC',
];
const iso = (date: Date): string => date.toISOString();

describe('local-time', () => {
  describe('isValidLocalDate', () => {
    it('accepts real calendar dates, leap days included', () => {
      expect(isValidLocalDate('2026-09-16')).toBe(true);
      expect(isValidLocalDate('2028-02-29')).toBe(true);
      expect(isValidLocalDate('2026-12-31')).toBe(true);
    });

    it('rejects dates the calendar does not have', () => {
      expect(isValidLocalDate('2026-02-30')).toBe(false);
      expect(isValidLocalDate('2027-02-29')).toBe(false);
      expect(isValidLocalDate('2026-04-31')).toBe(false);
      expect(isValidLocalDate('2026-13-01')).toBe(false);
      expect(isValidLocalDate('2026-00-10')).toBe(false);
    });

    it('rejects anything not written YYYY-MM-DD', () => {
      for (const text of ['2026-9-16', '16-09-2026', '2026/09/16', '2026-09-16T00:00', '', 'tomorrow']) {
        expect(isValidLocalDate(text)).toBe(false);
      }
    });

    it('keeps years below 100 as written', () => {
      expect(isValidLocalDate('0050-03-01')).toBe(true);
    });
  });

  describe('calendar arithmetic', () => {
    it('adds days across month and year ends, and backwards', () => {
      expect(addDays('2026-09-16', 1)).toBe('2026-09-17');
      expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
      expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
      expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
      expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    });

    it('counts calendar days, not 24-hour periods, across a clock change', () => {
      expect(addDays('2026-03-08', 1)).toBe('2026-03-09');
      expect(daysBetween('2026-03-07', '2026-03-09')).toBe(2);
      expect(daysBetween('2026-11-01', '2026-11-02')).toBe(1);
    });

    it('counts days from the first date to the second, negative when the second is earlier', () => {
      expect(daysBetween('2026-09-14', '2026-10-14')).toBe(30);
      expect(daysBetween('2026-09-14', '2026-09-14')).toBe(0);
      expect(daysBetween('2026-09-14', '2026-09-10')).toBe(-4);
    });

    it('names the weekday of a date', () => {
      expect(weekdayOf('2026-09-16')).toBe('wednesday');
      expect(weekdayOf('2026-03-08')).toBe('sunday');
      expect(weekdayOf('2026-09-19')).toBe('saturday');
    });

    it('agrees with itself for any date and day count', () => {
      fc.assert(
        fc.property(
          fc.date({ min: new Date('1990-01-01'), max: new Date('2090-01-01'), noInvalidDate: true }),
          fc.integer({ min: -1000, max: 1000 }),
          (start, days) => {
            const date = start.toISOString().slice(0, 10);
            const later = addDays(date, days);
            expect(isValidLocalDate(later)).toBe(true);
            expect(daysBetween(date, later)).toBe(days);
            expect(addDays(later, -days)).toBe(date);
          },
        ),
      );
    });
  });

  describe('minutes of the day', () => {
    it('reads HH:MM as minutes since midnight', () => {
      expect(minutesOf('00:00')).toBe(0);
      expect(minutesOf('09:05')).toBe(545);
      expect(minutesOf('23:59')).toBe(1439);
    });

    it('writes minutes since midnight as zero-padded HH:MM', () => {
      expect(formatMinutes(0)).toBe('00:00');
      expect(formatMinutes(545)).toBe('09:05');
      expect(formatMinutes(1439)).toBe('23:59');
    });

    it('round-trips every minute of the day', () => {
      for (let minute = 0; minute < 1440; minute += 1) expect(minutesOf(formatMinutes(minute))).toBe(minute);
    });
  });

  describe('zonedToUtc', () => {
    it('applies daylight time in summer and standard time in winter', () => {
      expect(iso(zonedToUtc('2026-09-16', '09:00', CHICAGO))).toBe('2026-09-16T14:00:00.000Z');
      expect(iso(zonedToUtc('2026-01-14', '09:00', CHICAGO))).toBe('2026-01-14T15:00:00.000Z');
    });

    it('handles zones with half-hour and quarter-hour offsets', () => {
      expect(iso(zonedToUtc('2026-09-16', '09:00', 'Asia/Kolkata'))).toBe('2026-09-16T03:30:00.000Z');
      expect(iso(zonedToUtc('2026-09-16', '09:00', 'Asia/Kathmandu'))).toBe('2026-09-16T03:15:00.000Z');
      expect(iso(zonedToUtc('2026-09-16', '09:00', 'UTC'))).toBe('2026-09-16T09:00:00.000Z');
    });

    it('moves a local midnight to the previous UTC day in a zone east of UTC', () => {
      expect(iso(zonedToUtc('2026-09-16', '00:00', 'Asia/Kolkata'))).toBe('2026-09-15T18:30:00.000Z');
    });

    describe('spring-forward day (2026-03-08 in Chicago, 02:00 CST -> 03:00 CDT)', () => {
      it('keeps standard time up to the gap', () => {
        expect(iso(zonedToUtc('2026-03-08', '01:59', CHICAGO))).toBe('2026-03-08T07:59:00.000Z');
      });

      it('maps a skipped time to the first instant after the gap', () => {
        expect(iso(zonedToUtc('2026-03-08', '02:00', CHICAGO))).toBe('2026-03-08T08:00:00.000Z');
        expect(iso(zonedToUtc('2026-03-08', '02:30', CHICAGO))).toBe('2026-03-08T08:00:00.000Z');
        expect(iso(zonedToUtc('2026-03-08', '02:59', CHICAGO))).toBe('2026-03-08T08:00:00.000Z');
      });

      it('uses daylight time from the end of the gap', () => {
        expect(iso(zonedToUtc('2026-03-08', '03:00', CHICAGO))).toBe('2026-03-08T08:00:00.000Z');
        expect(iso(zonedToUtc('2026-03-08', '09:00', CHICAGO))).toBe('2026-03-08T14:00:00.000Z');
      });
    });

    describe('fall-back day (2026-11-01 in Chicago, 02:00 CDT -> 01:00 CST)', () => {
      it('reads a repeated time as its earlier, daylight instance', () => {
        expect(iso(zonedToUtc('2026-11-01', '01:00', CHICAGO))).toBe('2026-11-01T06:00:00.000Z');
        expect(iso(zonedToUtc('2026-11-01', '01:30', CHICAGO))).toBe('2026-11-01T06:30:00.000Z');
      });

      it('uses standard time once the repeated hour is over', () => {
        expect(iso(zonedToUtc('2026-11-01', '02:00', CHICAGO))).toBe('2026-11-01T08:00:00.000Z');
        expect(iso(zonedToUtc('2026-11-01', '09:00', CHICAGO))).toBe('2026-11-01T15:00:00.000Z');
      });
    });

    it('handles a half-hour clock change (Lord Howe Island, 02:00 -> 02:30)', () => {
      expect(iso(zonedToUtc('2026-10-04', '02:15', 'Australia/Lord_Howe'))).toBe('2026-10-03T15:30:00.000Z');
      expect(iso(zonedToUtc('2026-10-04', '02:30', 'Australia/Lord_Howe'))).toBe('2026-10-03T15:30:00.000Z');
    });

    it('handles a whole skipped day (Samoa, 2011-12-30)', () => {
      expect(iso(zonedToUtc('2011-12-30', '12:00', 'Pacific/Apia'))).toBe('2011-12-30T10:00:00.000Z');
      expect(utcToZoned(zonedToUtc('2011-12-30', '12:00', 'Pacific/Apia'), 'Pacific/Apia')).toEqual({
        date: '2011-12-31',
        time: '00:00',
        weekday: 'saturday',
      });
    });

    it('never maps a later wall time of a day to an earlier instant', () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...ZONES),
          fc.constantFrom(
            '2026-03-08',
            '2026-03-29',
            '2026-04-05',
            '2026-10-04',
            '2026-10-25',
            '2026-11-01',
            '2026-06-10',
          ),
          fc.integer({ min: 0, max: 1438 }),
          fc.integer({ min: 1, max: 1439 }),
          (zone, date, a, gap) => {
            const later = Math.min(1439, a + gap);
            const first = zonedToUtc(date, formatMinutes(a), zone).getTime();
            const second = zonedToUtc(date, formatMinutes(later), zone).getTime();
            expect(second).toBeGreaterThanOrEqual(first);
          },
        ),
      );
    });
  });

  describe('utcToZoned', () => {
    it('reads the office-local date, time and weekday of an instant', () => {
      expect(utcToZoned(new Date('2026-09-16T14:00:00Z'), CHICAGO)).toEqual({
        date: '2026-09-16',
        time: '09:00',
        weekday: 'wednesday',
      });
    });

    it('puts a late-evening local time on the previous UTC date', () => {
      expect(utcToZoned(new Date('2026-09-16T03:30:00Z'), CHICAGO)).toEqual({
        date: '2026-09-15',
        time: '22:30',
        weekday: 'tuesday',
      });
    });

    it('drops seconds', () => {
      expect(utcToZoned(new Date('2026-09-16T14:05:59.999Z'), CHICAGO).time).toBe('09:05');
    });

    it('reads both passes of the repeated fall-back hour as the same wall time', () => {
      expect(utcToZoned(new Date('2026-11-01T06:30:00Z'), CHICAGO).time).toBe('01:30');
      expect(utcToZoned(new Date('2026-11-01T07:30:00Z'), CHICAGO).time).toBe('01:30');
    });

    it('is undone by zonedToUtc, to the minute, except that a repeated time reads as its earlier instance', () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...ZONES),
          fc.integer({ min: Date.parse('2026-01-01T00:00:00Z'), max: Date.parse('2027-01-01T00:00:00Z') }),
          (zone, epochMs) => {
            const wall = utcToZoned(new Date(epochMs), zone);
            const back = zonedToUtc(wall.date, wall.time, zone);
            const minuteOf = Math.floor(epochMs / 60_000) * 60_000;
            expect(utcToZoned(back, zone)).toEqual(wall);
            expect(back.getTime()).toBeLessThanOrEqual(minuteOf);
            // The only other reading is one repeated hour (or half hour) earlier.
            expect([0, 30 * 60_000, 60 * 60_000]).toContain(minuteOf - back.getTime());
          },
        ),
        { numRuns: 500 },
      );
    });
  });

  describe('formatter cache', () => {
    afterEach(() => vi.restoreAllMocks());

    it('builds one Intl.DateTimeFormat per time zone, however many conversions use it', () => {
      const RealDateTimeFormat = Intl.DateTimeFormat;
      const built = vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (...args) {
        return new RealDateTimeFormat(...args);
      });
      for (let day = 1; day <= 20; day += 1) {
        utcToZoned(
          zonedToUtc(`2026-05-${String(day).padStart(2, '0')}`, '10:00', 'Europe/Helsinki'),
          'Europe/Helsinki',
        );
      }
      expect(built).toHaveBeenCalledTimes(1);
      zonedToUtc('2026-05-01', '10:00', 'Europe/Helsinki');
      expect(built).toHaveBeenCalledTimes(1);
    });
  });
});
