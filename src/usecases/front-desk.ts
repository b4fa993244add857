import {
  applyAppointmentCommand,
  describeStatus,
  isHoldExpired,
  type AppointmentStatus,
} from '../core/appointments.js';
import type { Urgency } from '../core/approvals.js';
import type { JsonValue } from '../core/audit-chain.js';
import { contactMatches, describeContact, parseContact } from '../core/contact.js';
import { answerFaq } from '../core/faq.js';
import { addDays, isValidLocalDate, utcToZoned, zonedToUtc } from '../core/local-time.js';
import { estimateQuote, type QuoteInput, type QuoteRange } from '../core/quote.js';
import { normaliseReferenceId } from '../core/reference-ids.js';
import { refusal, success, type Refusal, type Result } from '../core/result.js';
import { findOpenSlots, reserveSlot, slotCells, type BusyInterval } from '../core/schedule.js';
import { findSensitiveIn } from '../core/sensitive.js';
import {
  speakAppointmentStatus,
  speakCancellationRequested,
  speakEscalation,
  speakHold,
  speakOpenings,
} from '../core/spoken.js';
import { SlotTakenError, type AppointmentRecord } from '../store/appointments.js';
import { isUniqueViolation } from '../store/store.js';
import { repositories, type UseCaseContext } from './context.js';

/**
 * The caller side of the front desk: what a voice assistant may do on a caller's behalf. Nothing here
 * makes anything binding; holds, cancellations and escalations only ever open an approval request.
 * `subject` is who the caller is (the linked account), and it owns what it creates.
 */

export interface Spoken {
  readonly spoken_summary: string;
}

export interface AppointmentView {
  readonly appointment_id: string;
  readonly status: AppointmentStatus;
  readonly status_text: string;
  readonly service: string;
  readonly service_name: string;
  readonly date: string;
  readonly start_time: string;
  readonly end_time: string;
  readonly staff_id: string;
  readonly staff_name: string;
  readonly client_name: string;
  readonly contact: string;
}

export interface AvailabilityView extends Spoken {
  readonly date: string;
  readonly service: string;
  readonly service_name: string;
  readonly duration_minutes: number;
  readonly timezone: string;
  /** Who is free at one or more of the slots, once each, in office order. */
  readonly staff: readonly { readonly id: string; readonly name: string }[];
  readonly slots: readonly AvailableSlot[];
}

/**
 * One open start. Staff are named by id against the view's `staff` list: with names on every slot a
 * day's answer was four times as long, which a voice assistant pays for in tokens and the server in
 * serialising it twice (structured and as text).
 */
export interface AvailableSlot {
  readonly start_time: string;
  readonly end_time: string;
  readonly staff_ids: readonly string[];
}

export interface HoldInput {
  readonly client_name: string;
  readonly contact: string;
  readonly service: string;
  readonly date: string;
  readonly start_time: string;
  readonly staff_id?: string | undefined;
  readonly notes?: string | undefined;
}

export interface EscalationInput {
  readonly action: string;
  readonly summary: string;
  readonly details?: Record<string, unknown> | undefined;
  readonly urgency?: Urgency | undefined;
}

const NOT_FOUND_MESSAGE =
  "I couldn't find an appointment with that reference and contact for your account. Please check both and try again.";
/** Unknown id, someone else's booking and a wrong contact must be indistinguishable to the asker. */
const notFound = (): Refusal<'not_found'> => refusal('not_found', NOT_FOUND_MESSAGE);

/** How long ahead a hold's nearest alternatives are searched (the scheduler looks 14 days ahead). */
const ALTERNATIVE_WINDOW_DAYS = 15;
/** Attempts at a hold when the slot or an id is taken between reading and writing. */
const HOLD_ATTEMPTS = 3;

function refuseSensitive(
  fields: Readonly<Record<string, unknown>>,
): Refusal<'sensitive_data_refused'> | undefined {
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const found = findSensitiveIn(value, name);
    if (found) {
      const what = found.kind === 'ssn' ? 'a social security number' : 'a payment card number';
      return refusal(
        'sensitive_data_refused',
        `That looks like ${what}, and I can't take those over this line. Nothing was saved; please leave it out.`,
        { field: found.path, kind: found.kind },
      );
    }
  }
  return undefined;
}

export class FrontDesk {
  constructor(private readonly ctx: UseCaseContext) {}

  private get office() {
    return this.ctx.data.office;
  }

