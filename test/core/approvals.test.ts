import { describe, expect, it } from 'vitest';
import {
  APPROVAL_STATUSES,
  initialApprovalStatus,
  isAwaitingDecision,
  planDecision,
} from '../../src/core/approvals.js';

describe('approval queue', () => {
  it('opens holds and cancellations as pending and escalations as open', () => {
    expect(initialApprovalStatus('hold')).toBe('pending');
    expect(initialApprovalStatus('cancellation')).toBe('pending');
    expect(initialApprovalStatus('escalation')).toBe('open');
  });

  it('waits for a decision only while pending or open', () => {
    expect(APPROVAL_STATUSES.filter(isAwaitingDecision)).toEqual(['pending', 'open']);
  });

  describe('staff decisions', () => {
    it('approving a hold confirms the appointment', () => {
      expect(planDecision({ kind: 'hold', status: 'pending' }, 'approve')).toEqual({
        ok: true,
        value: { approvalStatus: 'approved', appointmentCommand: 'approve_hold' },
      });
    });

    it('rejecting a hold rejects the appointment', () => {
      expect(planDecision({ kind: 'hold', status: 'pending' }, 'reject')).toEqual({
        ok: true,
        value: { approvalStatus: 'rejected', appointmentCommand: 'reject_hold' },
      });
    });

    it('approving or rejecting a cancellation acts on the appointment', () => {
      const approve = planDecision({ kind: 'cancellation', status: 'pending' }, 'approve');
      const reject = planDecision({ kind: 'cancellation', status: 'pending' }, 'reject');
      expect(approve.ok && approve.value.appointmentCommand).toBe('approve_cancel');
      expect(reject.ok && reject.value.appointmentCommand).toBe('reject_cancel');
    });

    it('resolves or declines an escalation without touching any appointment', () => {
      expect(planDecision({ kind: 'escalation', status: 'open' }, 'approve')).toEqual({
        ok: true,
        value: { approvalStatus: 'resolved', appointmentCommand: null },
      });
      expect(planDecision({ kind: 'escalation', status: 'open' }, 'reject')).toEqual({
        ok: true,
        value: { approvalStatus: 'declined', appointmentCommand: null },
      });
    });

    it('refuses a second decision on the same request', () => {
      for (const status of [
        'approved',
        'rejected',
        'expired',
        'withdrawn',
        'resolved',
        'declined',
      ] as const) {
        expect(planDecision({ kind: 'hold', status }, 'approve')).toMatchObject({
          ok: false,
          error: { code: 'already_decided', status },
        });
      }
    });
  });
});
