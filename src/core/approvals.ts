import type { AppointmentCommand } from './appointments.js';
import { refusal, success, type Result } from './result.js';

/**
 * The staff approval queue. Each consequential thing an assistant asks for becomes one request:
 * a held slot, a cancellation, or a free-form escalation. Only a signed-in staff member decides.
 */
export const APPROVAL_KINDS = ['hold', 'cancellation', 'escalation'] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];

/**
 * Holds and cancellations are approved or rejected; escalations are resolved or declined. A hold
 * nobody decided before it started is expired; one the caller cancelled before a decision is withdrawn.
 */
export const APPROVAL_STATUSES = [
  'pending',
  'approved',
  'rejected',
  'expired',
  'withdrawn',
  'open',
  'resolved',
  'declined',
] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export type Decision = 'approve' | 'reject';

export const URGENCIES = ['low', 'normal', 'high'] as const;
export type Urgency = (typeof URGENCIES)[number];

export function initialApprovalStatus(kind: ApprovalKind): ApprovalStatus {
  return kind === 'escalation' ? 'open' : 'pending';
}

export function isAwaitingDecision(status: ApprovalStatus): boolean {
  return status === 'pending' || status === 'open';
}

export interface DecisionPlan {
  readonly approvalStatus: ApprovalStatus;
  /** What the decision does to the linked appointment; escalations have none. */
  readonly appointmentCommand: AppointmentCommand | null;
}

const PLANS: Readonly<Record<ApprovalKind, Readonly<Record<Decision, DecisionPlan>>>> = {
  hold: {
    approve: { approvalStatus: 'approved', appointmentCommand: 'approve_hold' },
    reject: { approvalStatus: 'rejected', appointmentCommand: 'reject_hold' },
  },
  cancellation: {
    approve: { approvalStatus: 'approved', appointmentCommand: 'approve_cancel' },
    reject: { approvalStatus: 'rejected', appointmentCommand: 'reject_cancel' },
  },
  escalation: {
    approve: { approvalStatus: 'resolved', appointmentCommand: null },
    reject: { approvalStatus: 'declined', appointmentCommand: null },
  },
};

/** What a staff decision changes, or why it cannot be taken (someone already decided). */
export function planDecision(
  request: { kind: ApprovalKind; status: ApprovalStatus },
  decision: Decision,
): Result<DecisionPlan, 'already_decided'> {
  if (!isAwaitingDecision(request.status)) {
    return refusal('already_decided', `This request was already ${request.status}.`, {
      status: request.status,
    });
  }
  return success(PLANS[request.kind][decision]);
}
