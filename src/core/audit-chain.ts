import { createHash } from 'node:crypto';

/**
 * The audit trail is a hash chain: each entry's hash covers its own content and the previous entry's
 * hash, so editing, deleting or reordering any entry breaks every hash after it. The database also
 * refuses updates and deletes; the chain makes tampering that bypasses it detectable.
 */
export const GENESIS_HASH = '0'.repeat(64);

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface AuditContent {
  readonly office_id: string;
  readonly seq: number;
  readonly at: string;
  readonly actor_kind: string;
  readonly actor_id: string;
  readonly actor_name: string | null;
  readonly action: string;
  readonly target_type: string;
  readonly target_id: string;
  readonly details: JsonValue;
}

export interface ChainedEntry extends AuditContent {
  readonly prev_hash: string;
  readonly hash: string;
}

/** JSON with object keys sorted at every depth, so equal content always hashes the same. */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k]!)}`).join(',')}}`;
}

export function chainHash(prevHash: string, content: AuditContent): string {
  const body = canonicalJson({
    office_id: content.office_id,
    seq: content.seq,
    at: content.at,
    actor_kind: content.actor_kind,
    actor_id: content.actor_id,
    actor_name: content.actor_name,
    action: content.action,
    target_type: content.target_type,
    target_id: content.target_id,
    details: content.details,
  });
  return createHash('sha256').update(prevHash).update('\n').update(body).digest('hex');
}

export type ChainVerdict =
  | { readonly intact: true; readonly entries: number; readonly head: string }
  | {
      readonly intact: false;
      readonly entries: number;
      readonly broken_at_seq: number;
      readonly reason: string;
    };

/** Why `entry` does not continue a chain whose last entry had `prevHash` and `prevSeq`, or null. */
export function linkFault(prevHash: string, prevSeq: number, entry: ChainedEntry): string | null {
  if (entry.seq !== prevSeq + 1) return `expected entry ${prevSeq + 1}, found ${entry.seq}`;
  if (entry.prev_hash !== prevHash) return 'does not link to the entry before it';
  if (chainHash(prevHash, entry) !== entry.hash) return 'content does not match its hash';
  return null;
}

/** Checks one office's entries, given in `seq` order from the first. */
export function verifyChain(entries: readonly ChainedEntry[]): ChainVerdict {
  let prev = GENESIS_HASH;
  let seq = 0;
  for (const entry of entries) {
    const fault = linkFault(prev, seq, entry);
    if (fault) return { intact: false, entries: entries.length, broken_at_seq: entry.seq, reason: fault };
    prev = entry.hash;
    seq = entry.seq;
  }
  return { intact: true, entries: entries.length, head: prev };
}
