import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { findSensitiveIn, findSensitiveNumbers } from '../../src/core/sensitive.js';

const VISA = '4111111111111111';
const AMEX = '378282246310005';
const SSN = '123-45-6789';

/** Luhn check digit for a payload, computed independently of the code under test. */
function luhnCheckDigit(payload: readonly number[]): number {
  const sum = [...payload].reverse().reduce((total, digit, index) => {
    const weighted = index % 2 === 0 ? digit * 2 : digit;
    return total + (weighted > 9 ? weighted - 9 : weighted);
  }, 0);
  return (10 - (sum % 10)) % 10;
}

const digit = fc.integer({ min: 0, max: 9 });
const nonZeroDigit = fc.integer({ min: 1, max: 9 });
const digits = (length: number) =>
  fc.array(digit, { minLength: length, maxLength: length }).map((ds) => ds.join(''));

const luhnValidCard = fc
  .integer({ min: 13, max: 19 })
  .chain((length) => fc.array(digit, { minLength: length - 1, maxLength: length - 1 }))
  .map((payload) => payload.join('') + String(luhnCheckDigit(payload)));

/** Splits digits into random groups joined by random single separators (or none). */
const grouped = (
  number: string,
  separators: readonly string[] = ['', ' ', '-', '.'],
): fc.Arbitrary<string> =>
  number.length < 2
    ? fc.constant(number)
    : fc
        .array(fc.constantFrom(...separators), { minLength: number.length - 1, maxLength: number.length - 1 })
        .map((between) => [...number].map((d, i) => d + (between[i] ?? '')).join(''));

const word = fc.stringMatching(/^[A-Za-z]{1,8}$/);
const words = fc.array(word, { maxLength: 4 }).map((ws) => ws.join(' '));

const embedded = (inner: fc.Arbitrary<string>) =>
  fc
    .tuple(words, inner, words, fc.constantFrom('', '.', ',', '?'))
    .map(([before, number, after, end]) => [before, number + end, after].filter(Boolean).join(' '));