  /** Busy time of every staff member from the start of `date` for `days` office-local days. */
  private async busyFrom(date: string, days: number): Promise<BusyInterval[]> {
    if (!isValidLocalDate(date)) return [];
    const tz = this.office.timezone;
    const from = zonedToUtc(date, '00:00', tz).toISOString();
    const to = zonedToUtc(addDays(date, days), '00:00', tz).toISOString();
    const rows = await repositories(this.ctx).appointments.listBusy(from, to);
    return rows.map((r) => ({
      staff_id: r.staff_id,
      starts_at: new Date(r.starts_at),
      ends_at: new Date(r.ends_at),
    }));
  }

  private view(record: AppointmentRecord): AppointmentView {
    const tz = this.office.timezone;
    const start = utcToZoned(new Date(record.starts_at), tz);
    const end = utcToZoned(new Date(record.ends_at), tz);
    const contact = { kind: record.contact_kind, value: record.contact_value };
    return {
      appointment_id: record.id,
      status: record.status,
      status_text: describeStatus(record.status),
      service: record.service,
      service_name: this.office.services.find((s) => s.id === record.service)?.name ?? record.service,
      date: start.date,
      start_time: start.time,
      end_time: end.time,
      staff_id: record.staff_id,
      staff_name: this.office.staff.find((s) => s.id === record.staff_id)?.name ?? record.staff_id,
      client_name: record.client_name,
      contact: describeContact(contact),
    };
  }

  async checkAvailability(input: {
    date: string;
    service: string;
    staff_id?: string | undefined;
  }): Promise<Result<AvailabilityView>> {
    const busy = await this.busyFrom(input.date, 1);
    const found = findOpenSlots({ office: this.office, ...input, now: this.ctx.clock(), busy });
    if (!found.ok) return found;
    const { service, slots } = found.value;
    const free = new Set<string>();
    const available = slots.map((slot): AvailableSlot => {
      const staffIds = slot.staff.map((member) => member.id);
      for (const id of staffIds) free.add(id);
      return { start_time: slot.start_time, end_time: slot.end_time, staff_ids: staffIds };
    });
    return success({
      date: input.date,
      service: service.id,
      service_name: service.name,
      duration_minutes: service.duration_minutes,
      timezone: this.office.timezone,
      staff: this.office.staff.filter((m) => free.has(m.id)).map(({ id, name }) => ({ id, name })),
      slots: available,
      spoken_summary: speakOpenings(
        input.date,
        service.id,
        slots.map((s) => s.start_time),
      ),
    });
  }

  /** Places a hold owned by `subject` and opens its approval request; the hold is not a booking. */
  async placeHold(subject: string, input: HoldInput): Promise<Result<AppointmentView & Spoken>> {
    const sensitive = refuseSensitive({ client_name: input.client_name, notes: input.notes });
    if (sensitive) return sensitive;
    const contact = parseContact(input.contact);
    if (!contact.ok) return contact;
    const clientName = input.client_name.trim();
    if (clientName === '')
      return refusal('invalid_name', 'Please tell me the name the appointment should be under.');

    for (let attempt = 1; ; attempt++) {
      const now = this.ctx.clock();
      const busy = await this.busyFrom(input.date, ALTERNATIVE_WINDOW_DAYS);
      const reserved = reserveSlot({ office: this.office, ...input, now, busy });
      if (!reserved.ok) return reserved;
      const { staff, service, starts_at, ends_at } = reserved.value;
      const at = now.toISOString();
      const record: AppointmentRecord = {
        id: this.ctx.newId('APT'),
        office_id: this.office.id,
        owner_subject: subject,
        client_name: clientName,
        contact_kind: contact.value.kind,
        contact_value: contact.value.value,
        service: service.id,
        staff_id: staff.id,
        starts_at: starts_at.toISOString(),
        ends_at: ends_at.toISOString(),
        notes: input.notes?.trim() || null,
        status: 'pending_approval',
        status_before_cancel: null,
        cancel_reason: null,
        created_at: at,
        updated_at: at,
      };
      const requestId = this.ctx.newId('REQ');
      try {
        await this.ctx.store.transaction(async (tx) => {
          const repo = repositories(this.ctx, tx);
          await repo.appointments.insert(record);
          try {
            await repo.appointments.claimCells(
              record.id,
              staff.id,
              slotCells(starts_at, ends_at, this.office.scheduling.slot_step_minutes),
            );
          } catch (error) {
            if (isUniqueViolation(error)) throw new SlotTakenError(record.id);
            throw error;
          }
          await repo.approvals.open({
            id: requestId,
            kind: 'hold',
            appointment_id: record.id,
            requested_by: subject,
            caller_said: record.notes,
            created_at: at,
          });
          await repo.audit.append({
            at,
            actor_kind: 'caller',
            actor_id: subject,
            actor_name: null,
            action: 'hold.placed',
            target_type: 'appointment',
            target_id: record.id,
            details: {
              approval_id: requestId,
              service: service.id,
              staff_id: staff.id,
              starts_at: record.starts_at,
            },
          });
        });
      } catch (error) {
        // Another hold won the slot (or an id collided) between our read and our write: read again.
        // The retry either finds another free staff member or refuses with fresh alternatives.
        if ((error instanceof SlotTakenError || isUniqueViolation(error)) && attempt < HOLD_ATTEMPTS)
          continue;
        if (error instanceof SlotTakenError || isUniqueViolation(error)) {
          const fresh = reserveSlot({
            office: this.office,
            ...input,
            now,
            busy: await this.busyFrom(input.date, ALTERNATIVE_WINDOW_DAYS),
          });
          return fresh.ok
            ? refusal('slot_unavailable', 'That time was just taken. Please try again.', { alternatives: [] })
            : fresh;
        }
        throw error;
      }
      this.ctx.notify?.({ action: 'hold.placed', approvalId: requestId });
      const view = this.view(record);
      return success({
        ...view,
        spoken_summary: speakHold({
          id: view.appointment_id,
          service: view.service,
          date: view.date,
          start_time: view.start_time,
          staff_name: view.staff_name,
        }),
      });
    }
  }

