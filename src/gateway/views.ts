import type { FlowStep } from '../core/calls/call-flows.js';
import {
  callDurations,
  type CallStatus,
  type CallTimeline,
  type EndReason,
} from '../core/calls/call-state.js';
import type { CallEventRecord, CallRecord, TranscriptLineRecord } from '../store/calls.js';
import type { DeviceRecord } from '../store/gateway-devices.js';
import type { CallFlowRecord } from '../store/gateway-flows.js';
import type { PersonalTokenRecord } from '../store/personal-tokens.js';

/**
 * The JSON shapes the gateway answers with, the same on every surface (MCP tools and resources, the
 * REST API, the WebSocket stream): snake_case, instants as UTC ISO strings, durations in seconds.
 */
export function timelineOf(row: CallRecord): CallTimeline {
  return {
    status: row.status as CallStatus,
    end_reason: row.end_reason as EndReason | null,
    created_at: row.created_at,
    answered_at: row.answered_at,
    hold_started_at: row.hold_started_at,
    hold_ms: Number(row.hold_ms),
    human_at: row.human_at,
    bridged_at: row.bridged_at,
    ended_at: row.ended_at,
  };
}

export interface CallView {
  readonly call_id: string;
  readonly number: string;
  readonly mode: string;
  readonly intent: string | null;
  readonly status: string;
  readonly end_reason: string | null;
  /** What the gateway hears right now (hold music, a menu prompt, a person). */
  readonly classification: string | null;
  readonly placed_by: string;
  readonly call_flow_id: string | null;
  readonly device_id: string | null;
  readonly created_at: string;
  readonly answered_at: string | null;
  readonly human_detected_at: string | null;
  readonly bridged_at: string | null;
  readonly ended_at: string | null;
  readonly duration_seconds: number;
  readonly hold_seconds: number;
  readonly on_hold_since: string | null;
}

const seconds = (ms: number): number => Math.floor(ms / 1000);

export function callView(row: CallRecord, now: string): CallView {
  const timeline = timelineOf(row);
  const durations = callDurations(timeline, now);
  return {
    call_id: row.id,
    number: row.number,
    mode: row.mode,
    intent: row.intent,
    status: row.status,
    end_reason: row.end_reason,
    classification: row.classification,
    placed_by: row.placed_by,
    call_flow_id: row.call_flow_id,
    device_id: row.device_id,
    created_at: row.created_at,
    answered_at: row.answered_at,
    human_detected_at: row.human_at,
    bridged_at: row.bridged_at,
    ended_at: row.ended_at,
    duration_seconds: seconds(durations.duration_ms),
    hold_seconds: seconds(durations.hold_ms),
    on_hold_since: row.hold_started_at,
  };
}

export interface CallEventView {
  readonly seq: number;
  readonly at: string;
  readonly kind: string;
  readonly details: Record<string, unknown>;
}

export function callEventView(row: CallEventRecord): CallEventView {
  return {
    seq: Number(row.seq),
    at: row.at,
    kind: row.kind,
    details: JSON.parse(row.details_json) as Record<string, unknown>,
  };
}

export interface TranscriptLineView {
  readonly seq: number;
  readonly at: string;
  readonly offset_ms: number;
  readonly speaker: string;
  readonly text: string;
}

export function transcriptLineView(row: TranscriptLineRecord): TranscriptLineView {
  return {
    seq: Number(row.seq),
    at: row.at,
    offset_ms: Number(row.offset_ms),
    speaker: row.speaker,
    text: row.text,
  };
}

export interface FlowView {
  readonly call_flow_id: string;
  readonly name: string;
  readonly phone_number: string;
  readonly steps: FlowStep[];
  readonly notes: string | null;
  readonly source: string;
  readonly learned_from_call_id: string | null;
  readonly version: number;
  readonly created_by: string;
  readonly created_at: string;
  readonly updated_at: string;
}

export function flowView(row: CallFlowRecord): FlowView {
  return {
    call_flow_id: row.id,
    name: row.name,
    phone_number: row.phone_number,
    steps: JSON.parse(row.steps_json) as FlowStep[],
    notes: row.notes,
    source: row.source,
    learned_from_call_id: row.learned_from_call_id,
    version: Number(row.version),
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export interface DeviceView {
  readonly device_id: string;
  readonly name: string;
  readonly kind: string;
  readonly address: string;
  readonly staff: string;
  readonly online: boolean;
}

export function deviceView(row: DeviceRecord, online: boolean): DeviceView {
  return {
    device_id: row.id,
    name: row.name,
    kind: row.kind,
    address: row.address,
    staff: row.staff_username,
    online,
  };
}

export interface TokenView {
  readonly token_id: string;
  readonly name: string;
  readonly staff: string;
  readonly created_at: string;
  readonly expires_at: string;
  readonly last_used_at: string | null;
  readonly revoked_at: string | null;
  readonly state: 'active' | 'expired' | 'revoked';
}

export function tokenView(row: PersonalTokenRecord, now: string): TokenView {
  return {
    token_id: row.id,
    name: row.name,
    staff: row.staff_username,
    created_at: row.created_at,
    expires_at: row.expires_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
    state: row.revoked_at !== null ? 'revoked' : row.expires_at <= now ? 'expired' : 'active',
  };
}
