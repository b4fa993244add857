import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FaqFileSchema } from '../../src/core/faq.js';
import { OfficeSchema, WEEKDAYS } from '../../src/core/office.js';
import { RateTableSchema } from '../../src/core/quote.js';
import { speakTime } from '../../src/core/spoken.js';

const readData = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../data/${name}`, import.meta.url), 'utf8'));

const office = OfficeSchema.parse(readData('office.json'));
const faq = FaqFileSchema.parse(readData('faq.json'));
const rates = RateTableSchema.parse(readData('rate_table.json'));

const answerOf = (id: string): string => {
  const found = faq.entries.find((e) => e.id === id);
  if (found === undefined) throw new Error(`FAQ entry ${id} is missing`);
  return found.answer;
};

const isoDate = (date: Date): string => date.toISOString().slice(0, 10);

/** The `n`th given weekday (0 = Sunday) of a month; `n = -1` for the last one. */
function nthWeekday(year: number, month: number, weekday: number, n: number): Date {
  const days = Array.from({ length: 31 }, (_, i) => new Date(Date.UTC(year, month - 1, i + 1))).filter(
    (d) => d.getUTCMonth() === month - 1 && d.getUTCDay() === weekday,
  );
  const day = n === -1 ? days.at(-1) : days[n - 1];
  if (day === undefined) throw new Error('no such weekday');
  return day;
}

/** New Year's Day, Juneteenth, Independence Day, Veterans Day, Christmas Day as [month, day]. */
const FIXED_DATE_HOLIDAYS: readonly (readonly [number, number])[] = [
  [1, 1],
  [6, 19],
  [7, 4],
  [11, 11],
  [12, 25],
];

/** 5 U.S.C. 6103: the eleven federal holidays, each with its weekday observance when it falls on a weekend. */
function federalHolidayDates(year: number): string[] {
  const fixed = FIXED_DATE_HOLIDAYS.map(([month, day]) => new Date(Date.UTC(year, month - 1, day)));
  const floating = [
    nthWeekday(year, 1, 1, 3),
    nthWeekday(year, 2, 1, 3),
    nthWeekday(year, 5, 1, -1),
    nthWeekday(year, 9, 1, 1),
    nthWeekday(year, 10, 1, 2),
    nthWeekday(year, 11, 4, 4),
  ];
  const observed = fixed.flatMap((d) => {
    const shift = d.getUTCDay() === 6 ? -1 : d.getUTCDay() === 0 ? 1 : 0;
    return shift === 0 ? [] : [new Date(d.getTime() + shift * 86_400_000)];
  });
  return [...fixed, ...floating, ...observed].map(isoDate);
}

const capitalised = (day: string): string => day.charAt(0).toUpperCase() + day.slice(1);

describe('bundled data', () => {
  describe('schemas', () => {
    it('office.json is a valid office', () => {
      expect(OfficeSchema.safeParse(readData('office.json')).success).toBe(true);
    });

    it('faq.json is a valid FAQ file', () => {
      expect(FaqFileSchema.safeParse(readData('faq.json')).success).toBe(true);
    });

    it('rate_table.json is a valid rate table', () => {
      expect(RateTableSchema.safeParse(readData('rate_table.json')).success).toBe(true);
    });
  });

  describe('office', () => {
    it('is the synthetic Harborview agency in Illinois on Chicago time', () => {
      expect(office).toMatchObject({
        id: 'harborview',
        timezone: 'America/Chicago',
        address: { state: 'IL' },
      });
      expect(office.phone).toMatch(/555-01\d\d$/);
      expect(office.email.endsWith('example.com')).toBe(true);
      expect(new URL(office.website ?? '').hostname.endsWith('example.com')).toBe(true);
    });

    it('offers exactly the three bookable services with their durations', () => {
      expect(Object.fromEntries(office.services.map((s) => [s.id, s.duration_minutes]))).toEqual({
        consultation: 30,
        policy_review: 60,
        quote_walkthrough: 45,
      });
    });

    it('has staff who each offer at least one service, and every service has staff', () => {
      for (const member of office.staff) expect(member.services.length, member.id).toBeGreaterThan(0);
      for (const service of office.services) {
        expect(
          office.staff.some((m) => m.services.includes(service.id)),
          service.id,
        ).toBe(true);
      }
      expect(office.staff.some((m) => m.services.length < office.services.length)).toBe(true);
    });

    it('closes on every US federal holiday of 2026 and 2027, and on the weekday each is observed', () => {
      const dates = office.holidays.map((h) => h.date);
      expect(new Set(dates).size).toBe(dates.length);
      const expected = [...federalHolidayDates(2026), ...federalHolidayDates(2027)];
      // New Year's Day 2028 falls on a Saturday, so it is observed on Friday 2027-12-31.
      expected.push(...federalHolidayDates(2028).filter((d) => d.startsWith('2027')));
      expect([...dates].sort()).toEqual([...new Set(expected)].sort());
    });

    it('is closed on Sundays', () => {
      expect(office.hours.sunday).toEqual([]);
    });
  });

  describe('FAQ consistency with the office', () => {
    it('states every opening and closing time of the week in the hours answer', () => {
      const answer = answerOf('office-hours');
      for (const day of WEEKDAYS) {
        const periods = office.hours[day];
        if (periods.length === 0) continue;
        expect(answer, day).toContain(capitalised(day));
        for (const { open, close } of periods) {
          expect(answer, `${day} ${open}`).toContain(speakTime(open));
          expect(answer, `${day} ${close}`).toContain(speakTime(close));
        }
      }
      expect(answer).toMatch(/closed on Sundays/);
    });

    it('states the Saturday hours in the weekend answer', () => {
      const answer = answerOf('weekend-hours');
      for (const { open, close } of office.hours.saturday) {
        expect(answer).toContain(`from ${speakTime(open)} to ${speakTime(close)}`);
      }
    });

    it('gives the office street address in the location answer', () => {
      expect(answerOf('office-location')).toContain(office.address.street);
      expect(answerOf('office-location')).toContain(office.address.postal_code);
    });

    it('gives the office phone number and e-mail in the contact answers', () => {
      expect(answerOf('phone-number')).toContain(office.phone);
      expect(answerOf('contact-email')).toContain(office.email);
    });

    it('never quotes a phone number other than the office one', () => {
      for (const { id, answer } of faq.entries) {
        for (const phone of answer.match(/\(\d{3}\) \d{3}-\d{4}/g) ?? [])
          expect(phone, id).toBe(office.phone);
      }
    });

    it('describes the services with their real durations', () => {
      const answer = answerOf('appointment-types');
      for (const service of office.services) expect(answer).toContain(`${service.duration_minutes}-minute`);
    });

    it('states the booking horizon the scheduler uses', () => {
      expect(answerOf('book-appointment')).toContain(`${office.scheduling.horizon_days} days ahead`);
    });

    it('keeps every answer to one to three sentences that can be read aloud', () => {
      for (const { id, answer } of faq.entries) {
        const sentences = answer.split(/(?<=[.!?])\s+/).filter((s) => s.length > 0);
        expect(sentences.length, id).toBeGreaterThanOrEqual(1);
        expect(sentences.length, id).toBeLessThanOrEqual(3);
        expect(answer, id).toMatch(/[.!?]$/);
      }
    });
  });

  describe('FAQ consistency with the rate table', () => {
    it('names every supported state in the quote answer', () => {
      const answer = answerOf('home-quote-estimate');
      for (const { name } of Object.values(rates.states)) expect(answer).toContain(name);
    });
  });
});
