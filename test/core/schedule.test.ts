import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  formatMinutes,
  minutesOf,
  utcToZoned,
  weekdayOf,
  zonedToUtc,
} from '../../src/core/local-time.js';
import { OfficeSchema, SERVICE_IDS, WEEKDAYS } from '../../src/core/office.js';
import type { Office } from '../../src/core/office.js';
import type { Result } from '../../src/core/result.js';
import { findOpenSlots, reserveSlot, slotCells } from '../../src/core/schedule.js';
import type { BusyInterval, OpenSlot, SlotQuery } from '../../src/core/schedule.js';

const nineToFive = [{ open: '09:00', close: '17:00' }];

function office(overrides: Partial<Office> = {}): Office {
  return OfficeSchema.parse({
    id: 'lakeside',
    name: 'Lakeside Insurance',
    timezone: 'America/Chicago',
    address: { street: '1 Main St', city: 'Springfield', state: 'IL', postal_code: '62701' },
    phone: '(217) 555-0100',
    email: 'desk@lakeside.example.com',
    hours: {
      sunday: [],
      monday: nineToFive,
      tuesday: nineToFive,
      // Split day: closed over lunch.
      wednesday: [
        { open: '09:00', close: '12:00' },
        { open: '13:00', close: '17:00' },
      ],
      thursday: nineToFive,
      friday: nineToFive,
      saturday: [{ open: '10:00', close: '12:00' }],
    },
    holidays: [{ date: '2026-09-25', name: "Founders' Day" }],
    blocked: [
      { start: '2026-09-17T12:00', end: '2026-09-17T13:00', reason: 'All-hands meeting' },
      { staff_id: 'ana', start: '2026-09-18T09:00', end: '2026-09-18T11:00', reason: 'Dentist' },
      { staff_id: 'cora', start: '2026-09-21T12:00', end: '2026-09-23T12:00', reason: 'Conference' },
    ],
    services: [
      { id: 'consultation', name: 'Consultation', duration_minutes: 30, description: 'A short talk.' },
      { id: 'policy_review', name: 'Policy review', duration_minutes: 60, description: 'Go over a policy.' },
      {
        id: 'quote_walkthrough',
        name: 'Quote walkthrough',
        duration_minutes: 45,
        description: 'Explain a quote.',
      },
    ],
    staff: [
      {
        id: 'ana',
        name: 'Ana Lopez',
        title: 'Agent',
        services: ['consultation', 'policy_review', 'quote_walkthrough'],
      },
      { id: 'ben', name: 'Ben Okoro', title: 'Agent', services: ['consultation', 'quote_walkthrough'] },
      { id: 'cora', name: 'Cora Lind', title: 'Agent', services: ['consultation', 'policy_review'] },
    ],
    scheduling: { slot_step_minutes: 15, horizon_days: 30, min_lead_minutes: 60 },
    ...overrides,
  });
}

const LAKESIDE = office();

/** Open on Sunday nights, through both of Chicago's 2026 clock changes, with half-hour steps. */
function nightOwlOffice(sunday: Office['hours']['sunday']): Office {
  return office({
    hours: { ...LAKESIDE.hours, sunday },
    services: LAKESIDE.services.map((s) =>
      s.id === 'quote_walkthrough' ? { ...s, duration_minutes: 60 } : s,
    ),
    scheduling: { slot_step_minutes: 30, horizon_days: 60, min_lead_minutes: 0 },
  });
}
/** Monday 2026-09-14, 09:00 in Chicago. */
const NOW = new Date('2026-09-14T09:00:00-05:00');

function query(overrides: Partial<SlotQuery> = {}): SlotQuery {
  return { office: LAKESIDE, service: 'consultation', date: '2026-09-15', now: NOW, busy: [], ...overrides };
}

function busy(staff_id: string, from: string, to: string): BusyInterval {
  return { staff_id, starts_at: new Date(from), ends_at: new Date(to) };
}

const everyone = (from: string, to: string): BusyInterval[] =>
  ['ana', 'ben', 'cora'].map((id) => busy(id, from, to));

function valueOf<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

function slotsFor(overrides: Partial<SlotQuery> = {}): OpenSlot[] {
  return valueOf(findOpenSlots(query(overrides))).slots;
}

const startTimes = (slots: readonly OpenSlot[]): string[] => slots.map((s) => s.start_time);
const staffAt = (slots: readonly OpenSlot[], time: string): string[] | undefined =>
  slots.find((s) => s.start_time === time)?.staff.map((s) => s.id);

function refusalOf<T>(result: Result<T>): { code: string; message: string } & Record<string, unknown> {
  if (result.ok) throw new Error('expected a refusal');
  return result.error;
}

