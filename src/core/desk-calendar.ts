import { addDays, weekdayOf } from './local-time.js';
import { WEEKDAYS } from './office.js';

/**
 * The desk's calendar views. A week runs Monday to Sunday, the way an office plans it, and always
 * contains the day it was asked about.
 */
export const CALENDAR_VIEWS = ['today', 'week'] as const;
export type CalendarView = (typeof CALENDAR_VIEWS)[number];

/** The office-local dates a view shows around `date`, in order. */
export function calendarDays(view: CalendarView, date: string): string[] {
  if (view === 'today') return [date];
  const sinceMonday = (WEEKDAYS.indexOf(weekdayOf(date)) + 6) % 7;
  const monday = addDays(date, -sinceMonday);
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}

/** The first day of the previous and the next page of a view. */
export function calendarNeighbours(view: CalendarView, date: string): { previous: string; next: string } {
  const step = view === 'today' ? 1 : 7;
  const first = calendarDays(view, date)[0]!;
  return { previous: addDays(first, -step), next: addDays(first, step) };
}
