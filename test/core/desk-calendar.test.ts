import { describe, expect, it } from 'vitest';
import { calendarDays, calendarNeighbours } from '../../src/core/desk-calendar.js';

describe('desk calendar', () => {
  it('shows one day for today', () => {
    expect(calendarDays('today', '2026-09-16')).toEqual(['2026-09-16']);
    expect(calendarNeighbours('today', '2026-09-16')).toEqual({ previous: '2026-09-15', next: '2026-09-17' });
  });

  it('shows Monday to Sunday around any day of the week', () => {
    const week = [
      '2026-09-14',
      '2026-09-15',
      '2026-09-16',
      '2026-09-17',
      '2026-09-18',
      '2026-09-19',
      '2026-09-20',
    ];
    for (const day of week) expect(calendarDays('week', day), day).toEqual(week);
    expect(calendarNeighbours('week', '2026-09-20')).toEqual({ previous: '2026-09-07', next: '2026-09-21' });
  });

  it('crosses month and year ends', () => {
    expect(calendarDays('week', '2027-01-01')).toEqual([
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
    ]);
  });
});
