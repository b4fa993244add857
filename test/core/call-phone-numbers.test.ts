import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkDialable,
  EMERGENCY_CODES,
  isEmergencyNumber,
  parseE164,
  premiumPrefixOf,
} from '../../src/core/calls/phone-numbers.js';

const codeOf = (input: string) => {
  const result = checkDialable(input);
  return result.ok ? result.value : result.error.code;
};

describe('phone numbers › emergency numbers', () => {
  it.each([
    '911',
    '9 1 1',
    '9-1-1',
    '(911)',
    '1-911',
    '1 911',
    '+1911',
    '+1 911',
    '+1-911',
    '0-112',
    '112',
    '+44 112',
    '+44 999',
    '+44 0 999',
    '999',
    '000',
    '+61 000',
    '0061 000',
    '110',
    '+49 110',
    '0049 110',
    '119',
    '+81 119',
    '118',
    '122',
    '15',
    '17',
    '18',
    '+33 15',
    '+33 17',
    '+33 18',
    '08',
    '011 1 911',
    '*911',
    '911#',
    '988',
    '933',
    '+64 111',
    '+55 190',
  ])('refuses %s', (input) => {
    expect(codeOf(input)).toBe('emergency_number');
  });

  it.each([
    '+1 911 555 0100',
    '+19115550100',
    '1 911 555 0100',
    '911 555 0100',
    '+1 312 911 0100',
    '+1 (312) 911-0100',
  ])('refuses the NANP number %s, whose area code or exchange is 911', (input) => {
    expect(isEmergencyNumber(input)).toBe(true);
    expect(codeOf(input)).toBe('emergency_number');
  });

  it('refuses every emergency code in any grouping, with or without country codes', () => {
    const codes = [...EMERGENCY_CODES];
    fc.assert(
      fc.property(
        fc.constantFrom(...codes),
        fc.constantFrom('', '+1', '+44', '+61', '1-', '0', '00 49 ', '+353 '),
        fc.constantFrom(' ', '-', '.', ''),
        (code, prefix, separator) => {
          const spaced = code.split('').join(separator);
          expect(codeOf(`${prefix}${spaced}`)).toBe('emergency_number');
        },
      ),
    );
  });

  it('does not mistake ordinary numbers for emergency numbers', () => {
    for (const input of [
      '+13125550100',
      '+44 20 7946 0958',
      '+61 2 9374 4000',
      '+49 30 901820',
      '+1 800 555 0199',
      '',
      'abc',
    ]) {
      expect(isEmergencyNumber(input)).toBe(false);
    }
    // Reading: the UK number 0118 (Reading) starts with an Italian emergency code but is a full number.
    expect(checkDialable('+44 118 496 0000')).toEqual({ ok: true, value: '+441184960000' });
  });
});

describe('phone numbers › E.164', () => {
  it.each([
    ['+1 (312) 555-0134', '+13125550134'],
    ['+44 20 7946 0958', '+442079460958'],
    ['  +61.2.9374.4000 ', '+61293744000'],
    ['+6831234', '+6831234'],
  ])('accepts %s as %s', (input, e164) => {
    expect(parseE164(input)).toEqual({ ok: true, value: e164 });
    expect(checkDialable(input)).toEqual({ ok: true, value: e164 });
  });

  it.each([
    '3125550134',
    '00 1 312 555 0134',
    '+0 312 555 0134',
    '+1 312 555 013',
    '+1 312 555 01345',
    '+1 112 555 0134',
    '+1 312 111 0134',
    '+1 312 055 0134',
    '+1 212 411 0134',
    '+00123456789',
    '+1234567890123456',
    '+44 20 7946 0958 x12',
    '+44 (20) 7946--0958a',
    'call mom',
  ])('refuses %s', (input) => {
    const result = parseE164(input);
    expect(result.ok).toBe(false);
    expect(codeOf(input)).toBe('invalid_number');
  });
});

describe('phone numbers › short codes and premium rates', () => {
  it.each(['411', '611', '211', '+1 411', '12345', '54321'])('refuses the short code %s', (input) => {
    expect(codeOf(input)).toBe('short_code');
  });

  it.each([
    ['+1 900 555 0134', '+1900'],
    ['+1 976 555 0134', '+1976'],
    ['+1 312 976 1234', '+1 NPA 976'],
    ['+44 909 879 0000', '+449'],
    ['+44 871 234 5678', '+44871'],
    ['+44 70 1234 5678', '+4470'],
    ['+61 1902 123 456', '+61190'],
    ['+49 900 1234567', '+49900'],
    ['+33 8 99 12 34 56', '+3389'],
    ['+39 899 123456', '+3989'],
    ['+34 806 123 456', '+34806'],
    ['+31 900 1234567', '+31900'],
    ['+881 6 1234 5678', '+881'],
    ['+979 1234 5678', '+979'],
  ])('refuses the premium-rate number %s (%s)', (input, prefix) => {
    const result = checkDialable(input);
    expect(result).toMatchObject({ ok: false, error: { code: 'premium_rate_number', prefix } });
  });

  it('finds no premium prefix on ordinary numbers', () => {
    expect(premiumPrefixOf('+13125550134')).toBeUndefined();
    expect(premiumPrefixOf('+442079460958')).toBeUndefined();
  });
});
