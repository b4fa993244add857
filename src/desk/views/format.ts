import { utcToZoned } from '../../core/local-time.js';

/** `2026-09-16` -> `Wed, Sep 16, 2026` (the date is a calendar date, so it is read in UTC). */
export function formatDate(date: string): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** `Wed, Sep 16` for day headings inside one week. */
export function formatDayHeading(date: string): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'long',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

/** An instant as office-local date and 24-hour time. */
export function formatInstant(iso: string, timeZone: string): string {
  const local = utcToZoned(new Date(iso), timeZone);
  return `${formatDate(local.date)} ${local.time}`;
}

export const KIND_LABELS = {
  hold: 'Hold',
  cancellation: 'Cancellation',
  escalation: 'Escalation',
} as const;
