import { z } from 'zod';
import { CALL_MODES, describeDuration } from '../core/calls/call-state.js';
import { success, type Result } from '../core/result.js';
import type { CallGateway } from './call-gateway.js';
import type { StaffPrincipal } from './staff-principal.js';
import type { StaffToolOutcome } from './tool-result.js';
import type { CallView } from './views.js';

/**
 * The fifteen staff tools, with the reference's names and parameters. Built once and shared by every
 * request; each one calls the gateway use case and adds a one-line `summary` for the assistant.
 */
export const STAFF_SERVER_INSTRUCTIONS =
  'HoldDesk call gateway for office staff. make_call places a REAL outbound phone call that may cost money; ' +
  'emergency, short-code and premium-rate numbers are always refused, and a concurrent-call cap and a daily ' +
  'budget apply. In hold_slayer mode the gateway follows the stored call flow, waits on hold and rings your ' +
  'device when a person answers; poll get_call_status (or subscribe to gateway://active-calls) to follow it. ' +
  'After an exploration call, learn_call_flow saves the menu path for next time.';

const CALL_ID = z.string().min(1).max(40).describe('The call id, e.g. call_k7x2m9qaw3tr');
const PHONE = z.string().min(1).max(40);

const ERROR = z.looseObject({ code: z.string(), message: z.string() });
/** Every result has `ok` and `summary`; success fields are optional because refusals lack them. */
const resultShape = (fields: z.ZodRawShape) =>
  z.looseObject({ ok: z.boolean(), summary: z.string(), error: ERROR.optional(), ...fields });
const CALL = z.looseObject({ call_id: z.string(), status: z.string(), number: z.string() });

export interface StaffToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: z.ZodObject;
  readonly outputSchema: z.ZodObject;
  readonly annotations: {
    readonly readOnlyHint: boolean;
    readonly destructiveHint: boolean;
    readonly idempotentHint: boolean;
    readonly openWorldHint: boolean;
  };
  readonly run: (gateway: CallGateway, staff: StaffPrincipal, args: never) => Promise<StaffToolOutcome>;
}

function tool<I extends z.ZodObject>(
  definition: Omit<StaffToolDefinition, 'inputSchema' | 'run'> & {
    inputSchema: I;
    run: (gateway: CallGateway, staff: StaffPrincipal, args: z.infer<I>) => Promise<StaffToolOutcome>;
  },
): StaffToolDefinition {
  return definition;
}

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
const CALLS_OUT = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
const ENDS_CALL = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true };

/** One line about a call: where it stands and for how long it has been on hold. */
export function describeCall(call: CallView): string {
  const state = call.status === 'ended' ? `ended (${call.end_reason})` : call.status.replace('_', ' ');
  const hold = call.hold_seconds > 0 ? `, ${describeDuration(call.hold_seconds * 1000)} on hold` : '';
  return `Call ${call.call_id} to ${call.number}: ${state}${hold}.`;
}

function withSummary<T extends object>(result: Result<T>, summary: (value: T) => string): StaffToolOutcome {
  return result.ok ? success({ ...result.value, summary: summary(result.value) }) : result;
}

