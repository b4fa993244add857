import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { Contact } from '../../src/core/contact.js';
import { contactMatches, describeContact, parseContact } from '../../src/core/contact.js';

const PHONE: Contact = { kind: 'phone', value: '+14155552671' };
const EMAIL: Contact = { kind: 'email', value: 'jane.doe@example.com' };

function parsed(raw: string): Contact {
  const result = parseContact(raw);
  if (!result.ok) throw new Error(`expected ${raw} to parse`);
  return result.value;
}

describe('contact', () => {
  describe('parseContact', () => {
    it.each([
      '4155552671',
      '415-555-2671',
      '415.555.2671',
      '415 555 2671',
      '(415) 555-2671',
      '(415)555-2671',
      '1-415-555-2671',
      '1 (415) 555-2671',
      '14155552671',
      '+1 415 555 2671',
      '+1 (415) 555-2671',
      '+14155552671',
      '  415-555-2671  ',
    ])('reads the US phone form %j as +14155552671', (raw) => {
      expect(parseContact(raw)).toEqual({ ok: true, value: PHONE });
    });

    it('reads every US form of any valid number as the same E.164 value', () => {
      const leading = fc.integer({ min: 2, max: 9 });
      const rest = (length: number) =>
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length });
      const part = (length: number) =>
        fc.tuple(leading, rest(length - 1)).map(([d, ds]) => [d, ...ds].join(''));
      fc.assert(
        fc.property(part(3), part(3), rest(4), (area, exchange, lineDigits) => {
          const line = lineDigits.join('');
          const forms = [
            `${area}${exchange}${line}`,
            `(${area}) ${exchange}-${line}`,
            `${area}.${exchange}.${line}`,
            `1-${area}-${exchange}-${line}`,
            `+1 ${area} ${exchange} ${line}`,
          ];
          for (const form of forms)
            expect(parsed(form)).toEqual({ kind: 'phone', value: `+1${area}${exchange}${line}` });
        }),
      );
    });

    it.each([
      ['+44 20 7946 0958', '+442079460958'],
      ['+49-30-1234-5678', '+493012345678'],
      ['+33.1.23.45.67.89', '+33123456789'],
      ['+86 12345678', '+8612345678'],
      ['+862 123 456 789 012', '+862123456789012'],
    ])('reads the international number %j as %s', (raw, e164) => {
      expect(parseContact(raw)).toEqual({ ok: true, value: { kind: 'phone', value: e164 } });
    });

    it('reads an e-mail address trimmed and lowercased', () => {
      expect(parseContact('  Jane.Doe@Example.COM ')).toEqual({ ok: true, value: EMAIL });
    });

    describe('refusals', () => {
      it.each([
        ['empty text', ''],
        ['only spaces', '   '],
        ['too few digits', '555-2671'],
        ['too many digits for a US number', '415-555-26711'],
        ['letters', '415-555-CALL'],
        ['an area code starting with 0', '015-555-2671'],
        ['an area code starting with 1', '115-555-2671'],
        ['an exchange starting with 0', '415-055-2671'],
        ['an exchange starting with 1', '415-155-2671'],
        ['11 digits not starting with 1', '24155552671'],
        ['+1 with a bad area code', '+1 115 555 2671'],
        ['+1 with too few digits', '+1 415 555 267'],
        ['an international number under 8 digits', '+44 207 94'],
        ['an international number over 15 digits', '+44 2079 4609 5812 34'],
        ['an international number starting with 0', '+0 2079 4609 58'],
        ['a plus sign in the middle', '415+555-2671'],
        ['a social-security number', '123-45-6789'],
        ['a payment card', '4111 1111 1111 1111'],
        ['an e-mail without a local part', '@example.com'],
        ['an e-mail without a dot in the domain', 'jane@example'],
        ['an e-mail with two @', 'jane@doe@example.com'],
        ['an e-mail with a space', 'jane doe@example.com'],
        ['an e-mail over 254 characters', `${'j'.repeat(243)}@example.com`],
      ])('refuses %s', (_label, raw) => {
        const result = parseContact(raw);
        expect(result.ok).toBe(false);
        if (result.ok) return;
        expect(result.error.code).toBe('invalid_contact');
        expect(result.error.message).toMatch(/^[^.?!]+[.?!]$/);
      });

      it('never repeats what the caller said', () => {
        const result = parseContact('my ssn is 123-45-6789');
        expect(JSON.stringify(result)).not.toContain('6789');
      });

      it('accepts an e-mail of exactly 254 characters', () => {
        expect(parseContact(`${'j'.repeat(242)}@example.com`).ok).toBe(true);
      });
    });
  });

  describe('contactMatches', () => {
    const full = { allowLastFour: false };
    const lastFour = { allowLastFour: true };

    it('matches the same phone number given in another form', () => {
      expect(contactMatches(PHONE, '(415) 555-2671', full)).toBe(true);
      expect(contactMatches(PHONE, '+1 415 555 2671', lastFour)).toBe(true);
    });

    it('does not match a different phone number', () => {
      expect(contactMatches(PHONE, '415-555-2672', full)).toBe(false);
    });

    it('matches an e-mail address regardless of case and surrounding spaces', () => {
      expect(contactMatches(EMAIL, ' JANE.DOE@example.com ', full)).toBe(true);
    });

    it('does not match a different e-mail address', () => {
      expect(contactMatches(EMAIL, 'jane.doe@example.org', full)).toBe(false);
    });

    it('does not match a phone against an e-mail address or the reverse', () => {
      expect(contactMatches(PHONE, 'jane.doe@example.com', full)).toBe(false);
      expect(contactMatches(EMAIL, '(415) 555-2671', full)).toBe(false);
    });

    it('does not match what does not parse as a contact', () => {
      expect(contactMatches(PHONE, 'not a number', full)).toBe(false);
      expect(contactMatches(PHONE, '', lastFour)).toBe(false);
    });

    describe('last four digits', () => {
      it('match the end of a stored phone number when allowed, with spaces around', () => {
        expect(contactMatches(PHONE, '2671', lastFour)).toBe(true);
        expect(contactMatches(PHONE, '  2671 ', lastFour)).toBe(true);
      });

      it('do not match other last four digits', () => {
        expect(contactMatches(PHONE, '2672', lastFour)).toBe(false);
      });

      it('do not match when the action needs the full contact', () => {
        expect(contactMatches(PHONE, '2671', full)).toBe(false);
      });

      it('never match an e-mail address', () => {
        const digitsEmail: Contact = { kind: 'email', value: 'jane2671@example.com' };
        expect(contactMatches(digitsEmail, '2671', lastFour)).toBe(false);
        expect(contactMatches(EMAIL, '2671', lastFour)).toBe(false);
      });

      it('must be exactly four digits', () => {
        expect(contactMatches(PHONE, '671', lastFour)).toBe(false);
        expect(contactMatches(PHONE, '52671', lastFour)).toBe(false);
        expect(contactMatches(PHONE, '26 71', lastFour)).toBe(false);
      });
    });
  });

  describe('describeContact', () => {
    it('names only the last four digits of a phone number', () => {
      expect(describeContact(PHONE)).toBe('phone ending in 2671');
    });

    it('shows the first letter and the domain of an e-mail address', () => {
      expect(describeContact(EMAIL)).toBe('j•••@example.com');
    });

    it('does not reveal the length of a short local part', () => {
      expect(describeContact({ kind: 'email', value: 'j@example.com' })).toBe('j•••@example.com');
    });

    it('never contains the full contact', () => {
      expect(describeContact(PHONE)).not.toContain('5552671');
      expect(describeContact(EMAIL)).not.toContain('jane.doe');
    });
  });
});