  /**
   * The caller's own appointment, found by reference and contact. A pending hold whose start passed
   * undecided is expired on the way, so the caller never hears "waiting" for a time already gone.
   */
  private async findOwned(
    subject: string,
    appointmentId: string,
    contact: string,
    allowLastFour: boolean,
  ): Promise<AppointmentRecord | undefined> {
    const record = await repositories(this.ctx).appointments.findById(normaliseReferenceId(appointmentId));
    if (!record || record.owner_subject !== subject) return undefined;
    const stored = { kind: record.contact_kind, value: record.contact_value };
    if (!contactMatches(stored, contact, { allowLastFour })) return undefined;
    return record;
  }

  async appointmentStatus(
    subject: string,
    appointmentId: string,
    contact: string,
  ): Promise<Result<AppointmentView & Spoken>> {
    let record = await this.findOwned(subject, appointmentId, contact, true);
    if (!record) return notFound();
    const now = this.ctx.clock();
    if (isHoldExpired({ status: record.status, starts_at: new Date(record.starts_at) }, now)) {
      await expireHold(this.ctx, record, now);
      record = (await repositories(this.ctx).appointments.findById(record.id)) ?? record;
    }
    const view = this.view(record);
    return success({
      ...view,
      spoken_summary: speakAppointmentStatus({
        id: view.appointment_id,
        status: view.status,
        service: view.service,
        date: view.date,
        start_time: view.start_time,
      }),
    });
  }

  /** Asks staff to cancel; the slot stays taken until a person approves the cancellation. */
  async requestCancellation(
    subject: string,
    appointmentId: string,
    contact: string,
    reason: string | undefined,
  ): Promise<Result<AppointmentView & Spoken & { approval_id: string }>> {
    const sensitive = refuseSensitive({ reason });
    if (sensitive) return sensitive;
    // Last four digits identify a booking for a status look-up, but are too weak to act on it.
    const record = await this.findOwned(subject, appointmentId, contact, false);
    if (!record) return notFound();
    const next = applyAppointmentCommand(record, 'request_cancel', 'caller');
    if (!next.ok) return next;
    const at = this.ctx.clock().toISOString();
    const requestId = this.ctx.newId('REQ');
    const cancelReason = reason?.trim() || null;
    const changed = await this.ctx.store.transaction(async (tx) => {
      const repo = repositories(this.ctx, tx);
      if (
        !(await repo.appointments.transition(record.id, record.status, next.value, at, {
          cancel_reason: cancelReason,
        }))
      ) {
        return false;
      }
      await repo.approvals.open({
        id: requestId,
        kind: 'cancellation',
        appointment_id: record.id,
        requested_by: subject,
        caller_said: cancelReason,
        created_at: at,
      });
      await repo.audit.append({
        at,
        actor_kind: 'caller',
        actor_id: subject,
        actor_name: null,
        action: 'cancellation.requested',
        target_type: 'appointment',
        target_id: record.id,
        details: { approval_id: requestId, previous_status: record.status },
      });
      return true;
    });
    if (!changed)
      return refusal(
        'invalid_transition',
        'This appointment changed a moment ago. Please check its status and try again.',
      );
    this.ctx.notify?.({ action: 'cancellation.requested', approvalId: requestId });
    const view = this.view({ ...record, ...next.value, cancel_reason: cancelReason });
    return success({
      ...view,
      approval_id: requestId,
      spoken_summary: speakCancellationRequested(view.appointment_id),
    });
  }