export const STAFF_TOOLS: readonly StaffToolDefinition[] = [
  tool({
    name: 'make_call',
    title: 'Place a call',
    description:
      'Places a real outbound call through the trunk (it may cost money). Number in E.164 (+13125550134). ' +
      'mode: direct (ring your device as soon as they answer), hold_slayer (follow the call flow, wait on hold, ' +
      'ring your device when a person answers), ai_assisted (as hold_slayer, choosing menu options from the ' +
      "intent and stating it to the person; needs intent). Without call_flow_id the number's stored flow is used. " +
      'Emergency, short-code and premium numbers are refused.',
    inputSchema: z.object({
      number: PHONE.describe('Phone number to call (E.164 format)'),
      mode: z.enum(CALL_MODES).optional().describe('direct, hold_slayer, or ai_assisted (default: direct)'),
      intent: z.string().max(500).optional().describe('What you want to accomplish on the call'),
      call_flow_id: z.string().min(1).max(40).optional().describe('ID of a stored call flow to follow'),
      device: z.string().min(1).max(80).optional().describe('Device to transfer to when a human is detected'),
    }),
    outputSchema: resultShape({
      call_id: z.string().optional(),
      status: z.string().optional(),
      call: CALL.optional(),
    }),
    annotations: CALLS_OUT,
    run: async (gateway, staff, args) =>
      withSummary(
        await gateway
          .placeCall(staff, args)
          .then((r) =>
            r.ok ? success({ call_id: r.value.call_id, status: r.value.status, call: r.value }) : r,
          ),
        (v) => `Calling ${v.call.number} as ${v.call_id} (${v.call.mode}); status ${v.status}.`,
      ),
  }),
  tool({
    name: 'get_call_status',
    title: 'Call status',
    description:
      'Current state of a call: status, duration, hold time, what the gateway hears now (classification) and the last transcript lines.',
    inputSchema: z.object({ call_id: CALL_ID.describe('The call to check') }),
    outputSchema: resultShape({ call: CALL.optional() }),
    annotations: READ,
    run: async (gateway, _staff, args) =>
      withSummary(
        await gateway.call(args.call_id).then((r) => (r.ok ? success({ call: r.value }) : r)),
        (v) => describeCall(v.call),
      ),
  }),
  tool({
    name: 'transfer_call',
    title: 'Transfer a call',
    description:
      'Rings one of your devices (by id, name, or type: sip or phone) and connects the call to it when it answers.',
    inputSchema: z.object({
      call_id: CALL_ID.describe('The call to transfer'),
      device: z.string().min(1).max(80).describe('Device ID or type to ring'),
    }),
    outputSchema: resultShape({ call: CALL.optional() }),
    annotations: CALLS_OUT,
    run: async (gateway, staff, args) =>
      withSummary(
        await gateway
          .transfer(staff, args.call_id, args.device)
          .then((r) => (r.ok ? success({ call: r.value }) : r)),
        (v) => `Ringing your device for call ${v.call.call_id}.`,
      ),
  }),
  tool({
    name: 'hangup',
    title: 'Hang up',
    description: 'Hangs up an active call you placed (admins: any call).',
    inputSchema: z.object({ call_id: CALL_ID.describe('The call to hang up') }),
    outputSchema: resultShape({ call: CALL.optional() }),
    annotations: ENDS_CALL,
    run: async (gateway, staff, args) =>
      withSummary(
        await gateway.hangup(staff, args.call_id).then((r) => (r.ok ? success({ call: r.value }) : r)),
        (v) => describeCall(v.call),
      ),
  }),
  tool({
    name: 'list_active_calls',
    title: 'Active calls',
    description: 'All calls in progress in the office, with status and hold time.',
    inputSchema: z.object({}),
    outputSchema: resultShape({ calls: z.array(CALL).optional(), count: z.number().optional() }),
    annotations: READ,
    run: async (gateway) => {
      const active = await gateway.activeCalls();
      return success({
        calls: active,
        count: active.length,
        summary: active.length === 0 ? 'No calls in progress.' : active.map(describeCall).join(' '),
      });
    },
  }),
  tool({
    name: 'send_dtmf',
    title: 'Send touch tones',
    description:
      'Sends DTMF digits on an active call (manual menu navigation), e.g. "1" or "123#". Takes over from the call flow. ' +
      'Card and social security numbers are refused.',
    inputSchema: z.object({
      call_id: CALL_ID.describe('The call to send digits on'),
      digits: z.string().min(1).max(40).describe('DTMF digits (e.g., "1", "123#")'),
    }),
    outputSchema: resultShape({ call: CALL.optional() }),
    annotations: CALLS_OUT,
    run: async (gateway, staff, args) =>
      withSummary(
        await gateway
          .sendDtmf(staff, args.call_id, args.digits)
          .then((r) => (r.ok ? success({ call: r.value }) : r)),
        (v) => `Sent ${args.digits} on call ${v.call.call_id}.`,
      ),
  }),
  tool({
    name: 'get_call_transcript',
    title: 'Call transcript',
    description:
      'The full transcript of a call: timed lines from the phone menu (ivr), the person (agent) and the gateway.',
    inputSchema: z.object({ call_id: CALL_ID.describe('The call to get the transcript for') }),
    outputSchema: resultShape({
      call_id: z.string().optional(),
      status: z.string().optional(),
      lines: z.array(z.looseObject({})).optional(),
    }),
    annotations: READ,
    run: async (gateway, _staff, args) =>
      withSummary(
        await gateway.transcript(args.call_id),
        (v) => `${v.lines.length} transcript lines; the call is ${v.status}.`,
      ),
  }),
  tool({
    name: 'get_call_recording',
    title: 'Call recording',
    description: 'Recording metadata (location, format, duration) of a call.',
    inputSchema: z.object({ call_id: CALL_ID.describe('The call to look up') }),
    outputSchema: resultShape({
      call_id: z.string().optional(),
      location: z.string().optional(),
      format: z.string().optional(),
      duration_seconds: z.number().optional(),
    }),
    annotations: READ,
    run: async (gateway, _staff, args) =>
      withSummary(
        await gateway.recording(args.call_id),
        (v) => `Recording of ${v.duration_seconds} s at ${v.location}.`,
      ),
  }),
  tool({
    name: 'get_call_summary',
    title: 'Call summary',
    description: 'The stored summary of an ended call: what happened, action items and sentiment.',
    inputSchema: z.object({ call_id: CALL_ID.describe('The call to look up') }),
    outputSchema: resultShape({
      call_id: z.string().optional(),
      action_items: z.array(z.string()).optional(),
      sentiment: z.string().optional(),
    }),
    annotations: READ,
    run: async (gateway, _staff, args) => {
      const result = await gateway.summary(args.call_id);
      // The stored summary is the tool's summary line.
      return result.ok ? success(result.value) : result;
    },
  }),
  tool({
    name: 'search_call_history',
    title: 'Search past calls',
    description:
      'Past and present calls, newest first, filtered by part of the phone number and/or part of the intent.',
    inputSchema: z.object({
      phone_number: z.string().max(40).optional().describe('Filter by phone number (partial match)'),
      intent: z.string().max(200).optional().describe('Filter by intent text (partial match)'),
      limit: z.number().int().min(1).max(100).optional().describe('Max results (default: 10)'),
    }),
    outputSchema: resultShape({ calls: z.array(CALL).optional(), count: z.number().optional() }),
    annotations: READ,
    run: async (gateway, _staff, args) => {
      const found = await gateway.searchHistory(args);
      return success({ calls: found, count: found.length, summary: `${found.length} calls found.` });
    },
  }),
  tool({
    name: 'get_call_flow',
    title: 'Call flow for a number',
    description:
      'The stored IVR call flow for a phone number: its steps (expect a prompt, then press, wait or say).',
    inputSchema: z.object({ phone_number: PHONE.describe('Number to look up (E.164)') }),
    outputSchema: resultShape({
      call_flow_id: z.string().optional(),
      steps: z.array(z.looseObject({})).optional(),
    }),
    annotations: READ,
    run: async (gateway, _staff, args) =>
      withSummary(
        await gateway.flowByNumber(args.phone_number),
        (v) => `${v.name}: ${v.steps.length} steps (version ${v.version}).`,
      ),
  }),
  tool({
    name: 'create_call_flow',
    title: 'Store a call flow',
    description:
      'Stores a call flow by hand. steps_json is a JSON array of steps, each with an optional "expect" (words of the ' +
      'prompt to wait for) and exactly one of "press" (DTMF digits), "wait" (seconds) or "say" (text); optional ' +
      '"timeout_seconds" (default 30) and "note". Example: [{"expect":"for billing","press":"2"},{"wait":2}]. ' +
      'One flow per number; learn_call_flow refines an existing one.',
    inputSchema: z.object({
      name: z.string().min(1).max(120).describe('Human-readable name'),
      phone_number: PHONE.describe('Phone number (E.164)'),
      steps_json: z.string().min(2).max(20_000).describe('JSON array of call flow steps'),
      notes: z.string().max(2000).optional().describe('General notes'),
    }),
    outputSchema: resultShape({
      call_flow_id: z.string().optional(),
      steps: z.array(z.looseObject({})).optional(),
    }),
    annotations: WRITE,
    run: async (gateway, staff, args) =>
      withSummary(
        await gateway.createFlow(staff, {
          name: args.name,
          phone_number: args.phone_number,
          steps: args.steps_json,
          notes: args.notes,
        }),
        (v) => `Stored ${v.name} (${v.call_flow_id}) with ${v.steps.length} steps.`,
      ),
  }),
  tool({
    name: 'learn_call_flow',
    title: 'Learn a call flow',
    description:
      'Builds (or refines) the call flow of a number from a completed hold_slayer or ai_assisted call: the prompts it ' +
      'heard and the digits it sent until it reached hold or a person, so the next call navigates directly.',
    inputSchema: z.object({
      call_id: CALL_ID.describe('A completed call that ran in exploration mode'),
      company_name: z.string().max(120).optional().describe('Company name for labeling a new flow'),
    }),
    outputSchema: resultShape({
      call_flow_id: z.string().optional(),
      changed: z.boolean().optional(),
      steps: z.array(z.looseObject({})).optional(),
    }),
    annotations: WRITE,
    run: async (gateway, staff, args) =>
      withSummary(await gateway.learnFlow(staff, args.call_id, args.company_name), (v) =>
        v.changed
          ? `Saved ${v.name} (${v.call_flow_id}), version ${v.version}, ${v.steps.length} steps.`
          : `${v.name} already matches this call; nothing changed.`,
      ),
  }),
  tool({
    name: 'list_devices',
    title: 'Devices',
    description: "The office's devices (staff phones the gateway can ring) and whether each is online.",
    inputSchema: z.object({}),
    outputSchema: resultShape({ devices: z.array(z.looseObject({})).optional() }),
    annotations: READ,
    run: async (gateway) => {
      const devices = await gateway.devices();
      const online = devices.filter((d) => d.online).length;
      return success({ devices, summary: `${devices.length} devices, ${online} online.` });
    },
  }),
  tool({
    name: 'gateway_status',
    title: 'Gateway status',
    description: 'Trunk registration, analysis engine, device count, active calls and the call limits.',
    inputSchema: z.object({}),
    outputSchema: resultShape({ trunk: z.looseObject({}).optional(), active_calls: z.number().optional() }),
    annotations: READ,
    run: async (gateway) => {
      const status = await gateway.status();
      const trunk = status.trunk.configured
        ? `Trunk ${status.trunk.name} ${status.trunk.registered ? 'registered' : 'not registered'}`
        : 'No trunk configured (make_call is refused)';
      return success({
        ...status,
        summary: `${trunk}; ${status.active_calls} active calls; ${status.limits.calls_today} of ${status.limits.daily_call_limit} calls used today.`,
      });
    },
  }),
];