describe('findSensitiveNumbers', () => {
  describe('payment cards', () => {
    it('detects every Luhn-valid 13–19 digit card in any grouping, embedded in words', () => {
      fc.assert(
        fc.property(embedded(luhnValidCard.chain((card) => grouped(card))), (text) => {
          expect(findSensitiveNumbers(text)).toContain('payment_card');
        }),
        { numRuns: 500 },
      );
    });

    it('detects a card inside a longer run of grouped digits', () => {
      const neighbours = fc.array(fc.integer({ min: 1, max: 6 }).chain(digits), {
        minLength: 1,
        maxLength: 3,
      });
      fc.assert(
        fc.property(
          neighbours,
          luhnValidCard.chain((card) => grouped(card)),
          neighbours,
          fc.constantFrom(' ', '-', '.'),
          (before, card, after, separator) => {
            const text = `ref ${[...before, card, ...after].join(separator)} thanks`;
            expect(findSensitiveNumbers(text)).toContain('payment_card');
          },
        ),
      );
    });

    it('detects a card glued to neighbouring digits, whatever the grouping on either side', () => {
      const neighbour = fc
        .integer({ min: 0, max: 8 })
        .chain((length) => digits(length).chain((d) => grouped(d)));
      fc.assert(
        fc.property(
          neighbour,
          luhnValidCard.chain((card) => grouped(card)),
          neighbour,
          (before, card, after) => {
            expect(findSensitiveNumbers(`id ${before}${card}${after}`)).toContain('payment_card');
          },
        ),
      );
    });

    it.each([
      ['spaced in fours', '4111 1111 1111 1111'],
      ['dashed unevenly', '4111-111111-11111-11'],
      ['a dot between every digit', [...VISA].join('.')],
      ['an Amex number', AMEX],
      ['a card ending a sentence', `my card is ${VISA}.`],
      ['a card directly after a word', `card:${VISA}`],
      ['a card after a phone number beyond 15 digits', `+15551234567 ${VISA}`],
      ['a +-prefixed run too long for E.164', `+${VISA}`],
    ])('detects %s', (_label, text) => {
      expect(findSensitiveNumbers(text)).toEqual(['payment_card']);
    });

    it.each([
      ['a Luhn-invalid 13-digit number', '4222 2222 2222 3'],
      ['12 digits', '4111 1111 1113'],
      ['a card split by two separators in a row', '4111  1111  1111  1111'],
      ['a card split by commas', '4111,1111,1111,1111'],
    ])('ignores %s', (_label, text) => {
      expect(findSensitiveNumbers(text)).toEqual([]);
    });

    it('flags unrelated digits in one long run when a window passes Luhn, the price of checking every window', () => {
      expect(findSensitiveNumbers('555-234-5678 555-876-5432')).toEqual(['payment_card']);
    });

    it('reads a leading + as an E.164 phone number, so a 13–15 digit card after + passes', () => {
      expect(findSensitiveNumbers(`+${AMEX}`)).toEqual([]);
    });
  });

  describe('social-security numbers', () => {
    const area = fc
      .integer({ min: 1, max: 899 })
      .filter((n) => n !== 666)
      .map((n) => String(n).padStart(3, '0'));
    const group = fc.integer({ min: 1, max: 99 }).map((n) => String(n).padStart(2, '0'));
    const serial = fc.integer({ min: 1, max: 9999 }).map((n) => String(n).padStart(4, '0'));
    const separator = fc.constantFrom('-', ' ', '.', '');

    it('detects valid SSNs with dash, space, dot or no separator, embedded in words', () => {
      const ssn = fc.tuple(area, group, serial, separator).map(([a, g, s, sep]) => [a, g, s].join(sep));
      fc.assert(
        fc.property(embedded(ssn), (text) => {
          expect(findSensitiveNumbers(text)).toEqual(['ssn']);
        }),
        { numRuns: 300 },
      );
    });

    it('ignores numbers in ranges never issued (area 000, 666, 900–999; group 00; serial 0000)', () => {
      const invalidArea = fc.oneof(
        fc.constantFrom('000', '666'),
        fc.integer({ min: 900, max: 999 }).map(String),
      );
      const invalid = fc.oneof(
        fc.tuple(invalidArea, group, serial),
        fc.tuple(area, fc.constant('00'), serial),
        fc.tuple(area, group, fc.constant('0000')),
      );
      fc.assert(
        fc.property(embedded(fc.tuple(invalid, separator).map(([parts, sep]) => parts.join(sep))), (text) => {
          expect(findSensitiveNumbers(text)).toEqual([]);
        }),
        { numRuns: 300 },
      );
    });

    it.each([
      ['10 contiguous digits', 'ref 1234567890'],
      ['11 contiguous digits', 'ref 12345678901'],
    ])('ignores 9 digits that are part of %s', (_label, text) => {
      expect(findSensitiveNumbers(text)).toEqual([]);
    });

    it('detects an SSN that continues a +-prefixed phone number beyond 15 digits', () => {
      expect(findSensitiveNumbers('+1 555 234 5678 123 45 6789')).toContain('ssn');
    });

    it('lists both kinds, SSN first, when both are present', () => {
      expect(findSensitiveNumbers(`ssn ${SSN} card ${VISA}`)).toEqual(['ssn', 'payment_card']);
      expect(findSensitiveNumbers(`card ${VISA} ssn ${SSN}`)).toEqual(['ssn', 'payment_card']);
    });
  });

  describe('not sensitive', () => {
    const leading = fc.integer({ min: 2, max: 9 }).map(String);
    const usPhone = fc
      .tuple(
        fc.tuple(leading, digits(2)).map(([a, b]) => a + b),
        fc.tuple(leading, digits(2)).map(([a, b]) => a + b),
        digits(4),
      )
      .chain(([area, exchange, line]) =>
        fc.constantFrom(
          `(${area}) ${exchange}-${line}`,
          `${area}-${exchange}-${line}`,
          `${area}.${exchange}.${line}`,
          `${area}${exchange}${line}`,
          `1-${area}-${exchange}-${line}`,
          `+1 ${area} ${exchange} ${line}`,
        ),
      );

    it('never flags US phone numbers in their usual forms', () => {
      fc.assert(
        fc.property(embedded(usPhone), (text) => {
          expect(findSensitiveNumbers(text)).toEqual([]);
        }),
        { numRuns: 500 },
      );
    });

    it('never flags E.164 numbers with a leading +, in any grouping', () => {
      const e164 = fc
        .tuple(nonZeroDigit, fc.integer({ min: 7, max: 14 }).chain(digits))
        .chain(([first, rest]) => grouped(`${first}${rest}`, ['', '', ' ', '-', '.']))
        .map((number) => `+${number}`);
      fc.assert(
        fc.property(embedded(e164), (text) => {
          expect(findSensitiveNumbers(text)).toEqual([]);
        }),
        { numRuns: 500 },
      );
    });

    it('never flags dates, times and dollar amounts', () => {
      const day = fc.date({ min: new Date('1900-01-01'), max: new Date('2199-12-31'), noInvalidDate: true });
      const spoken = fc.oneof(
        day.map((d) => d.toISOString().slice(0, 10)),
        day.map((d) => `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()}`),
        day.map((d) => d.toISOString().slice(0, 16)),
        day.map((d) => `${d.getUTCHours()}:${String(d.getUTCMinutes()).padStart(2, '0')}`),
        fc.integer({ min: 0, max: 999_999_999 }).map((n) => `$${n.toLocaleString('en-US')}.00`),
      );
      fc.assert(
        fc.property(fc.array(spoken, { minLength: 1, maxLength: 4 }), (parts) => {
          expect(findSensitiveNumbers(`on ${parts.join(' and ')}`)).toEqual([]);
        }),
      );
    });

    it.each([
      ['a dollar amount', 'coverage of $500,000 please'],
      ['a zip code', 'I live in 90210'],
      ['a zip+4 code', 'zip 90210-1234'],
      ['a year', 'since 1998'],
      ['an appointment id', 'APT-7F3K2Q'],
      ['a date and time', 'on 2026-09-16 at 10:30'],
      ['a phone with its area code in parentheses', 'call (555) 123-4567 after 5'],
      ['two phone numbers separated by a comma', '555-234-5678, 555-876-5432'],
      ['plain text', 'I would like to talk about my policy'],
      ['empty text', ''],
    ])('does not flag %s', (_label, text) => {
      expect(findSensitiveNumbers(text)).toEqual([]);
    });
  });
});

