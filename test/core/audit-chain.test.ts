import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  chainHash,
  GENESIS_HASH,
  verifyChain,
  type AuditContent,
  type ChainedEntry,
} from '../../src/core/audit-chain.js';

function chain(count: number): ChainedEntry[] {
  const entries: ChainedEntry[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= count; seq++) {
    const content: AuditContent = {
      office_id: 'harborview',
      seq,
      at: `2026-09-14T15:0${seq}:00.000Z`,
      actor_kind: 'caller',
      actor_id: 'user:dana',
      actor_name: null,
      action: 'hold.placed',
      target_type: 'appointment',
      target_id: `APT-00000${seq}`,
      details: { n: seq, nested: { b: 1, a: [1, 'x', null] } },
    };
    const hash = chainHash(prev, content);
    entries.push({ ...content, prev_hash: prev, hash });
    prev = hash;
  }
  return entries;
}

describe('audit hash chain', () => {
  it('serialises objects with sorted keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [true, null], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[true,null]},"b":1}',
    );
  });

  it('hashes equal content equally, whatever the key order', () => {
    const [entry] = chain(1);
    const reordered = { ...entry!, details: { nested: { a: [1, 'x', null], b: 1 }, n: 1 } };
    expect(chainHash(GENESIS_HASH, reordered)).toBe(entry!.hash);
  });

  it('verifies an untouched chain', () => {
    expect(verifyChain(chain(5))).toMatchObject({ intact: true, entries: 5 });
    expect(verifyChain([])).toEqual({ intact: true, entries: 0, head: GENESIS_HASH });
  });

  it('detects edited content', () => {
    const entries = chain(5);
    entries[2] = { ...entries[2]!, actor_id: 'user:mallory' };
    expect(verifyChain(entries)).toMatchObject({
      intact: false,
      broken_at_seq: 3,
      reason: 'content does not match its hash',
    });
  });

  it('detects a deleted entry', () => {
    const entries = chain(5);
    entries.splice(1, 1);
    expect(verifyChain(entries)).toMatchObject({ intact: false, broken_at_seq: 3 });
  });

  it('detects an entry re-hashed to hide an edit, at the entry after it', () => {
    const entries = chain(4);
    const edited = { ...entries[1]!, action: 'hold.cancelled' };
    entries[1] = { ...edited, hash: chainHash(edited.prev_hash, edited) };
    expect(verifyChain(entries)).toMatchObject({
      intact: false,
      broken_at_seq: 3,
      reason: 'does not link to the entry before it',
    });
  });
});