  answerFaq(question: string) {
    const answer = answerFaq(this.ctx.data.faqIndex, question);
    if (answer.grounded) {
      return { ...answer, spoken_summary: answer.answer };
    }
    return {
      ...answer,
      spoken_summary:
        "I don't have a reliable answer to that in the office's information. I can ask a person at the office to get back to you.",
    };
  }

  estimateQuote(input: QuoteInput): Result<QuoteRange & Spoken> {
    const year = Number(utcToZoned(this.ctx.clock(), this.office.timezone).date.slice(0, 4));
    const quote = estimateQuote(this.ctx.data.rates, input, year);
    if (!quote.ok) return quote;
    const q = quote.value;
    const dollars = (n: number) => `$${n.toLocaleString('en-US')}`;
    return success({
      ...q,
      spoken_summary:
        `As a rough, non-binding illustration, a home like that might cost about ${dollars(q.annual_low)} to ` +
        `${dollars(q.annual_high)} a year, roughly ${dollars(q.monthly_low)} to ${dollars(q.monthly_high)} a month. ` +
        'This is not a quote; a licensed agent has to review it.',
    });
  }

  /** Puts anything the assistant cannot do into the human queue, refusing sensitive numbers anywhere. */
  async escalate(
    subject: string,
    input: EscalationInput,
  ): Promise<
    Result<Spoken & { escalation_id: string; approval_id: string; status: 'open'; urgency: Urgency }>
  > {
    const sensitive = refuseSensitive({
      action: input.action,
      summary: input.summary,
      details: input.details,
    });
    if (sensitive) return sensitive;
    const at = this.ctx.clock().toISOString();
    const escalationId = this.ctx.newId('ESC');
    const requestId = this.ctx.newId('REQ');
    const urgency = input.urgency ?? 'normal';
    await this.ctx.store.transaction(async (tx) => {
      const repo = repositories(this.ctx, tx);
      await repo.approvals.insertEscalation({
        id: escalationId,
        office_id: this.office.id,
        owner_subject: subject,
        action: input.action.trim(),
        summary: input.summary.trim(),
        details_json: input.details === undefined ? null : JSON.stringify(input.details),
        urgency,
        created_at: at,
      });
      await repo.approvals.open({
        id: requestId,
        kind: 'escalation',
        escalation_id: escalationId,
        requested_by: subject,
        caller_said: input.summary.trim(),
        created_at: at,
      });
      await repo.audit.append({
        at,
        actor_kind: 'caller',
        actor_id: subject,
        actor_name: null,
        action: 'escalation.opened',
        target_type: 'escalation',
        target_id: escalationId,
        details: { approval_id: requestId, action: input.action.trim(), urgency } satisfies JsonValue,
      });
    });
    this.ctx.notify?.({ action: 'escalation.opened', approvalId: requestId });
    return success({
      escalation_id: escalationId,
      approval_id: requestId,
      status: 'open',
      urgency,
      spoken_summary: speakEscalation(escalationId),
    });
  }
}

/**
 * Expires one undecided hold whose start has passed: frees its slot and closes its approval request,
 * on the audit trail as the system. A no-op when someone decided it first.
 */
export async function expireHold(
  ctx: UseCaseContext,
  record: AppointmentRecord,
  now: Date,
): Promise<boolean> {
  const next = applyAppointmentCommand(record, 'expire_hold', 'system');
  if (!next.ok) return false;
  const at = now.toISOString();
  const expired = await ctx.store.transaction(async (tx) => {
    const repo = repositories(ctx, tx);
    if (!(await repo.appointments.transition(record.id, 'pending_approval', next.value, at))) return false;
    await repo.appointments.releaseCells(record.id);
    const request = await repo.approvals.findAwaitingForAppointment(record.id, 'hold');
    if (request) {
      await repo.approvals.decide(request.id, {
        status: 'expired',
        at,
        account: 'system',
        name: 'HoldDesk',
        note: 'start time reached without a decision',
      });
    }
    await repo.audit.append({
      at,
      actor_kind: 'system',
      actor_id: 'system',
      actor_name: null,
      action: 'hold.expired',
      target_type: 'appointment',
      target_id: record.id,
      details: { approval_id: request?.id ?? null },
    });
    return true;
  });
  if (expired) ctx.notify?.({ action: 'hold.expired', approvalId: null });
  return expired;
}

/** Expires every undecided hold whose start has passed; the server runs this periodically. */
export async function expireDueHolds(ctx: UseCaseContext): Promise<number> {
  const now = ctx.clock();
  const due = await repositories(ctx).appointments.listPendingHoldsStartingBefore(now.toISOString());
  let expired = 0;
  for (const record of due) if (await expireHold(ctx, record, now)) expired += 1;
  return expired;
}
