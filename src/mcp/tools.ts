import { z } from 'zod';
import { URGENCIES } from '../core/approvals.js';
import { SERVICE_IDS } from '../core/office.js';
import { success } from '../core/result.js';
import type { FrontDesk } from '../usecases/front-desk.js';
import type { Principal, ToolAccess } from './principal.js';
import type { ToolOutcome } from './tool-result.js';

/**
 * The seven caller tools. Built once at start-up and shared by every request: the definitions carry
 * no per-request state. There is deliberately no tool that approves, rejects or lists the queue.
 */
const APPROVAL_RULE =
  'Nothing this assistant does is binding: a hold is not a booking until a staff member approves it, ' +
  'and a cancellation only takes effect when staff approve it. Never tell the caller it is confirmed ' +
  'unless get_appointment_status says "confirmed".';

const ISO_DATE = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'use YYYY-MM-DD');
const LOCAL_TIME = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'use 24-hour HH:MM');
const SERVICE = z
  .enum(SERVICE_IDS)
  .describe('consultation (30 min), policy_review (60) or quote_walkthrough (45)');
const CONTACT = z.string().min(1).max(254).describe('Phone number or e-mail address the caller gave');
const APPOINTMENT_ID = z.string().min(1).max(40).describe('Reference id from the hold, e.g. APT-7F3K2Q');

const ERROR = z.looseObject({ code: z.string(), message: z.string() });
/** Every result has `ok` and `spoken_summary`; success fields are optional because refusals lack them. */
const resultShape = (fields: z.ZodRawShape) =>
  z.looseObject({ ok: z.boolean(), spoken_summary: z.string(), error: ERROR.optional(), ...fields });

const STAFF_MEMBER = z.object({ id: z.string(), name: z.string() });
/** A slot of `check_availability`'s date; `staff_ids` name entries of the answer's `staff`. */
const AVAILABLE_SLOT = z.object({
  start_time: z.string(),
  end_time: z.string(),
  staff_ids: z.array(z.string()),
});
const APPOINTMENT_FIELDS = {
  appointment_id: z.string().optional(),
  status: z.string().optional(),
  status_text: z.string().optional(),
  service: z.string().optional(),
  date: z.string().optional(),
  start_time: z.string().optional(),
  end_time: z.string().optional(),
  staff_name: z.string().optional(),
};

export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly access: ToolAccess;
  readonly inputSchema: z.ZodObject;
  readonly outputSchema: z.ZodObject;
  readonly annotations: {
    readonly readOnlyHint: boolean;
    readonly destructiveHint: boolean;
    readonly idempotentHint: boolean;
    readonly openWorldHint: boolean;
  };
  readonly run: (desk: FrontDesk, principal: Principal, args: never) => Promise<ToolOutcome> | ToolOutcome;
}

