import { refusal, success, type Result } from './result.js';

/**
 * The appointment life cycle. A caller's assistant can only ever create a hold or ask for a
 * cancellation; every step that makes something binding belongs to staff, and the clock may only
 * expire a hold nobody decided in time.
 *
 *   pending_approval --approve_hold(staff)--> confirmed
 *   pending_approval --reject_hold(staff)---> rejected
 *   pending_approval --expire_hold(system)--> expired        (start reached without a decision)
 *   pending_approval | confirmed --request_cancel(caller)--> cancel_requested
 *   cancel_requested --approve_cancel(staff)--> cancelled
 *   cancel_requested --reject_cancel(staff)---> the status it had before the request
 */
export const APPOINTMENT_STATUSES = [
  'pending_approval',
  'confirmed',
  'rejected',
  'expired',
  'cancel_requested',
  'cancelled',
] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/** The statuses a cancellation may return to when staff turn the request down. */
export type CancellableStatus = 'pending_approval' | 'confirmed';

export type ActorKind = 'caller' | 'staff' | 'system';

export type AppointmentCommand =
  'approve_hold' | 'reject_hold' | 'expire_hold' | 'request_cancel' | 'approve_cancel' | 'reject_cancel';

export interface AppointmentState {
  readonly status: AppointmentStatus;
  /** Set only while `status` is `cancel_requested`. */
  readonly status_before_cancel: CancellableStatus | null;
}

export type TransitionRefusalCode = 'invalid_transition' | 'not_permitted';

interface Rule {
  readonly from: readonly AppointmentStatus[];
  readonly actor: ActorKind;
  readonly to: (state: AppointmentState) => AppointmentState;
}

const settled = (status: AppointmentStatus) => (): AppointmentState => ({
  status,
  status_before_cancel: null,
});

const RULES: Readonly<Record<AppointmentCommand, Rule>> = {
  approve_hold: { from: ['pending_approval'], actor: 'staff', to: settled('confirmed') },
  reject_hold: { from: ['pending_approval'], actor: 'staff', to: settled('rejected') },
  expire_hold: { from: ['pending_approval'], actor: 'system', to: settled('expired') },
  request_cancel: {
    from: ['pending_approval', 'confirmed'],
    actor: 'caller',
    to: (state) => ({ status: 'cancel_requested', status_before_cancel: state.status as CancellableStatus }),
  },
  approve_cancel: { from: ['cancel_requested'], actor: 'staff', to: settled('cancelled') },
  reject_cancel: {
    from: ['cancel_requested'],
    actor: 'staff',
    to: (state) => ({ status: state.status_before_cancel ?? 'confirmed', status_before_cancel: null }),
  },
};

const STATUS_WORDS: Readonly<Record<AppointmentStatus, string>> = {
  pending_approval: 'waiting for staff approval',
  confirmed: 'confirmed',
  rejected: 'declined by staff',
  expired: 'expired without a decision',
  cancel_requested: 'waiting for staff to approve the cancellation',
  cancelled: 'cancelled',
};

export function describeStatus(status: AppointmentStatus): string {
  return STATUS_WORDS[status];
}

export function applyAppointmentCommand(
  state: AppointmentState,
  command: AppointmentCommand,
  actor: ActorKind,
): Result<AppointmentState, TransitionRefusalCode> {
  const rule = RULES[command];
  if (rule.actor !== actor) {
    return refusal(
      'not_permitted',
      `Only ${rule.actor === 'staff' ? 'staff' : `the ${rule.actor}`} can do that.`,
    );
  }
  if (!rule.from.includes(state.status)) {
    return refusal(
      'invalid_transition',
      `This appointment is ${describeStatus(state.status)}, so that is not possible.`,
      {
        status: state.status,
      },
    );
  }
  return success(rule.to(state));
}

/** Every status that still holds the staff member's time, so nobody else can be booked into it. */
export function occupiesSlot(status: AppointmentStatus): boolean {
  return status === 'pending_approval' || status === 'confirmed' || status === 'cancel_requested';
}

/** A hold that reached its start time undecided is expired: the slot must not stay blocked forever. */
export function isHoldExpired(
  appointment: { status: AppointmentStatus; starts_at: Date },
  now: Date,
): boolean {
  return appointment.status === 'pending_approval' && appointment.starts_at.getTime() <= now.getTime();
}
