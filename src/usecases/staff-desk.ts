import { describeStatus, type AppointmentStatus } from '../core/appointments.js';
import type { ApprovalKind, ApprovalStatus, Decision, Urgency } from '../core/approvals.js';
import type { ChainedEntry, ChainVerdict, JsonValue } from '../core/audit-chain.js';
import { calendarDays, type CalendarView } from '../core/desk-calendar.js';
import { addDays, utcToZoned, zonedToUtc } from '../core/local-time.js';
import { success, type Result } from '../core/result.js';
import type { AppointmentRecord } from '../store/appointments.js';
import type { ApprovalRecord } from '../store/approvals.js';
import type { AuditFilter } from '../store/audit.js';
import { ApprovalDesk, type DecisionRefusalCode, type StaffActor } from './approval-desk.js';
import { repositories, type UseCaseContext } from './context.js';

/**
 * The staff side of the front desk: what a signed-in person sees and decides. Decisions go through
 * `ApprovalDesk.decide`, the one place anything becomes binding; this only shapes what people read.
 */

export interface AppointmentDetails {
  readonly id: string;
  readonly status: AppointmentStatus;
  readonly status_text: string;
  readonly client_name: string;
  readonly contact_kind: 'phone' | 'email';
  /** The full contact: staff call callers back. */
  readonly contact: string;
  readonly service: string;
  readonly service_name: string;
  readonly date: string;
  readonly start_time: string;
  readonly end_time: string;
  readonly staff_id: string;
  readonly staff_name: string;
  readonly notes: string | null;
  readonly cancel_reason: string | null;
}

export interface EscalationDetails {
  readonly id: string;
  readonly action: string;
  readonly summary: string;
  readonly details: JsonValue | null;
  readonly urgency: Urgency;
}

export interface QueueItem {
  readonly id: string;
  readonly kind: ApprovalKind;
  readonly status: ApprovalStatus;
  readonly created_at: string;
  readonly requested_by: string;
  /** What the caller asked for, in their words (notes, cancellation reason or escalation summary). */
  readonly caller_said: string | null;
  readonly decided_at: string | null;
  readonly decided_by_account: string | null;
  readonly decided_by_name: string | null;
  readonly decision_note: string | null;
  readonly appointment: AppointmentDetails | null;
  readonly escalation: EscalationDetails | null;
}

export interface CalendarEntry {
  readonly id: string;
  readonly status: AppointmentStatus;
  readonly status_text: string;
  readonly start_time: string;
  readonly end_time: string;
  readonly client_name: string;
  readonly service_name: string;
  readonly staff_name: string;
}

export interface CalendarDay {
  readonly date: string;
  readonly entries: readonly CalendarEntry[];
}

/** Holds, confirmed appointments and those waiting on a cancellation: everything that takes time. */
const ON_CALENDAR: ReadonlySet<AppointmentStatus> = new Set([
  'pending_approval',
  'confirmed',
  'cancel_requested',
]);

export interface AuditQuery {
  readonly action?: string | undefined;
  readonly actor?: string | undefined;
  readonly target?: string | undefined;
  /** Office-local dates, inclusive. */
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly beforeSeq?: number | undefined;
  readonly limit?: number | undefined;
}

const EXPORT_PAGE = 500;

function parseDetails(json: string | null): JsonValue | null {
  if (json === null) return null;
  try {
    return JSON.parse(json) as JsonValue;
  } catch {
    return json;
  }
}

export class StaffDesk {
  readonly #approvals: ApprovalDesk;

  constructor(private readonly ctx: UseCaseContext) {
    this.#approvals = new ApprovalDesk(ctx);
  }

  private get office() {
    return this.ctx.data.office;
  }

  /** Today's office-local date. */
  today(): string {
    return utcToZoned(this.ctx.clock(), this.office.timezone).date;
  }

  private appointmentDetails(record: AppointmentRecord): AppointmentDetails {
    const tz = this.office.timezone;
    const start = utcToZoned(new Date(record.starts_at), tz);
    const end = utcToZoned(new Date(record.ends_at), tz);
    return {
      id: record.id,
      status: record.status,
      status_text: describeStatus(record.status),
      client_name: record.client_name,
      contact_kind: record.contact_kind,
      contact: record.contact_value,
      service: record.service,
      service_name: this.office.services.find((s) => s.id === record.service)?.name ?? record.service,
      date: start.date,
      start_time: start.time,
      end_time: end.time,
      staff_id: record.staff_id,
      staff_name: this.office.staff.find((s) => s.id === record.staff_id)?.name ?? record.staff_id,
      notes: record.notes,
      cancel_reason: record.cancel_reason,
    };
  }

