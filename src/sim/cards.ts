/**
 * What the screen shows for a tool result: a card per result, in plain data the page renders.
 * The badge wording lives here, once: a hold is "Pending staff approval" until the status tool says
 * it is "Confirmed by staff".
 */
export type Card =
  | {
      readonly kind: 'slots';
      readonly date: string;
      readonly service: string;
      readonly timezone: string;
      readonly slots: readonly {
        readonly start_time: string;
        readonly end_time: string;
        readonly staff: string;
      }[];
      readonly more: number;
    }
  | {
      readonly kind: 'appointment';
      readonly appointment_id: string;
      readonly status: string;
      readonly badge: string;
      readonly service: string;
      readonly date: string;
      readonly start_time: string;
      readonly end_time: string;
      readonly staff_name: string;
    }
  | {
      readonly kind: 'faq';
      readonly source_id: string | null;
      readonly answer: string;
      readonly grounded: boolean;
    }
  | {
      readonly kind: 'quote';
      readonly annual_low: number;
      readonly annual_high: number;
      readonly monthly_low: number;
      readonly monthly_high: number;
      readonly disclaimer: string;
    }
  | { readonly kind: 'escalation'; readonly escalation_id: string; readonly badge: string }
  | { readonly kind: 'notice'; readonly code: string; readonly message: string };

export const BADGES: Readonly<Record<string, string>> = {
  pending_approval: 'Pending staff approval',
  confirmed: 'Confirmed by staff',
  rejected: 'Declined by staff',
  expired: 'Hold expired',
  cancel_requested: 'Cancellation pending staff approval',
  cancelled: 'Cancelled',
};

/** At most this many slots on a card: a screen glanced at from across a room. */
const MAX_SLOTS = 6;

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const num = (value: unknown): number => (typeof value === 'number' ? value : 0);

export function cardFor(tool: string, result: Readonly<Record<string, unknown>>): Card | undefined {
  if (result.ok !== true) {
    const error = (result.error ?? {}) as { code?: unknown };
    return { kind: 'notice', code: str(error.code) || 'error', message: str(result.spoken_summary) };
  }
  switch (tool) {
    case 'check_availability': {
      const slots = (Array.isArray(result.slots) ? result.slots : []) as {
        start_time?: unknown;
        end_time?: unknown;
        staff_ids?: unknown[];
      }[];
      const names = new Map(
        (Array.isArray(result.staff) ? (result.staff as { id?: unknown; name?: unknown }[]) : []).map(
          (member) => [member.id, str(member.name)],
        ),
      );
      return {
        kind: 'slots',
        date: str(result.date),
        service: str(result.service_name) || str(result.service),
        timezone: str(result.timezone),
        slots: slots.slice(0, MAX_SLOTS).map((slot) => ({
          start_time: str(slot.start_time),
          end_time: str(slot.end_time),
          staff: (Array.isArray(slot.staff_ids) ? slot.staff_ids : [])
            .map((id) => names.get(id) ?? str(id))
            .join(', '),
        })),
        more: Math.max(0, slots.length - MAX_SLOTS),
      };
    }
    case 'book_appointment':
    case 'get_appointment_status':
    case 'cancel_appointment': {
      const status = str(result.status);
      return {
        kind: 'appointment',
        appointment_id: str(result.appointment_id),
        status,
        badge: BADGES[status] ?? status,
        service: str(result.service_name) || str(result.service),
        date: str(result.date),
        start_time: str(result.start_time),
        end_time: str(result.end_time),
        staff_name: str(result.staff_name),
      };
    }
    case 'answer_office_faq':
      return {
        kind: 'faq',
        source_id: result.grounded === true ? str(result.id) : null,
        answer: str(result.answer) || str(result.spoken_summary),
        grounded: result.grounded === true,
      };
    case 'estimate_home_insurance_quote_range':
      return {
        kind: 'quote',
        annual_low: num(result.annual_low),
        annual_high: num(result.annual_high),
        monthly_low: num(result.monthly_low),
        monthly_high: num(result.monthly_high),
        disclaimer: str(result.disclaimer),
      };
    case 'request_human_approval':
      return {
        kind: 'escalation',
        escalation_id: str(result.escalation_id),
        badge: 'Waiting for a person at the office',
      };
    default:
      return undefined;
  }
}
