import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  APPOINTMENT_STATUSES,
  applyAppointmentCommand,
  describeStatus,
  isHoldExpired,
  occupiesSlot,
  type ActorKind,
  type AppointmentCommand,
  type AppointmentState,
} from '../../src/core/appointments.js';

const state = (
  status: AppointmentState['status'],
  before: AppointmentState['status_before_cancel'] = null,
) => ({
  status,
  status_before_cancel: before,
});

describe('appointment life cycle', () => {
  describe('staff decisions on a hold', () => {
    it('confirms a pending hold when staff approve it', () => {
      expect(applyAppointmentCommand(state('pending_approval'), 'approve_hold', 'staff')).toEqual({
        ok: true,
        value: state('confirmed'),
      });
    });

    it('rejects a pending hold when staff reject it', () => {
      const result = applyAppointmentCommand(state('pending_approval'), 'reject_hold', 'staff');
      expect(result.ok && result.value.status).toBe('rejected');
    });

    it('refuses to approve a hold that is already confirmed', () => {
      const result = applyAppointmentCommand(state('confirmed'), 'approve_hold', 'staff');
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_transition', status: 'confirmed' } });
    });
  });

  describe('who may act', () => {
    it('never lets a caller approve its own hold', () => {
      const result = applyAppointmentCommand(state('pending_approval'), 'approve_hold', 'caller');
      expect(result).toMatchObject({ ok: false, error: { code: 'not_permitted' } });
    });

    it('never lets the system approve or reject anything', () => {
      for (const command of ['approve_hold', 'reject_hold', 'approve_cancel', 'reject_cancel'] as const) {
        expect(applyAppointmentCommand(state('pending_approval'), command, 'system').ok).toBe(false);
      }
    });

    it('lets only the caller request a cancellation', () => {
      expect(applyAppointmentCommand(state('confirmed'), 'request_cancel', 'staff')).toMatchObject({
        ok: false,
        error: { code: 'not_permitted', message: 'Only the caller can do that.' },
      });
    });

    it('lets only the clock expire a hold', () => {
      expect(applyAppointmentCommand(state('pending_approval'), 'expire_hold', 'staff')).toMatchObject({
        ok: false,
        error: { code: 'not_permitted' },
      });
      expect(applyAppointmentCommand(state('pending_approval'), 'expire_hold', 'system')).toEqual({
        ok: true,
        value: state('expired'),
      });
    });

    it('no sequence of caller and system commands ever reaches confirmed or cancelled', () => {
      const commands: AppointmentCommand[] = [
        'approve_hold',
        'reject_hold',
        'expire_hold',
        'request_cancel',
        'approve_cancel',
        'reject_cancel',
      ];
      const actors: ActorKind[] = ['caller', 'system'];
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.constantFrom(...commands), fc.constantFrom(...actors)), { maxLength: 12 }),
          (steps) => {
            let current: AppointmentState = state('pending_approval');
            for (const [command, actor] of steps) {
              const result = applyAppointmentCommand(current, command, actor);
              if (result.ok) current = result.value;
            }
            expect(['confirmed', 'cancelled', 'rejected']).not.toContain(current.status);
          },
        ),
      );
    });
  });

  describe('cancellation', () => {
    it('remembers the status a cancellation was requested from', () => {
      expect(applyAppointmentCommand(state('confirmed'), 'request_cancel', 'caller')).toEqual({
        ok: true,
        value: state('cancel_requested', 'confirmed'),
      });
    });

    it('cancels when staff approve the request', () => {
      const result = applyAppointmentCommand(
        state('cancel_requested', 'confirmed'),
        'approve_cancel',
        'staff',
      );
      expect(result).toEqual({ ok: true, value: state('cancelled') });
    });

    it('goes back to confirmed when staff reject a cancellation of a confirmed appointment', () => {
      const result = applyAppointmentCommand(
        state('cancel_requested', 'confirmed'),
        'reject_cancel',
        'staff',
      );
      expect(result).toEqual({ ok: true, value: state('confirmed') });
    });

    it('goes back to pending approval when the cancelled request was still a hold', () => {
      const requested = applyAppointmentCommand(state('pending_approval'), 'request_cancel', 'caller');
      expect(requested.ok).toBe(true);
      if (!requested.ok) return;
      const result = applyAppointmentCommand(requested.value, 'reject_cancel', 'staff');
      expect(result).toEqual({ ok: true, value: state('pending_approval') });
    });

    it('refuses a second cancellation request while one is pending', () => {
      const result = applyAppointmentCommand(
        state('cancel_requested', 'confirmed'),
        'request_cancel',
        'caller',
      );
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_transition' } });
    });

    it('refuses to cancel what is already cancelled, rejected or expired', () => {
      for (const status of ['cancelled', 'rejected', 'expired'] as const) {
        expect(applyAppointmentCommand(state(status), 'request_cancel', 'caller').ok).toBe(false);
      }
    });
  });

  describe('slot occupancy', () => {
    it('holds, confirmed and cancel-requested appointments keep the slot', () => {
      const occupying = APPOINTMENT_STATUSES.filter(occupiesSlot);
      expect(occupying).toEqual(['pending_approval', 'confirmed', 'cancel_requested']);
    });
  });

  describe('expiry', () => {
    const startsAt = new Date('2026-09-16T14:00:00Z');

    it('expires a pending hold once its start time is reached', () => {
      expect(isHoldExpired({ status: 'pending_approval', starts_at: startsAt }, startsAt)).toBe(true);
    });

    it('keeps a pending hold before its start', () => {
      expect(
        isHoldExpired({ status: 'pending_approval', starts_at: startsAt }, new Date('2026-09-16T13:59:59Z')),
      ).toBe(false);
    });

    it('never expires a decided appointment', () => {
      expect(
        isHoldExpired({ status: 'confirmed', starts_at: startsAt }, new Date('2027-01-01T00:00:00Z')),
      ).toBe(false);
    });
  });

  it('describes every status in words', () => {
    for (const status of APPOINTMENT_STATUSES) expect(describeStatus(status)).toMatch(/^[a-z ]+$/);
  });
});
