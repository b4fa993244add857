import { applyAppointmentCommand, occupiesSlot } from '../core/appointments.js';
import { planDecision, type Decision } from '../core/approvals.js';
import { refusal, success, type Result } from '../core/result.js';
import type { ApprovalRecord } from '../store/approvals.js';
import { repositories, type UseCaseContext } from './context.js';

/** The signed-in person deciding: their account id and the name that goes on the audit trail. */
export interface StaffActor {
  readonly account: string;
  readonly name: string;
}

export type DecisionRefusalCode = 'not_found' | 'already_decided' | 'invalid_transition';

/** Thrown inside the transaction to roll it back when the request or appointment moved meanwhile. */
class DecisionRace extends Error {}

/** Thrown inside the transaction when the appointment is in no state this decision applies to. */
class TransitionRefused extends Error {}

/**
 * The only place anything becomes binding: a named staff member approves or rejects one request.
 * The request, its appointment and the audit entry change in one transaction; each change is a
 * compare-and-set, so of two people deciding at once exactly one decision lands.
 */
export class ApprovalDesk {
  constructor(private readonly ctx: UseCaseContext) {}

  async decide(
    requestId: string,
    decision: Decision,
    staff: StaffActor,
    note: string | undefined,
  ): Promise<Result<ApprovalRecord, DecisionRefusalCode>> {
    const repo = repositories(this.ctx);
    const request = await repo.approvals.findById(requestId);
    if (!request) return refusal('not_found', 'There is no such request.');
    const plan = planDecision(request, decision);
    if (!plan.ok) return this.alreadyDecided(request);
    const at = this.ctx.clock().toISOString();
    const decisionNote = note?.trim() || null;

    try {
      await this.ctx.store.transaction(async (tx) => {
        const txRepo = repositories(this.ctx, tx);
        const stamp = {
          status: plan.value.approvalStatus,
          at,
          account: staff.account,
          name: staff.name,
          note: decisionNote,
        };
        if (!(await txRepo.approvals.decide(request.id, stamp))) throw new DecisionRace();
        const command = plan.value.appointmentCommand;
        let appointmentStatus: string | null = null;
        if (command && request.appointment_id) {
          const appointment = await txRepo.appointments.findById(request.appointment_id);
          if (!appointment) throw new DecisionRace();
          const next = applyAppointmentCommand(appointment, command, 'staff');
          if (!next.ok) throw new TransitionRefused(next.error.message);
          if (!(await txRepo.appointments.transition(appointment.id, appointment.status, next.value, at))) {
            throw new DecisionRace();
          }
          if (!occupiesSlot(next.value.status)) await txRepo.appointments.releaseCells(appointment.id);
          // A hold the caller asked to cancel before anyone decided it is withdrawn with the cancellation.
          if (next.value.status === 'cancelled') {
            const hold = await txRepo.approvals.findAwaitingForAppointment(appointment.id, 'hold');
            if (hold) await txRepo.approvals.decide(hold.id, { ...stamp, status: 'withdrawn' });
          }
          appointmentStatus = next.value.status;
        }
        await txRepo.audit.append({
          at,
          actor_kind: 'staff',
          actor_id: staff.account,
          actor_name: staff.name,
          action: `${request.kind}.${plan.value.approvalStatus}`,
          target_type: request.kind === 'escalation' ? 'escalation' : 'appointment',
          target_id: request.escalation_id ?? request.appointment_id ?? request.id,
          details: {
            approval_id: request.id,
            decision,
            note: decisionNote,
            appointment_status: appointmentStatus,
          },
        });
      });
    } catch (error) {
      if (error instanceof DecisionRace) {
        const latest = await repo.approvals.findById(request.id);
        return latest ? this.alreadyDecided(latest) : refusal('not_found', 'There is no such request.');
      }
      if (error instanceof TransitionRefused) {
        return refusal(
          'invalid_transition',
          request.kind === 'hold'
            ? 'The caller asked to cancel this hold; decide the cancellation request instead.'
            : error.message,
        );
      }
      throw error;
    }
    const decided = await repo.approvals.findById(request.id);
    return success(decided!);
  }

  private alreadyDecided(request: ApprovalRecord): Result<never, DecisionRefusalCode> {
    const who = request.decided_by_name ? ` by ${request.decided_by_name}` : '';
    return refusal('already_decided', `This request was already ${request.status}${who}.`, {
      status: request.status,
      decided_by: request.decided_by_name,
      decided_at: request.decided_at,
    });
  }
}
