import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  normaliseReferenceId,
  REFERENCE_ID_PATTERN,
  REFERENCE_PREFIXES,
  referenceIdFrom,
} from '../../src/core/reference-ids.js';

describe('reference ids', () => {
  it('are short, unambiguous when read aloud, and derived only from the bytes given', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...REFERENCE_PREFIXES),
        fc.uint8Array({ minLength: 6, maxLength: 16 }),
        (prefix, bytes) => {
          const id = referenceIdFrom(prefix, bytes);
          expect(id).toMatch(REFERENCE_ID_PATTERN);
          expect(id.startsWith(`${prefix}-`)).toBe(true);
          expect(referenceIdFrom(prefix, bytes)).toBe(id);
        },
      ),
    );
  });

  it('needs at least six random bytes', () => {
    expect(() => referenceIdFrom('APT', new Uint8Array(5))).toThrow(RangeError);
  });

  it('reads back what a caller says in other spellings', () => {
    expect(normaliseReferenceId('apt 7f3k2q')).toBe('APT-7F3K2Q');
    expect(normaliseReferenceId(' APT–7F3K2Q ')).toBe('APT-7F3K2Q');
    expect(normaliseReferenceId('esc-22abcd')).toBe('ESC-22ABCD');
  });

  it('leaves what is not a reference id recognisably unchanged', () => {
    expect(normaliseReferenceId(' hello ')).toBe('HELLO');
  });
});