function tool<I extends z.ZodObject>(
  definition: Omit<ToolDefinition, 'inputSchema' | 'run'> & {
    inputSchema: I;
    run: (desk: FrontDesk, principal: Principal, args: z.infer<I>) => Promise<ToolOutcome> | ToolOutcome;
  },
): ToolDefinition {
  return definition;
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const PROPOSES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

export const TOOLS: readonly ToolDefinition[] = [
  tool({
    name: 'check_availability',
    title: 'Check availability',
    description:
      'Open start times for a service on a date (office-local), optionally with one staff member. ' +
      'Respects opening hours, holidays, blocked time, existing holds and the current time. ' +
      "Each slot names who is free by staff_ids; the answer's staff list gives their names. Read-only.",
    access: 'public',
    inputSchema: z.object({
      date: ISO_DATE.describe('Office-local date, YYYY-MM-DD'),
      service: SERVICE,
      staff_id: z.string().min(1).max(64).optional().describe('Only this staff member'),
    }),
    outputSchema: resultShape({
      date: z.string().optional(),
      service: z.string().optional(),
      duration_minutes: z.number().optional(),
      timezone: z.string().optional(),
      staff: z.array(STAFF_MEMBER).optional(),
      slots: z.array(AVAILABLE_SLOT).optional(),
    }),
    annotations: READ_ONLY,
    run: (desk, _principal, args) => desk.checkAvailability(args),
  }),
  tool({
    name: 'book_appointment',
    title: 'Place a hold on a slot',
    description:
      `Places a HOLD (status pending_approval) on a slot for the caller and opens a staff approval request. ${APPROVAL_RULE} ` +
      'Use only a name and contact the caller actually said. Refuses social security and card numbers.',
    access: 'user',
    inputSchema: z.object({
      client_name: z.string().min(1).max(120).describe('Name the caller gave'),
      contact: CONTACT,
      service: SERVICE,
      date: ISO_DATE.describe('Office-local date, YYYY-MM-DD'),
      start_time: LOCAL_TIME.describe('Office-local start, HH:MM (24 h), from check_availability'),
      staff_id: z.string().min(1).max(64).optional(),
      notes: z.string().max(1000).optional().describe('What the caller wants to discuss'),
    }),
    outputSchema: resultShape(APPOINTMENT_FIELDS),
    annotations: PROPOSES,
    run: (desk, principal, args) => desk.placeHold(principal.subject, args),
  }),
  tool({
    name: 'get_appointment_status',
    title: 'Appointment status',
    description:
      "Status of the caller's own appointment by reference id and the booking contact (or the last four " +
      `digits of the phone). Only this status may be reported as confirmed. ${APPROVAL_RULE}`,
    access: 'user',
    inputSchema: z.object({
      appointment_id: APPOINTMENT_ID,
      contact: CONTACT.describe('Booking phone or e-mail, or the last four digits of the phone'),
    }),
    outputSchema: resultShape(APPOINTMENT_FIELDS),
    annotations: READ_ONLY,
    run: (desk, principal, args) =>
      desk.appointmentStatus(principal.subject, args.appointment_id, args.contact),
  }),
  tool({
    name: 'cancel_appointment',
    title: 'Request a cancellation',
    description:
      "Asks staff to cancel the caller's own appointment; needs the full booking contact. The slot is kept " +
      `until a staff member approves the cancellation. ${APPROVAL_RULE}`,
    access: 'user',
    inputSchema: z.object({
      appointment_id: APPOINTMENT_ID,
      contact: CONTACT.describe('The full phone number or e-mail used for the booking'),
      reason: z.string().max(1000).optional(),
    }),
    outputSchema: resultShape({ ...APPOINTMENT_FIELDS, approval_id: z.string().optional() }),
    annotations: PROPOSES,
    run: (desk, principal, args) =>
      desk.requestCancellation(principal.subject, args.appointment_id, args.contact, args.reason),
  }),
  tool({
    name: 'answer_office_faq',
    title: 'Answer an office question',
    description:
      "Answers questions about the office (hours, location, documents, payments, claims, policies) from the office's " +
      'own knowledge file. Returns grounded:false instead of guessing; then offer to escalate.',
    access: 'public',
    inputSchema: z.object({ question: z.string().min(1).max(500) }),
    outputSchema: resultShape({
      grounded: z.boolean().optional(),
      id: z.string().optional(),
      answer: z.string().optional(),
      suggestions: z.array(z.object({ id: z.string(), question: z.string() })).optional(),
    }),
    annotations: READ_ONLY,
    run: (desk, _principal, args) => success(desk.answerFaq(args.question)),
  }),
  tool({
    name: 'estimate_home_insurance_quote_range',
    title: 'Illustrative home-insurance range',
    description:
      'An illustrative annual and monthly price RANGE from a synthetic rate table. Always binding:false with a ' +
      'disclaimer: it is not a quote. Old roofs are referred to underwriting review.',
    access: 'public',
    inputSchema: z.object({
      state: z.string().min(2).max(20).describe('US state code, e.g. IL'),
      dwelling_coverage: z.number().positive().describe('Dwelling coverage in US dollars'),
      year_built: z.number().int(),
      construction_type: z.string().min(1).max(40).optional(),
      roof_age_years: z.number().min(0).optional(),
      deductible: z.number().positive().optional(),
    }),
    outputSchema: resultShape({
      annual_low: z.number().optional(),
      annual_high: z.number().optional(),
      monthly_low: z.number().optional(),
      monthly_high: z.number().optional(),
      binding: z.literal(false).optional(),
      disclaimer: z.string().optional(),
    }),
    annotations: READ_ONLY,
    run: (desk, _principal, args) => desk.estimateQuote(args),
  }),
  tool({
    name: 'request_human_approval',
    title: 'Escalate to a person',
    description:
      'Puts a request into the office staff queue for a person to handle (call back, binding quote, speak to an ' +
      `advisor, anything the tools cannot do). ${APPROVAL_RULE} Refuses social security and card numbers anywhere.`,
    access: 'user',
    inputSchema: z.object({
      action: z.string().min(1).max(200).describe('What the caller wants done, e.g. "callback"'),
      summary: z.string().min(1).max(2000).describe('Short summary in the caller’s words'),
      details: z.record(z.string(), z.unknown()).optional(),
      urgency: z.enum(URGENCIES).optional(),
    }),
    outputSchema: resultShape({
      escalation_id: z.string().optional(),
      approval_id: z.string().optional(),
      status: z.string().optional(),
      urgency: z.string().optional(),
    }),
    annotations: PROPOSES,
    run: (desk, principal, args) => desk.escalate(principal.subject, args),
  }),
];

export const SERVER_INSTRUCTIONS =
  'You are the front desk of a small insurance office. You can check openings, place holds, look up or ' +
  "request cancellation of the caller's own appointments, answer office questions, give a non-binding price " +
  `range and escalate to a person. ${APPROVAL_RULE} Keep replies short and speak the spoken_summary.`;
