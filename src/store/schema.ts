import type { Generated } from 'kysely';

/**
 * The database as Kysely sees it. Instants are UTC ISO-8601 strings in both dialects, so ordering and
 * comparison work the same on SQLite and PostgreSQL; JSON is stored as text for the same reason.
 * Every row carries `office_id` so one installation can serve several offices later.
 */
export interface AppointmentsTable {
  id: string;
  office_id: string;
  owner_subject: string;
  client_name: string;
  contact_kind: 'phone' | 'email';
  contact_value: string;
  service: string;
  staff_id: string;
  starts_at: string;
  ends_at: string;
  notes: string | null;
  status: string;
  status_before_cancel: string | null;
  cancel_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** One row per slot-step cell an occupying appointment covers: the primary key forbids double booking. */
export interface SlotCellsTable {
  office_id: string;
  staff_id: string;
  cell_start: string;
  appointment_id: string;
}

export interface EscalationsTable {
  id: string;
  office_id: string;
  owner_subject: string;
  action: string;
  summary: string;
  details_json: string | null;
  urgency: string;
  created_at: string;
}

export interface ApprovalRequestsTable {
  id: string;
  office_id: string;
  kind: string;
  status: string;
  appointment_id: string | null;
  escalation_id: string | null;
  requested_by: string;
  /** What the caller asked for, in their words where they gave any (notes, reason, summary). */
  caller_said: string | null;
  created_at: string;
  decided_at: string | null;
  decided_by_account: string | null;
  decided_by_name: string | null;
  decision_note: string | null;
}

export interface AuditLogTable {
  office_id: string;
  seq: number;
  at: string;
  actor_kind: string;
  actor_id: string;
  actor_name: string | null;
  action: string;
  target_type: string;
  target_id: string;
  details_json: string;
  prev_hash: string;
  hash: string;
}

/** The newest entry of each office's chain; locking this row serialises appends. */
export interface AuditHeadsTable {
  office_id: string;
  seq: number;
  hash: string;
}

export interface OauthClientsTable {
  office_id: string;
  client_id: string;
  name: string;
  secret_hash: string;
  /** JSON array of exact redirect URIs. */
  redirect_uris: string;
  created_at: string;
}

export interface CallerAccountsTable {
  office_id: string;
  username: string;
  password_hash: string;
  created_at: string;
  disabled_at: string | null;
}

export interface OauthFamiliesTable {
  id: string;
  office_id: string;
  client_id: string;
  subject: string;
  scope: string;
  resource: string | null;
  created_at: string;
  revoked_at: string | null;
  revoked_reason: string | null;
}

export interface OauthCodesTable {
  code_hash: string;
  family_id: string;
  redirect_uri: string;
  code_challenge: string;
  expires_at: string;
  used_at: string | null;
}

export interface OauthTokensTable {
  token_hash: string;
  family_id: string;
  kind: 'access' | 'refresh';
  expires_at: string;
  created_at: string;
  /** For refresh tokens: when it was rotated; presenting it again revokes the family. */
  used_at: string | null;
}

export interface StaffAccountsTable {
  office_id: string;
  username: string;
  display_name: string;
  role: 'admin' | 'staff';
  password_hash: string;
  created_at: string;
  disabled_at: string | null;
}

export interface DeskSessionsTable {
  id_hash: string;
  office_id: string;
  username: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

/** A staff member's personal access token for the call gateway: only its SHA-256 is stored. */
export interface PersonalAccessTokensTable {
  id: string;
  office_id: string;
  staff_username: string;
  name: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** A phone a staff member can be rung on when the gateway hands a call over. */
export interface DevicesTable {
  id: string;
  office_id: string;
  staff_username: string;
  name: string;
  kind: 'sip' | 'phone';
  address: string;
  created_at: string;
}

export interface CallFlowsTable {
  id: string;
  office_id: string;
  name: string;
  phone_number: string;
  /** JSON array of steps, validated by `core/calls/call-flows.ts`. */
  steps_json: string;
  notes: string | null;
  source: 'manual' | 'learned';
  learned_from_call_id: string | null;
  version: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface CallsTable {
  id: string;
  office_id: string;
  placed_by: string;
  placed_via: string;
  credential_id: string | null;
  number: string;
  mode: string;
  intent: string | null;
  call_flow_id: string | null;
  device_id: string | null;
  status: string;
  end_reason: string | null;
  classification: string | null;
  created_at: string;
  answered_at: string | null;
  hold_started_at: string | null;
  hold_ms: number;
  human_at: string | null;
  bridged_at: string | null;
  ended_at: string | null;
  updated_at: string;
  lease_until: string | null;
}

export interface CallEventsTable {
  call_id: string;
  seq: number;
  office_id: string;
  at: string;
  kind: string;
  details_json: string;
}

export interface CallTranscriptLinesTable {
  call_id: string;
  seq: number;
  office_id: string;
  at: string;
  offset_ms: number;
  speaker: string;
  text: string;
}

export interface CallRecordingsTable {
  call_id: string;
  office_id: string;
  location: string;
  format: string;
  duration_ms: number;
  created_at: string;
}

export interface CallSummariesTable {
  call_id: string;
  office_id: string;
  summary: string;
  action_items_json: string;
  sentiment: string;
  created_at: string;
}

export interface Database {
  appointments: AppointmentsTable;
  slot_cells: SlotCellsTable;
  escalations: EscalationsTable;
  approval_requests: ApprovalRequestsTable;
  audit_log: AuditLogTable;
  audit_heads: AuditHeadsTable;
  oauth_clients: OauthClientsTable;
  caller_accounts: CallerAccountsTable;
  oauth_families: OauthFamiliesTable;
  oauth_codes: OauthCodesTable;
  oauth_tokens: OauthTokensTable;
  staff_accounts: StaffAccountsTable;
  desk_sessions: DeskSessionsTable;
  personal_access_tokens: PersonalAccessTokensTable;
  devices: DevicesTable;
  call_flows: CallFlowsTable;
  calls: CallsTable;
  call_events: CallEventsTable;
  call_transcript_lines: CallTranscriptLinesTable;
  call_recordings: CallRecordingsTable;
  call_summaries: CallSummariesTable;
}

export type { Generated };