  private async item(request: ApprovalRecord): Promise<QueueItem> {
    const repo = repositories(this.ctx);
    const appointment = request.appointment_id
      ? await repo.appointments.findById(request.appointment_id)
      : undefined;
    const escalation = request.escalation_id
      ? await repo.approvals.findEscalation(request.escalation_id)
      : undefined;
    return {
      id: request.id,
      kind: request.kind,
      status: request.status,
      created_at: request.created_at,
      requested_by: request.requested_by,
      caller_said: request.caller_said,
      decided_at: request.decided_at,
      decided_by_account: request.decided_by_account,
      decided_by_name: request.decided_by_name,
      decision_note: request.decision_note,
      appointment: appointment ? this.appointmentDetails(appointment) : null,
      escalation: escalation
        ? {
            id: escalation.id,
            action: escalation.action,
            summary: escalation.summary,
            details: parseDetails(escalation.details_json),
            urgency: escalation.urgency as Urgency,
          }
        : null,
    };
  }

  /** Every request waiting for a decision, oldest first. */
  async queue(): Promise<QueueItem[]> {
    const awaiting = await repositories(this.ctx).approvals.listAwaiting();
    return Promise.all(awaiting.map((request) => this.item(request)));
  }

  async request(id: string): Promise<QueueItem | undefined> {
    const request = await repositories(this.ctx).approvals.findById(id);
    return request ? this.item(request) : undefined;
  }

  /** A named staff member decides one request; open desks hear about it. */
  async decide(
    requestId: string,
    decision: Decision,
    staff: StaffActor,
    note: string | undefined,
  ): Promise<Result<QueueItem, DecisionRefusalCode>> {
    const decided = await this.#approvals.decide(requestId, decision, staff, note);
    if (!decided.ok) return decided;
    this.ctx.notify?.({
      action: `${decided.value.kind}.${decided.value.status}`,
      approvalId: decided.value.id,
    });
    return success(await this.item(decided.value));
  }

  /** What takes staff time on the view's days around `date` (office-local). */
  async calendar(view: CalendarView, date: string): Promise<CalendarDay[]> {
    const tz = this.office.timezone;
    const days = calendarDays(view, date);
    const from = zonedToUtc(days[0]!, '00:00', tz).toISOString();
    const to = zonedToUtc(addDays(days.at(-1)!, 1), '00:00', tz).toISOString();
    const records = await repositories(this.ctx).appointments.listStartingBetween(from, to);
    const entries = records
      .filter((r) => ON_CALENDAR.has(r.status))
      .map((r) => {
        const details = this.appointmentDetails(r);
        return {
          date: details.date,
          entry: {
            id: r.id,
            status: r.status,
            status_text: details.status_text,
            start_time: details.start_time,
            end_time: details.end_time,
            client_name: details.client_name,
            service_name: details.service_name,
            staff_name: details.staff_name,
          },
        };
      });
    return days.map((day) => ({
      date: day,
      entries: entries.filter((e) => e.date === day).map((e) => e.entry),
    }));
  }

  private auditFilter(query: AuditQuery): AuditFilter {
    const tz = this.office.timezone;
    return {
      ...(query.action ? { action: query.action } : {}),
      ...(query.actor ? { actorId: query.actor } : {}),
      ...(query.target ? { targetId: query.target } : {}),
      ...(query.from ? { from: zonedToUtc(query.from, '00:00', tz).toISOString() } : {}),
      ...(query.to ? { to: zonedToUtc(addDays(query.to, 1), '00:00', tz).toISOString() } : {}),
      ...(query.beforeSeq === undefined ? {} : { beforeSeq: query.beforeSeq }),
      ...(query.limit === undefined ? {} : { limit: query.limit }),
    };
  }

  /** One page of the audit trail, newest first. */
  async audit(query: AuditQuery): Promise<ChainedEntry[]> {
    return repositories(this.ctx).audit.list(this.auditFilter(query));
  }

  /** Every entry matching the query, newest first, a page at a time (for exports). */
  async *auditAll(query: Omit<AuditQuery, 'beforeSeq' | 'limit'>): AsyncGenerator<ChainedEntry[]> {
    let beforeSeq: number | undefined;
    for (;;) {
      const page = await this.audit({ ...query, beforeSeq, limit: EXPORT_PAGE });
      if (page.length > 0) yield page;
      if (page.length < EXPORT_PAGE) return;
      beforeSeq = page.at(-1)!.seq;
    }
  }

  /** Recomputes the whole hash chain. */
  verifyAudit(): Promise<ChainVerdict> {
    return repositories(this.ctx).audit.verify();
  }
}
