import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../src/sim/chat.js';
import {
  claimsAnAction,
  claimsConfirmation,
  coerceArguments,
  keepsHoldNotice,
  keepsQuoteDisclaimer,
  unsaidCallerDetails,
} from '../../src/sim/guards.js';

const QUOTE_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    state: { type: 'string' },
    dwelling_coverage: { type: 'number' },
    year_built: { type: 'integer' },
    roof_age_years: { type: 'number' },
    construction_type: { type: 'string' },
  },
  required: ['state', 'dwelling_coverage', 'year_built'],
};

describe('guard: arguments coerced to the tool schema', () => {
  it('turns "$500,000" into 500000 and drops keys the schema does not name', () => {
    const coerced = coerceArguments(
      { state: ' IL ', dwelling_coverage: '$500,000', year_built: '1995', zip: '60514' },
      QUOTE_SCHEMA,
    );
    expect(coerced.value).toEqual({ state: 'IL', dwelling_coverage: 500000, year_built: 1995 });
    expect(coerced.changes).toEqual([
      'state: " IL " -> "IL"',
      'dwelling_coverage: "$500,000" -> 500000',
      'year_built: "1995" -> 1995',
      'zip: dropped (not in the schema)',
    ]);
  });

  it('reads amounts with units, rounds integers, and leaves what it cannot read for the server to refuse', () => {
    expect(
      coerceArguments(
        { dwelling_coverage: '350k', year_built: 1995.4, roof_age_years: 'twelve' },
        QUOTE_SCHEMA,
      ).value,
    ).toEqual({
      dwelling_coverage: 350000,
      year_built: 1995,
      roof_age_years: 'twelve',
    });
    expect(
      coerceArguments({ dwelling_coverage: '1.2 million dollars' }, QUOTE_SCHEMA).value.dwelling_coverage,
    ).toBe(1200000);
    expect(coerceArguments({ dwelling_coverage: '$400,000 USD' }, QUOTE_SCHEMA).value.dwelling_coverage).toBe(
      400000,
    );
    expect(
      coerceArguments({ dwelling_coverage: '300000 or 400000' }, QUOTE_SCHEMA).value.dwelling_coverage,
    ).toBe('300000 or 400000');
  });

  it('matches enum values loosely, writes numbers as strings where strings are wanted, and drops empty optionals', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        service: { type: 'string', enum: ['consultation', 'policy_review'] },
        staff_id: { type: 'string' },
        notes: { type: 'string' },
        urgent: { type: 'boolean' },
        details: { type: 'object' },
      },
      required: ['service'],
    };
    const coerced = coerceArguments(
      { service: 'Policy Review', staff_id: '', notes: 42, urgent: 'TRUE', details: { a: 1 } },
      schema,
    );
    expect(coerced.value).toEqual({ service: 'policy_review', notes: '42', urgent: true, details: { a: 1 } });
    expect(coerced.changes).toContain('staff_id: dropped (empty)');
    expect(coerceArguments({ service: 'massage' }, schema).value).toEqual({ service: 'massage' });
    expect(coerceArguments({ service: 'consultation' }, { type: 'object' }).value).toEqual({});
  });
});

describe('guard: no invented caller details', () => {
  const said = ['Book me Wednesday at 10', "I'm Dana Reyes, my number is (630) 555-0142"];

  it('accepts a name and contact the caller said, however the model formats them', () => {
    const args = { client_name: 'dana reyes', contact: '+1 630-555-0142' };
    expect(unsaidCallerDetails('book_appointment', args, said)).toEqual([]);
    expect(unsaidCallerDetails('get_appointment_status', { contact: '0142' }, said)).toEqual([]);
    expect(
      unsaidCallerDetails('cancel_appointment', { contact: 'dana@example.com' }, ['it is dana@example.com']),
    ).toEqual([]);
  });

  it('names each detail the caller never said', () => {
    expect(
      unsaidCallerDetails('book_appointment', { client_name: 'User', contact: '123-456-7890' }, said),
    ).toEqual(['client_name', 'contact']);
    expect(
      unsaidCallerDetails('book_appointment', { client_name: 'Dana Reyes', contact: '630-555-0199' }, said),
    ).toEqual(['contact']);
    expect(
      unsaidCallerDetails('book_appointment', { client_name: 'Dana Smith', contact: '6305550142' }, said),
    ).toEqual(['client_name']);
    expect(unsaidCallerDetails('book_appointment', { client_name: '', contact: 42 }, said)).toEqual([
      'client_name',
      'contact',
    ]);
    expect(unsaidCallerDetails('cancel_appointment', { contact: 'other@example.com' }, said)).toEqual([
      'contact',
    ]);
    expect(unsaidCallerDetails('get_appointment_status', { contact: '555' }, said)).toEqual(['contact']);
    expect(unsaidCallerDetails('get_appointment_status', { contact: 'call 0142' }, said)).toEqual([
      'contact',
    ]);
  });

  it('does not check tools that carry no caller details', () => {
    expect(unsaidCallerDetails('check_availability', { date: '2026-09-16' }, [])).toEqual([]);
  });
});

describe('guard: claims a reply may not make', () => {
  it('spots a claimed booking or cancellation', () => {
    for (const reply of [
      "I've booked you for Wednesday at 10.",
      'You are all set for Wednesday!',
      "It's confirmed.",
      'I have scheduled your consultation.',
      'Your appointment has been cancelled.',
      'Your booking is confirmed for 10 AM.',
    ]) {
      expect(claimsAnAction(reply), reply).toBe(true);
    }
    for (const reply of [
      'Which time works for you?',
      'I can book that once I have your name.',
      'Would you like me to hold it?',
    ]) {
      expect(claimsAnAction(reply), reply).toBe(false);
    }
  });

  it('spots a confirmation but not a denial of one', () => {
    expect(claimsConfirmation('Great news, your consultation is confirmed.')).toBe(true);
    expect(claimsConfirmation('It was confirmed by staff.')).toBe(true);
    for (const reply of [
      'It is not confirmed yet.',
      'Your hold is not yet confirmed: a staff member will confirm it.',
      "It isn't confirmed until a staff member has confirmed it.",
      'The slot is unconfirmed.',
    ]) {
      expect(claimsConfirmation(reply), reply).toBe(false);
    }
  });

  it('requires the pending notice and reference after a hold, and the disclaimer after a range', () => {
    expect(keepsHoldNotice('Held. It is not a booking yet. Reference APT-ABC123.', 'APT-ABC123')).toBe(true);
    expect(keepsHoldNotice('Done! Reference APT-ABC123.', 'APT-ABC123')).toBe(false);
    expect(keepsHoldNotice('It is pending staff approval.', 'APT-ABC123')).toBe(false);
    expect(keepsQuoteDisclaimer('About $1,000 a year. This is not a quote.')).toBe(true);
    expect(keepsQuoteDisclaimer('A non-binding range of $900 to $1,100.')).toBe(true);
    expect(keepsQuoteDisclaimer('About $1,000 a year.')).toBe(false);
  });
});