describe('schedule', () => {
  describe('findOpenSlots', () => {
    describe('opening hours', () => {
      it('offers a start every slot step from the open time while the service still ends by close', () => {
        const slots = slotsFor();
        expect(slots).toHaveLength(31);
        expect(slots[0]).toEqual({
          date: '2026-09-15',
          start_time: '09:00',
          end_time: '09:30',
          starts_at: '2026-09-15T14:00:00.000Z',
          ends_at: '2026-09-15T14:30:00.000Z',
          staff: [
            { id: 'ana', name: 'Ana Lopez' },
            { id: 'ben', name: 'Ben Okoro' },
            { id: 'cora', name: 'Cora Lind' },
          ],
        });
        expect(slots.at(-1)?.start_time).toBe('16:30');
        expect(slots.at(-1)?.end_time).toBe('17:00');
      });

      it('returns the service it searched for', () => {
        expect(valueOf(findOpenSlots(query({ service: 'policy_review' }))).service.duration_minutes).toBe(60);
      });

      it('lists only the staff who offer the service, in office order', () => {
        expect(staffAt(slotsFor({ service: 'policy_review' }), '09:00')).toEqual(['ana', 'cora']);
        expect(staffAt(slotsFor({ service: 'quote_walkthrough' }), '09:00')).toEqual(['ana', 'ben']);
      });

      it('lists only the requested staff member when one is named', () => {
        const slots = slotsFor({ staff_id: 'ben' });
        expect(new Set(slots.flatMap((s) => s.staff.map((m) => m.id)))).toEqual(new Set(['ben']));
      });

      it('offers both periods of a split day and nothing over the break', () => {
        const times = startTimes(slotsFor({ date: '2026-09-16', service: 'policy_review' }));
        expect(times).toEqual([
          '09:00',
          '09:15',
          '09:30',
          '09:45',
          '10:00',
          '10:15',
          '10:30',
          '10:45',
          '11:00',
          '13:00',
          '13:15',
          '13:30',
          '13:45',
          '14:00',
          '14:15',
          '14:30',
          '14:45',
          '15:00',
          '15:15',
          '15:30',
          '15:45',
          '16:00',
        ]);
      });

      it('does not offer a start whose service would run past close', () => {
        expect(startTimes(slotsFor({ date: '2026-09-19', service: 'quote_walkthrough' }))).toEqual([
          '10:00',
          '10:15',
          '10:30',
          '10:45',
          '11:00',
          '11:15',
        ]);
      });

      it('offers nothing when the service is longer than every period', () => {
        const shortDay = office({
          hours: { ...LAKESIDE.hours, tuesday: [{ open: '09:00', close: '09:45' }] },
        });
        expect(slotsFor({ office: shortDay, service: 'policy_review' })).toEqual([]);
      });

      it('counts steps from an open time that is not on the hour', () => {
        const lateOpen = office({
          hours: { ...LAKESIDE.hours, tuesday: [{ open: '09:15', close: '10:15' }] },
        });
        expect(startTimes(slotsFor({ office: lateOpen }))).toEqual(['09:15', '09:30', '09:45']);
      });

      it('offers each start once, in order, when configured periods overlap', () => {
        const overlapping = office({
          hours: {
            ...LAKESIDE.hours,
            tuesday: [
              { open: '10:00', close: '11:00' },
              { open: '09:00', close: '10:30' },
            ],
          },
        });
        expect(startTimes(slotsFor({ office: overlapping }))).toEqual([
          '09:00',
          '09:15',
          '09:30',
          '09:45',
          '10:00',
          '10:15',
          '10:30',
        ]);
      });
    });

    describe('blocked time', () => {
      it('removes office-wide blocked time for everyone', () => {
        const slots = slotsFor({ date: '2026-09-17' });
        const times = startTimes(slots);
        expect(times).toContain('11:30');
        for (const time of ['11:45', '12:00', '12:15', '12:30', '12:45']) expect(times).not.toContain(time);
        expect(times).toContain('13:00');
      });

      it("removes a staff member's own blocked time only for that staff member", () => {
        const slots = slotsFor({ date: '2026-09-18' });
        expect(staffAt(slots, '09:00')).toEqual(['ben', 'cora']);
        expect(staffAt(slots, '10:30')).toEqual(['ben', 'cora']);
        expect(staffAt(slots, '11:00')).toEqual(['ana', 'ben', 'cora']);
      });

      it('drops a start when no qualified staff member is left', () => {
        const slots = slotsFor({ date: '2026-09-18', service: 'quote_walkthrough', staff_id: 'ana' });
        expect(startTimes(slots)[0]).toBe('11:00');
      });

      it('applies a blocked period spanning several days to every day it covers', () => {
        expect(staffAt(slotsFor({ date: '2026-09-21' }), '11:30')).toEqual(['ana', 'ben', 'cora']);
        expect(staffAt(slotsFor({ date: '2026-09-21' }), '12:00')).toEqual(['ana', 'ben']);
        expect(slotsFor({ date: '2026-09-22', staff_id: 'cora' })).toEqual([]);
        expect(staffAt(slotsFor({ date: '2026-09-23' }), '11:30')).toEqual(['ana', 'ben']);
        expect(staffAt(slotsFor({ date: '2026-09-23' }), '13:00')).toEqual(['ana', 'ben', 'cora']);
      });
    });

    describe('busy intervals', () => {
      it('removes a staff member from every start whose service would overlap their busy time', () => {
        const slots = slotsFor({
          busy: [busy('ana', '2026-09-15T10:00:00-05:00', '2026-09-15T10:30:00-05:00')],
        });
        expect(staffAt(slots, '09:30')).toEqual(['ana', 'ben', 'cora']);
        expect(staffAt(slots, '09:45')).toEqual(['ben', 'cora']);
        expect(staffAt(slots, '10:15')).toEqual(['ben', 'cora']);
        expect(staffAt(slots, '10:30')).toEqual(['ana', 'ben', 'cora']);
      });

      it('drops a start when every qualified staff member is busy', () => {
        const times = startTimes(
          slotsFor({ busy: everyone('2026-09-15T10:00:00-05:00', '2026-09-15T10:30:00-05:00') }),
        );
        expect(times).toContain('09:30');
        expect(times).not.toContain('09:45');
        expect(times).not.toContain('10:00');
        expect(times).not.toContain('10:15');
        expect(times).toContain('10:30');
      });

      it('ignores busy time of other staff, other days, and intervals that occupy no time', () => {
        const slots = slotsFor({
          service: 'policy_review',
          busy: [
            busy('ben', '2026-09-15T09:00:00-05:00', '2026-09-15T17:00:00-05:00'),
            busy('ana', '2026-09-16T09:00:00-05:00', '2026-09-16T17:00:00-05:00'),
            busy('ana', '2026-09-14T09:00:00-05:00', '2026-09-15T09:00:00-05:00'),
            busy('cora', '2026-09-15T09:30:00-05:00', '2026-09-15T09:30:00-05:00'),
          ],
        });
        expect(slots.every((s) => s.staff.length === 2)).toBe(true);
      });

      it('counts busy time that started the day before or runs into the next day', () => {
        const times = startTimes(
          slotsFor({
            busy: [
              ...everyone('2026-09-14T18:00:00-05:00', '2026-09-15T09:30:00-05:00'),
              ...everyone('2026-09-15T16:30:00-05:00', '2026-09-16T10:00:00-05:00'),
            ],
          }),
        );
        expect(times[0]).toBe('09:30');
        expect(times.at(-1)).toBe('16:00');
      });

      it('handles many overlapping busy intervals', () => {
        const intervals = Array.from({ length: 200 }, (_, i) =>
          busy(
            ['ana', 'ben', 'cora'][i % 3] ?? 'ana',
            `2026-09-15T${String(9 + (i % 8)).padStart(2, '0')}:00:00-05:00`,
            `2026-09-15T${String(9 + (i % 8)).padStart(2, '0')}:20:00-05:00`,
          ),
        );
        const times = startTimes(slotsFor({ busy: intervals }));
        expect(times).toEqual(['09:30', '10:30', '11:30', '12:30', '13:30', '14:30', '15:30', '16:30']);
      });
    });

    describe('lead time and horizon', () => {
      it('offers no start before now plus the minimum lead time', () => {
        const now = new Date('2026-09-15T10:05:00-05:00');
        expect(startTimes(slotsFor({ now }))[0]).toBe('11:15');
      });

      it('offers a start exactly at now plus the minimum lead time', () => {
        const now = new Date('2026-09-15T10:00:00-05:00');
        expect(startTimes(slotsFor({ now }))[0]).toBe('11:00');
      });

      it('returns no slots, not a refusal, for today once every start is gone', () => {
        expect(slotsFor({ now: new Date('2026-09-15T16:45:00-05:00') })).toEqual([]);
      });

      it("takes today from the office's clock, not from UTC", () => {
        // 2026-09-16 03:00 UTC is still the evening of 2026-09-15 in Chicago.
        const now = new Date('2026-09-16T03:00:00Z');
        expect(slotsFor({ now })).toEqual([]);
        expect(refusalOf(findOpenSlots(query({ now, date: '2026-09-14' }))).code).toBe('date_in_past');
      });

      it('offers the last date of the horizon', () => {
        expect(slotsFor({ date: '2026-10-14' }).length).toBeGreaterThan(0);
      });
    });

    describe('clock changes', () => {
      const nightOwl = nightOwlOffice([
        { open: '00:00', close: '05:00' },
        { open: '09:00', close: '12:00' },
      ]);
      const springNow = new Date('2026-03-01T12:00:00Z');
      const fallNow = new Date('2026-10-25T12:00:00Z');

      it('keeps office-local starts on the spring-forward day (2026-03-08)', () => {
        const before = slotsFor({
          office: nightOwl,
          now: springNow,
          date: '2026-03-01',
          service: 'policy_review',
        });
        const after = slotsFor({
          office: nightOwl,
          now: springNow,
          date: '2026-03-08',
          service: 'policy_review',
        });
        expect(before.find((s) => s.start_time === '09:00')?.starts_at).toBe('2026-03-01T15:00:00.000Z');
        expect(after.find((s) => s.start_time === '09:00')?.starts_at).toBe('2026-03-08T14:00:00.000Z');
      });

      it('skips the missing hour and keeps real durations across the spring-forward gap', () => {
        const slots = slotsFor({
          office: nightOwl,
          now: springNow,
          date: '2026-03-08',
          service: 'policy_review',
        });
        const night = slots.filter((s) => s.start_time < '09:00');
        expect(night.map((s) => [s.start_time, s.end_time])).toEqual([
          ['00:00', '01:00'],
          ['00:30', '01:30'],
          ['01:00', '03:00'],
          ['01:30', '03:30'],
          ['03:00', '04:00'],
          ['03:30', '04:30'],
          ['04:00', '05:00'],
        ]);
        expect(night[3]).toMatchObject({
          starts_at: '2026-03-08T07:30:00.000Z',
          ends_at: '2026-03-08T08:30:00.000Z',
        });
      });

      it('offers each repeated fall-back time once, at its first occurrence (2026-11-01)', () => {
        const slots = slotsFor({
          office: nightOwl,
          now: fallNow,
          date: '2026-11-01',
          service: 'policy_review',
        });
        const night = slots.filter((s) => s.starts_at < '2026-11-01T12:00:00.000Z');
        expect(night.map((s) => s.start_time)).toEqual([
          '00:00',
          '00:30',
          '01:00',
          '01:30',
          '02:00',
          '02:30',
          '03:00',
          '03:30',
          '04:00',
        ]);
        expect(night[2]).toMatchObject({
          end_time: '01:00',
          starts_at: '2026-11-01T06:00:00.000Z',
          ends_at: '2026-11-01T07:00:00.000Z',
        });
        expect(slots.find((s) => s.start_time === '09:00')?.starts_at).toBe('2026-11-01T15:00:00.000Z');
      });

      it('checks busy time against real instants in the repeated hour', () => {
        // Busy during the second 01:00-02:00 (standard time) only.
        const secondPass = [
          busy('ana', '2026-11-01T07:00:00Z', '2026-11-01T08:00:00Z'),
          busy('cora', '2026-11-01T07:00:00Z', '2026-11-01T08:00:00Z'),
        ];
        const times = startTimes(
          slotsFor({
            office: nightOwl,
            now: fallNow,
            date: '2026-11-01',
            service: 'policy_review',
            busy: secondPass,
          }),
        );
        expect(times).toContain('01:00');
        expect(times).not.toContain('01:30');
        expect(times).toContain('02:00');
      });

      it('blocks office-local blocked time across the spring-forward gap', () => {
        const blocked = office({
          ...nightOwl,
          blocked: [{ start: '2026-03-08T01:30', end: '2026-03-08T03:30', reason: 'Maintenance' }],
        });
        const times = startTimes(
          slotsFor({ office: blocked, now: springNow, date: '2026-03-08', service: 'policy_review' }),
        );
        expect(times.filter((t) => t < '09:00')).toEqual(['00:00', '00:30', '03:30', '04:00']);
      });
    });
  });

  describe('reserveSlot', () => {
    const reserve = (start_time: string, overrides: Partial<SlotQuery> = {}) =>
      reserveSlot({ ...query(overrides), start_time });

    describe('success', () => {
      it('takes the first qualified free staff member and returns the instants', () => {
        const taken = valueOf(reserve('10:00'));
        expect(taken.staff.id).toBe('ana');
        expect(taken.service.id).toBe('consultation');
        expect(taken.starts_at.toISOString()).toBe('2026-09-15T15:00:00.000Z');
        expect(taken.ends_at.toISOString()).toBe('2026-09-15T15:30:00.000Z');
      });

      it('skips a busy staff member for the next free one', () => {
        const taken = valueOf(
          reserve('10:00', { busy: [busy('ana', '2026-09-15T10:15:00-05:00', '2026-09-15T11:00:00-05:00')] }),
        );
        expect(taken.staff.id).toBe('ben');
      });

      it('takes the requested staff member', () => {
        expect(valueOf(reserve('10:00', { staff_id: 'cora' })).staff.id).toBe('cora');
      });

      it('takes the last start that still ends at close', () => {
        expect(valueOf(reserve('16:00', { service: 'policy_review' })).ends_at.toISOString()).toBe(
          '2026-09-15T22:00:00.000Z',
        );
      });
    });

    describe('refusals', () => {
      it('refuses an unknown service and names the ones offered', () => {
        const error = refusalOf(reserve('10:00', { service: 'massage' }));
        expect(error.code).toBe('unknown_service');
        expect(error.message).toContain('consultation, policy review and quote walkthrough');
      });

      it('refuses an unknown staff member', () => {
        expect(refusalOf(reserve('10:00', { staff_id: 'zed' })).code).toBe('unknown_staff');
      });

      it('refuses a staff member who does not offer the service', () => {
        const error = refusalOf(reserve('10:00', { staff_id: 'ben', service: 'policy_review' }));
        expect(error.code).toBe('service_not_offered');
        expect(error.message).toContain('Ben Okoro');
      });

      it('refuses a malformed date and a date not on the calendar', () => {
        expect(refusalOf(reserve('10:00', { date: '15-09-2026' })).code).toBe('invalid_date');
        expect(refusalOf(reserve('10:00', { date: '2026-02-30' })).code).toBe('invalid_date');
      });

      it('refuses a date in the past', () => {
        expect(refusalOf(reserve('10:00', { date: '2026-09-11' })).code).toBe('date_in_past');
      });

      it('refuses a date beyond the booking horizon and names the last date', () => {
        const error = refusalOf(reserve('10:00', { date: '2026-10-15' }));
        expect(error.code).toBe('beyond_horizon');
        expect(error.message).toContain('October 14');
      });

      it('refuses a weekday the office is closed', () => {
        const error = refusalOf(reserve('10:00', { date: '2026-09-20' }));
        expect(error.code).toBe('office_closed');
        expect(error.message).toBe('The office is closed on Sundays.');
      });

      it('refuses a holiday and names it', () => {
        const error = refusalOf(reserve('10:00', { date: '2026-09-25' }));
        expect(error.code).toBe('office_closed');
        expect(error.message).toContain("Founders' Day");
      });

      it('refuses a malformed time', () => {
        for (const time of ['9:00', '24:00', '10:60', 'noon', '10:00:00']) {
          expect(refusalOf(reserve(time)).code).toBe('invalid_time');
        }
      });

      it('refuses a time outside opening hours and reads out the hours', () => {
        const error = refusalOf(reserve('12:00', { date: '2026-09-16' }));
        expect(error.code).toBe('outside_hours');
        expect(error.message).toContain('9 AM to noon and 1 PM to 5 PM');
        expect(refusalOf(reserve('08:30')).code).toBe('outside_hours');
      });

      it('refuses a start whose service would run past close', () => {
        expect(refusalOf(reserve('16:45')).code).toBe('outside_hours');
        expect(refusalOf(reserve('11:30', { date: '2026-09-16', service: 'policy_review' })).code).toBe(
          'outside_hours',
        );
      });

      it('refuses a start inside the minimum lead time', () => {
        const error = refusalOf(reserve('10:30', { now: new Date('2026-09-15T10:00:00-05:00') }));
        expect(error.code).toBe('too_soon');
        expect(error.message).toContain('60 minutes');
      });

      it('refuses a start that has already passed', () => {
        const error = refusalOf(reserve('09:30', { now: new Date('2026-09-15T10:00:00-05:00') }));
        expect(error.code).toBe('too_soon');
        expect(error.message).toContain('already passed');
      });

      it('gives every refusal as one plain sentence', () => {
        const refusals = [
          reserve('10:00', { service: 'massage' }),
          reserve('10:00', { staff_id: 'zed' }),
          reserve('10:00', { staff_id: 'ben', service: 'policy_review' }),
          reserve('10:00', { date: '2026-02-30' }),
          reserve('10:00', { date: '2026-09-11' }),
          reserve('10:00', { date: '2026-10-15' }),
          reserve('10:00', { date: '2026-09-20' }),
          reserve('10:00', { date: '2026-09-25' }),
          reserve('25:00'),
          reserve('08:00'),
          reserve('09:30', { now: new Date('2026-09-15T10:00:00-05:00') }),
          reserve('10:00', { busy: everyone('2026-09-15T10:00:00-05:00', '2026-09-15T10:30:00-05:00') }),
        ].map((r) => refusalOf(r).message);
        for (const message of refusals) {
          expect(message).toMatch(/\.$/);
          expect(message).not.toMatch(/[.?!]\s|\n/);
        }
      });
    });

    describe('slot_unavailable', () => {
      it('offers the three nearest open starts, ties going to the earlier', () => {
        const error = refusalOf(
          reserve('10:00', { busy: everyone('2026-09-15T10:00:00-05:00', '2026-09-15T10:30:00-05:00') }),
        );
        expect(error.code).toBe('slot_unavailable');
        expect((error.alternatives as OpenSlot[]).map((s) => s.start_time)).toEqual([
          '09:30',
          '10:30',
          '09:15',
        ]);
      });

      it('refuses the requested staff member when busy even though someone else is free', () => {
        const error = refusalOf(
          reserve('10:00', {
            staff_id: 'ana',
            busy: [busy('ana', '2026-09-15T10:00:00-05:00', '2026-09-15T10:30:00-05:00')],
          }),
        );
        expect(error.code).toBe('slot_unavailable');
        expect(error.message).toContain('with Ana Lopez');
        const alternatives = error.alternatives as OpenSlot[];
        expect(alternatives.map((s) => s.start_time)).toEqual(['09:30', '10:30', '09:15']);
        expect(alternatives.every((s) => s.staff.length === 1 && s.staff[0]?.id === 'ana')).toBe(true);
      });

      it('refuses a start off the slot grid and offers the grid starts around it', () => {
        const error = refusalOf(reserve('10:07'));
        expect(error.code).toBe('slot_unavailable');
        expect((error.alternatives as OpenSlot[]).map((s) => s.start_time)).toEqual([
          '10:00',
          '10:15',
          '09:45',
        ]);
      });

      it('fills up with the first starts of following open days, skipping closed ones', () => {
        const error = refusalOf(
          reserve('10:00', {
            date: '2026-09-19',
            busy: everyone('2026-09-19T10:00:00-05:00', '2026-09-19T11:30:00-05:00'),
          }),
        );
        const alternatives = error.alternatives as OpenSlot[];
        expect(alternatives.map((s) => [s.date, s.start_time])).toEqual([
          ['2026-09-19', '11:30'],
          ['2026-09-21', '09:00'],
          ['2026-09-21', '09:15'],
        ]);
      });

      it('does not look past the booking horizon', () => {
        const error = refusalOf(
          reserve('10:00', {
            date: '2026-10-14',
            busy: everyone('2026-10-14T00:00:00-05:00', '2026-10-15T00:00:00-05:00'),
          }),
        );
        expect(error.code).toBe('slot_unavailable');
        expect(error.alternatives).toEqual([]);
        expect(error.message).toContain('nothing nearby is open');
      });

      it('does not look more than 14 days past the requested date', () => {
        const fortnight = everyone('2026-09-15T00:00:00-05:00', '2026-09-30T00:00:00-05:00');
        expect(slotsFor({ date: '2026-09-30', busy: fortnight }).length).toBeGreaterThan(0);
        expect(refusalOf(reserve('10:00', { busy: fortnight })).alternatives).toEqual([]);
      });

      it('offers the starts around a time skipped by spring-forward', () => {
        const nightOwl = nightOwlOffice([{ open: '00:00', close: '05:00' }]);
        const error = refusalOf(
          reserve('02:30', {
            office: nightOwl,
            now: new Date('2026-03-01T12:00:00Z'),
            date: '2026-03-08',
            service: 'policy_review',
          }),
        );
        expect(error.code).toBe('slot_unavailable');
        expect((error.alternatives as OpenSlot[]).map((s) => s.start_time)).toEqual([
          '03:00',
          '01:30',
          '03:30',
        ]);
      });
    });
  });

  describe('slotCells', () => {
    const at = (iso: string): Date => new Date(iso);

    it('names the UTC start of every step-sized cell an appointment covers', () => {
      expect(slotCells(at('2026-09-15T15:00:00Z'), at('2026-09-15T15:30:00Z'), 15)).toEqual([
        '2026-09-15T15:00:00.000Z',
        '2026-09-15T15:15:00.000Z',
      ]);
    });

    it('includes partly covered cells at either end', () => {
      expect(slotCells(at('2026-09-15T15:07:00Z'), at('2026-09-15T15:31:00Z'), 15)).toEqual([
        '2026-09-15T15:00:00.000Z',
        '2026-09-15T15:15:00.000Z',
        '2026-09-15T15:30:00.000Z',
      ]);
    });

    it('gives back-to-back appointments no shared cell', () => {
      const first = slotCells(at('2026-09-15T15:00:00Z'), at('2026-09-15T16:00:00Z'), 15);
      const second = slotCells(at('2026-09-15T16:00:00Z'), at('2026-09-15T16:45:00Z'), 15);
      expect(first.filter((c) => second.includes(c))).toEqual([]);
    });

    it('gives an empty interval no cells', () => {
      expect(slotCells(at('2026-09-15T15:00:00Z'), at('2026-09-15T15:00:00Z'), 15)).toEqual([]);
    });

    const arbInterval = fc
      .tuple(fc.integer({ min: 0, max: 10 * 86_400_000 }), fc.integer({ min: 1, max: 6 * 3_600_000 }))
      .map(([start, length]) => ({
        start: Date.UTC(2026, 8, 14) + start,
        end: Date.UTC(2026, 8, 14) + start + length,
      }));

    it('makes any two overlapping intervals share at least one cell', () => {
      fc.assert(
        fc.property(arbInterval, arbInterval, fc.constantFrom(5, 10, 15, 20, 30, 45, 60), (a, b, step) => {
          fc.pre(a.start < b.end && b.start < a.end);
          const cellsA = new Set(slotCells(new Date(a.start), new Date(a.end), step));
          const shared = slotCells(new Date(b.start), new Date(b.end), step).filter((c) => cellsA.has(c));
          expect(shared.length).toBeGreaterThan(0);
        }),
        { numRuns: 2000 },
      );
    });

    it('makes step-aligned intervals that do not overlap share no cell', () => {
      const arbAligned = (step: number) =>
        fc.tuple(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 1, max: 12 })).map(([cell, cells]) => ({
          start: Date.UTC(2026, 8, 14) + cell * step * 60_000,
          end: Date.UTC(2026, 8, 14) + (cell + cells) * step * 60_000,
        }));
      fc.assert(
        fc.property(
          fc
            .constantFrom(15, 30, 60)
            .chain((step) => fc.tuple(fc.constant(step), arbAligned(step), arbAligned(step))),
          ([step, a, b]) => {
            fc.pre(a.end <= b.start || b.end <= a.start);
            const cellsA = new Set(slotCells(new Date(a.start), new Date(a.end), step));
            expect(slotCells(new Date(b.start), new Date(b.end), step).filter((c) => cellsA.has(c))).toEqual(
              [],
            );
          },
        ),
      );
    });
  });

  describe('properties', () => {
    const ZONES = ['America/Chicago', 'Europe/London', 'Asia/Kolkata', 'Australia/Lord_Howe', 'UTC'] as const;
    const STAFF_IDS = ['ana', 'ben', 'cora'] as const;

    const arbPeriod = fc
      .tuple(fc.integer({ min: 0, max: 90 }), fc.integer({ min: 1, max: 40 }))
      .map(([start, length]) => ({ open: start * 15, close: Math.min(start * 15 + length * 15, 1439) }))
      .filter((p) => p.open < p.close)
      .map((p) => ({ open: formatMinutes(p.open), close: formatMinutes(p.close) }));

    /** Opening times sit on the slot grid (an office schema rule); closing times may not. */
    const openingOnGrid = (period: { open: string; close: string }, step: number) => {
      const open = Math.ceil(minutesOf(period.open) / step) * step;
      return open < minutesOf(period.close) ? [{ open: formatMinutes(open), close: period.close }] : [];
    };

    const arbNow = fc
      .oneof(
        fc.integer({ min: Date.parse('2026-01-01T00:00:00Z'), max: Date.parse('2026-12-20T00:00:00Z') }),
        fc.integer({ min: Date.parse('2026-03-05T00:00:00Z'), max: Date.parse('2026-03-09T00:00:00Z') }),
        fc.integer({ min: Date.parse('2026-10-01T00:00:00Z'), max: Date.parse('2026-11-02T00:00:00Z') }),
        fc.integer({ min: Date.parse('2026-03-27T00:00:00Z'), max: Date.parse('2026-04-05T00:00:00Z') }),
      )
      .map((ms) => new Date(ms));

    const arbScenario = fc
      .record({
        timezone: fc.constantFrom(...ZONES),
        step: fc.constantFrom(15, 30, 60),
        units: fc.tuple(
          fc.integer({ min: 1, max: 4 }),
          fc.integer({ min: 1, max: 4 }),
          fc.integer({ min: 1, max: 4 }),
        ),
        hours: fc.tuple(...WEEKDAYS.map(() => fc.array(arbPeriod, { maxLength: 2 }))),
        staffServices: fc.tuple(...STAFF_IDS.map(() => fc.subarray([...SERVICE_IDS], { minLength: 1 }))),
        horizon: fc.integer({ min: 1, max: 10 }),
        lead: fc.integer({ min: 0, max: 600 }),
        now: arbNow,
        dayOffset: fc.integer({ min: -1, max: 11 }),
        service: fc.constantFrom(...SERVICE_IDS),
        staffId: fc.option(fc.constantFrom(...STAFF_IDS), { nil: undefined }),
        holidayOffsets: fc.array(fc.integer({ min: 0, max: 10 }), { maxLength: 2 }),
        blocked: fc.array(
          fc.record({
            staff: fc.option(fc.constantFrom(...STAFF_IDS), { nil: undefined }),
            start: fc.integer({ min: -288, max: 12 * 288 }),
            length: fc.integer({ min: 1, max: 600 }),
          }),
          { maxLength: 6 },
        ),
        busy: fc.array(
          fc.record({
            staff: fc.constantFrom(...STAFF_IDS),
            start: fc.integer({ min: -24 * 12, max: 13 * 24 * 12 }),
            length: fc.integer({ min: 1, max: 48 }),
          }),
          { maxLength: 40 },
        ),
      })
      .map((s) => {
        const today = utcToZoned(s.now, s.timezone).date;
        // Blocked periods are written in office-local time, on a five-minute grid counted from today.
        const localAt = (fiveMinutes: number) =>
          `${addDays(today, Math.floor(fiveMinutes / 288))}T${formatMinutes((((fiveMinutes % 288) + 288) % 288) * 5)}`;
        const theOffice = office({
          timezone: s.timezone,
          hours: Object.fromEntries(
            WEEKDAYS.map((d, i) => [d, (s.hours[i] ?? []).flatMap((p) => openingOnGrid(p, s.step))]),
          ) as Office['hours'],
          holidays: s.holidayOffsets.map((n) => ({ date: addDays(today, n), name: 'Closed' })),
          blocked: s.blocked.map((b) => ({
            staff_id: b.staff,
            start: localAt(b.start),
            end: localAt(b.start + b.length),
            reason: 'Away',
          })),
          services: LAKESIDE.services.map((svc, i) => ({
            ...svc,
            duration_minutes: (s.units[i] ?? 1) * s.step,
          })),
          staff: LAKESIDE.staff.map((m, i) => ({ ...m, services: s.staffServices[i] ?? ['consultation'] })),
          scheduling: { slot_step_minutes: s.step, horizon_days: s.horizon, min_lead_minutes: s.lead },
        });
        const dayStart = zonedToUtc(today, '00:00', s.timezone).getTime();
        const busyIntervals = s.busy.map((b) => ({
          staff_id: b.staff,
          starts_at: new Date(dayStart + b.start * 5 * 60_000),
          ends_at: new Date(dayStart + b.start * 5 * 60_000 + b.length * 5 * 60_000),
        }));
        const q: SlotQuery = {
          office: theOffice,
          service: s.service,
          date: addDays(today, s.dayOffset),
          now: s.now,
          busy: busyIntervals,
          ...(s.staffId === undefined ? {} : { staff_id: s.staffId }),
        };
        return { q, today };
      });

    function overlaps(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
      return a.start < b.end && b.start < a.end;
    }

    function localInstant(localDateTime: string, timeZone: string): number {
      return zonedToUtc(localDateTime.slice(0, 10), localDateTime.slice(11), timeZone).getTime();
    }

    it('never offers a slot that overlaps busy or blocked time, leaves opening hours, breaks the lead time or passes the horizon', () => {
      fc.assert(
        fc.property(arbScenario, ({ q, today }) => {
          const result = findOpenSlots(q);
          if (!result.ok) return;
          const { office: o } = q;
          const tz = o.timezone;
          const service = result.value.service;
          expect(q.date >= today && q.date <= addDays(today, o.scheduling.horizon_days)).toBe(true);
          expect(o.holidays.some((h) => h.date === q.date)).toBe(false);
          const periods = o.hours[weekdayOf(q.date)].map((p) => ({
            start: zonedToUtc(q.date, p.open, tz).getTime(),
            end: zonedToUtc(q.date, p.close, tz).getTime(),
          }));
          for (const slot of result.value.slots) {
            const span = { start: Date.parse(slot.starts_at), end: Date.parse(slot.ends_at) };
            expect(span.end - span.start).toBe(service.duration_minutes * 60_000);
            expect(utcToZoned(new Date(span.start), tz)).toMatchObject({
              date: q.date,
              time: slot.start_time,
            });
            expect(utcToZoned(new Date(span.end), tz).time).toBe(slot.end_time);
            expect(span.start).toBeGreaterThanOrEqual(
              q.now.getTime() + o.scheduling.min_lead_minutes * 60_000,
            );
            expect(periods.some((p) => p.start <= span.start && span.end <= p.end)).toBe(true);
            expect(slot.staff.length).toBeGreaterThan(0);
            const listed = new Set(slot.staff.map((s) => s.id));
            for (const member of o.staff) {
              if (
                !member.services.includes(service.id) ||
                (q.staff_id !== undefined && q.staff_id !== member.id)
              ) {
                expect(listed.has(member.id)).toBe(false);
                continue;
              }
              const taken =
                q.busy.some(
                  (b) =>
                    b.staff_id === member.id &&
                    overlaps(span, { start: b.starts_at.getTime(), end: b.ends_at.getTime() }),
                ) ||
                o.blocked.some(
                  (b) =>
                    (b.staff_id === undefined || b.staff_id === member.id) &&
                    overlaps(span, { start: localInstant(b.start, tz), end: localInstant(b.end, tz) }),
                );
              // Listed exactly when free: nobody busy is offered and nobody free is left out.
              expect(listed.has(member.id)).toBe(!taken);
            }
          }
        }),
        { numRuns: 400 },
      );
    });

    it('lets reserveSlot take every slot findOpenSlots offers', () => {
      fc.assert(
        fc.property(arbScenario, ({ q }) => {
          const result = findOpenSlots(q);
          if (!result.ok) {
            expect(refusalOf(reserveSlot({ ...q, start_time: '10:00' })).code).toBe(result.error.code);
            return;
          }
          for (const slot of result.value.slots) {
            const taken = valueOf(reserveSlot({ ...q, start_time: slot.start_time }));
            expect(taken.staff.id).toBe(slot.staff[0]?.id);
            expect(taken.starts_at.toISOString()).toBe(slot.starts_at);
            expect(taken.ends_at.toISOString()).toBe(slot.ends_at);
          }
        }),
        { numRuns: 300 },
      );
    });

    it('offers only alternatives that reserveSlot would take', () => {
      fc.assert(
        fc.property(arbScenario, fc.integer({ min: 0, max: 1439 }), ({ q }, minute) => {
          const result = reserveSlot({ ...q, start_time: formatMinutes(minute) });
          if (result.ok || result.error.code !== 'slot_unavailable') return;
          const alternatives = result.error.alternatives as OpenSlot[];
          expect(alternatives.length).toBeLessThanOrEqual(3);
          for (const alt of alternatives) {
            expect(alt.date >= q.date && alt.date <= addDays(q.date, 14)).toBe(true);
            expect(
              valueOf(
                reserveSlot({ ...q, date: alt.date, start_time: alt.start_time }),
              ).starts_at.toISOString(),
            ).toBe(alt.starts_at);
          }
        }),
        { numRuns: 300 },
      );
    });
  });
});
