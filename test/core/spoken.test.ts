import { describe, expect, it } from 'vitest';
import {
  speakAlternatives,
  speakAppointmentStatus,
  speakCancellationRequested,
  speakDate,
  speakEscalation,
  speakHold,
  speakList,
  speakOpenings,
  speakTime,
} from '../../src/core/spoken.js';

describe('spoken summaries', () => {
  describe('times and dates', () => {
    it.each([
      ['09:00', '9 AM'],
      ['09:15', '9:15 AM'],
      ['12:00', 'noon'],
      ['12:30', '12:30 PM'],
      ['14:30', '2:30 PM'],
      ['00:00', 'midnight'],
      ['00:45', '12:45 AM'],
    ])('says %s as %s', (time, spoken) => {
      expect(speakTime(time)).toBe(spoken);
    });

    it('says a date with its weekday', () => {
      expect(speakDate('2026-09-16')).toBe('Wednesday, September 16');
      expect(speakDate('2027-01-01')).toBe('Friday, January 1');
    });

    it('joins lists the way people speak', () => {
      expect(speakList([])).toBe('');
      expect(speakList(['a'])).toBe('a');
      expect(speakList(['a', 'b'])).toBe('a and b');
      expect(speakList(['a', 'b', 'c'])).toBe('a, b and c');
    });
  });

  describe('openings', () => {
    it('reads at most three times and counts the rest', () => {
      const summary = speakOpenings('2026-09-16', 'policy_review', [
        '09:00',
        '09:15',
        '09:30',
        '10:00',
        '13:00',
      ]);
      expect(summary).toBe(
        'For a policy review on Wednesday, September 16, I have 9 AM, 9:15 AM and 9:30 AM, and 2 more. Which time works for you?',
      );
    });

    it('says plainly when nothing is open', () => {
      expect(speakOpenings('2026-09-16', 'consultation', [])).toBe(
        "I don't see any openings for a consultation on Wednesday, September 16.",
      );
    });

    it('offers at most three alternatives when a slot was taken', () => {
      const alternatives = ['09:00', '09:15', '09:30', '09:45'].map((t) => ({
        date: '2026-09-16',
        start_time: t,
      }));
      const summary = speakAlternatives(alternatives);
      expect(summary).toContain('9:30 AM');
      expect(summary).not.toContain('9:45');
      expect(speakAlternatives([])).toMatch(/nothing close/);
    });
  });

  describe('holds and statuses', () => {
    const hold = {
      id: 'APT-7F3K2Q',
      service: 'consultation',
      date: '2026-09-16',
      start_time: '10:30',
      staff_name: 'Maria Chen',
    };

    it('states that a hold is not a booking and gives the reference id', () => {
      const summary = speakHold(hold);
      expect(summary).toContain('not a booking yet');
      expect(summary).toContain('APT-7F3K2Q');
      expect(summary).toContain('10:30 AM');
    });

    it('says confirmed only for a confirmed appointment', () => {
      for (const status of ['pending_approval', 'rejected', 'expired', 'cancel_requested', 'cancelled']) {
        const summary = speakAppointmentStatus({ ...hold, status });
        expect(summary).not.toMatch(/\bconfirmed by staff\b/);
        expect(summary).toContain('APT-7F3K2Q');
      }
      expect(speakAppointmentStatus({ ...hold, status: 'confirmed' })).toContain('confirmed by staff');
    });

    it('tells the caller that a pending hold is not confirmed yet', () => {
      expect(speakAppointmentStatus({ ...hold, status: 'pending_approval' })).toContain('not confirmed yet');
    });

    it('names the reference for cancellations and escalations', () => {
      expect(speakCancellationRequested('APT-7F3K2Q')).toContain('stays on the calendar');
      expect(speakEscalation('ESC-1')).toContain('ESC-1');
    });
  });
});