describe('findSensitiveIn', () => {
  const cleanLeaf = fc.oneof(
    fc.stringMatching(/^[a-z ]{0,12}$/),
    fc.integer({ min: -1_000_000, max: 1_000_000 }),
    fc.boolean(),
    fc.constant(null),
  );
  const key = fc.stringMatching(/^[a-z]{2,6}$/);
  const cleanJson = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      cleanLeaf,
      fc.array(tie('node'), { maxLength: 4 }),
      fc.dictionary(key, tie('node'), { maxKeys: 4 }),
    ),
  })).node;

  it('returns undefined for clean nested data', () => {
    fc.assert(
      fc.property(cleanJson, (value) => {
        expect(findSensitiveIn(value)).toBeUndefined();
      }),
    );
  });

  it('finds a card placed anywhere in nested data and names the place without the digits', () => {
    const step = fc.oneof(fc.nat(3), key);
    fc.assert(
      fc.property(fc.array(step, { maxLength: 6 }), cleanLeaf, (steps, filler) => {
        const value = steps.reduceRight<unknown>(
          (inner, s) =>
            typeof s === 'number' ? [...Array<unknown>(s).fill(filler), inner] : { _: filler, [s]: inner },
          `card ${VISA}`,
        );
        const path = steps.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('');
        expect(findSensitiveIn(value, 'details')).toEqual({ kind: 'payment_card', path: `details${path}` });
      }),
    );
  });

  it('finds a number hidden in a nested key, naming the key by a placeholder', () => {
    const found = findSensitiveIn({ details: { items: [{ [`ssn ${SSN}`]: 'yes' }] } });
    expect(found).toEqual({ kind: 'ssn', path: 'details.items[0].<key>' });
  });

  it('finds a card in a nested array value', () => {
    expect(findSensitiveIn({ details: { items: ['a', 'b', `pay with ${VISA}`] } })).toEqual({
      kind: 'payment_card',
      path: 'details.items[2]',
    });
  });

  it('finds a card sent as a JSON number or a bigint', () => {
    expect(findSensitiveIn({ amount: Number(VISA) })).toEqual({ kind: 'payment_card', path: 'amount' });
    expect(findSensitiveIn([BigInt(VISA)])).toEqual({ kind: 'payment_card', path: '[0]' });
  });

  it('quotes keys that are not identifiers, keeping their clean digits apart from other segments', () => {
    const found = findSensitiveIn({ 'policy 4111': { '1111 1111': { 1111: `x ${VISA}` } } }, 'details');
    expect(found).toEqual({ kind: 'payment_card', path: 'details["policy 4111"]["1111 1111"]["1111"]' });
    expect(findSensitiveNumbers(found?.path ?? '')).toEqual([]);
  });

  it('reports the value itself with an empty path, or the root when given', () => {
    expect(findSensitiveIn(SSN)).toEqual({ kind: 'ssn', path: '' });
    expect(findSensitiveIn(SSN, 'summary')).toEqual({ kind: 'ssn', path: 'summary' });
  });

  it('reports the first value in document order', () => {
    expect(findSensitiveIn({ a: 'clean', b: [SSN], c: VISA })).toEqual({ kind: 'ssn', path: 'b[0]' });
  });

  it('walks objects without a prototype and ignores values that are not JSON-like', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { note: VISA });
    expect(findSensitiveIn({ bare })).toEqual({ kind: 'payment_card', path: 'bare.note' });
    expect(findSensitiveIn({ when: new Date(0), map: new Map([[VISA, VISA]]), flag: true, none: null })).toBe(
      undefined,
    );
  });

  it('ends on cycles, still finding what lies past them', () => {
    const looped: Record<string, unknown> = { name: 'Ann' };
    looped.self = looped;
    looped.list = [looped, { again: looped }];
    expect(findSensitiveIn(looped)).toBeUndefined();
    looped.note = VISA;
    expect(findSensitiveIn(looped)).toEqual({ kind: 'payment_card', path: 'note' });
  });

  it('walks very wide arrays', () => {
    const wide: unknown[] = Array.from({ length: 300_000 }, () => 'clean');
    wide.push(VISA);
    expect(findSensitiveIn(wide)).toEqual({ kind: 'payment_card', path: '[300000]' });
  });

  it('finds a number under absurdly deep nesting without overflowing the stack', () => {
    let deep: unknown = SSN;
    for (let level = 0; level < 100_000; level++) deep = [deep];
    const found = findSensitiveIn(deep);
    expect(found?.kind).toBe('ssn');
    expect(found?.path).toBe('[0]'.repeat(100_000));
  });
});
