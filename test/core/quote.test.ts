import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { QuoteInput, QuoteRange, RateTable } from '../../src/core/quote.js';
import { EARLIEST_YEAR_BUILT, estimateQuote, RateTableSchema } from '../../src/core/quote.js';

const CURRENT_YEAR = 2026;

const table: RateTable = RateTableSchema.parse(
  JSON.parse(readFileSync(new URL('../../data/rate_table.json', import.meta.url), 'utf8')),
);

const baseInput: QuoteInput = { state: 'IL', dwelling_coverage: 300_000, year_built: 1995 };

function quote(overrides: Partial<QuoteInput> = {}): QuoteRange {
  const result = estimateQuote(table, { ...baseInput, ...overrides }, CURRENT_YEAR);
  if (!result.ok) throw new Error(`expected an estimate, got ${result.error.code}`);
  return result.value;
}

function refusalOf(overrides: Partial<QuoteInput>) {
  const result = estimateQuote(table, { ...baseInput, ...overrides }, CURRENT_YEAR);
  if (result.ok) throw new Error('expected a refusal, got an estimate');
  return result.error;
}

/** One plain spoken sentence: no line breaks, one final full stop, no markup. */
const isOneSpokenSentence = (message: string): boolean =>
  /^[A-Z][^\n.!?]*(\.\d[^\n.!?]*)*\.$/.test(message) && !/[<>{}[\]*_#]/.test(message);

describe('quote', () => {
  describe('estimates', () => {
    it('gives a USD range for a supported home with the documented factors', () => {
      const range = quote({ construction_type: 'masonry', deductible: 2500, roof_age_years: 12 });
      expect(range).toMatchObject({
        state: 'IL',
        dwelling_coverage: 300_000,
        currency: 'USD',
        binding: false,
        disclaimer: table.disclaimer,
      });
      expect(range.factors).toEqual({
        base_rate_per_1000: 3.4,
        construction_type: 'masonry',
        construction_factor: 0.92,
        home_age_years: 31,
        home_age_factor: 1.1,
        deductible: 2500,
        deductible_factor: 0.88,
        roof_age_years: 12,
        roof_factor: 1.06,
        spread_below: 0.15,
        spread_above: 0.2,
      });
      // point = 300 * 3.4 * 0.92 * 1.1 * 0.88 * 1.06 = 963.03; low rounds down, high rounds up to $10.
      expect(range.annual_low).toBe(810);
      expect(range.annual_high).toBe(1160);
      expect(range.monthly_low).toBe(67);
      expect(range.monthly_high).toBe(97);
    });

    it('uses the default construction type and deductible when they are omitted', () => {
      const range = quote({ roof_age_years: 5 });
      expect(range.factors.construction_type).toBe(table.default_construction_type);
      expect(range.factors.deductible).toBe(table.default_deductible);
      expect(range).toEqual(quote({ roof_age_years: 5, construction_type: 'frame', deductible: 1000 }));
    });

    it('accepts state codes and construction types in any case and spoken spelling', () => {
      expect(quote({ state: ' il ' }).state).toBe('IL');
      expect(quote({ construction_type: 'Masonry Veneer' }).factors.construction_type).toBe('masonry_veneer');
      expect(quote({ construction_type: 'fire-resistive' }).factors.construction_type).toBe('fire_resistive');
    });

    it('widens the range when the roof age is unknown', () => {
      const known = quote({ roof_age_years: 12 });
      const unknown = quote();
      expect(unknown.factors.roof_age_years).toBeNull();
      expect(unknown.factors.roof_factor).toBe(known.factors.roof_factor);
      expect(unknown.annual_low).toBeLessThan(known.annual_low);
      expect(unknown.annual_high).toBeGreaterThan(known.annual_high);
    });

    it('prices older homes higher through the age bands', () => {
      expect(quote({ year_built: 2020, roof_age_years: 5 }).factors.home_age_factor).toBe(0.9);
      expect(quote({ year_built: 1900 }).factors.home_age_factor).toBe(1.35);
      expect(quote({ year_built: 1900 }).annual_high).toBeGreaterThan(
        quote({ year_built: 2010 }).annual_high,
      );
    });

    it('accepts the boundary values of every rule', () => {
      expect(quote({ dwelling_coverage: table.dwelling_coverage.min }).annual_low).toBeGreaterThan(0);
      expect(quote({ dwelling_coverage: table.dwelling_coverage.max }).annual_high).toBeGreaterThan(0);
      expect(quote({ year_built: EARLIEST_YEAR_BUILT }).factors.home_age_years).toBe(CURRENT_YEAR - 1800);
      expect(quote({ year_built: CURRENT_YEAR, roof_age_years: 0 }).factors.home_age_years).toBe(0);
      expect(quote({ roof_age_years: table.roof.review_over_age_years }).factors.roof_factor).toBe(1.14);
    });
  });

  describe('refusals', () => {
    it('refuses a state outside the supported list and names the supported ones', () => {
      const error = refusalOf({ state: 'CA' });
      expect(error.code).toBe('unsupported_state');
      expect(error.message).toBe(
        'I can only give estimates for homes in Illinois, Indiana, Iowa, Michigan and Wisconsin.',
      );
      expect(error.supported_states).toEqual(['IA', 'IL', 'IN', 'MI', 'WI']);
    });

    it('refuses a state spelled out instead of given as a code', () => {
      expect(refusalOf({ state: 'Illinois' }).code).toBe('unsupported_state');
    });

    it.each([99_999, 1_500_001, 0, -300_000, Number.NaN, Number.POSITIVE_INFINITY])(
      'refuses dwelling coverage of %d',
      (dwelling_coverage) => {
        const error = refusalOf({ dwelling_coverage });
        expect(error.code).toBe('coverage_out_of_range');
        expect(error.message).toBe(
          'Dwelling coverage must be between $100,000 and $1,500,000 for an estimate.',
        );
      },
    );

    it.each([
      ['a future year', CURRENT_YEAR + 1],
      ['a year before 1800', 1799],
      ['a fractional year', 1995.5],
      ['a non-number year', Number.NaN],
    ])('refuses %s as the year built', (_label, year_built) => {
      const error = refusalOf({ year_built });
      expect(error.code).toBe('invalid_year_built');
      expect(error.message).toBe('The year the home was built must be a whole year between 1800 and 2026.');
    });

    it('refuses a construction type the table does not know', () => {
      const error = refusalOf({ construction_type: 'straw bale' });
      expect(error.code).toBe('unknown_construction_type');
      expect(error.message).toBe(
        'The construction types I can estimate are frame, masonry veneer, masonry, superior and fire resistive.',
      );
    });

    it('does not mistake an inherited object property for a construction type', () => {
      expect(refusalOf({ construction_type: 'constructor' }).code).toBe('unknown_construction_type');
      expect(refusalOf({ state: 'constructor' }).code).toBe('unsupported_state');
    });

    it('refuses a deductible that is not offered', () => {
      const error = refusalOf({ deductible: 750 });
      expect(error.code).toBe('unsupported_deductible');
      expect(error.message).toBe('The deductibles I can estimate with are $500, $1,000, $2,500 and $5,000.');
      expect(error.deductibles).toEqual([500, 1000, 2500, 5000]);
    });

    it.each([
      ['negative', -1],
      ['older than the house', 32],
      ['not a number', Number.NaN],
    ])('refuses a roof age that is %s', (_label, roof_age_years) => {
      const error = refusalOf({ roof_age_years });
      expect(error.code).toBe('invalid_roof_age');
      expect(error.message).toBe(
        'The roof age must be zero or more years and cannot be older than the home.',
      );
    });

    it('sends a roof older than the limit to underwriting review instead of estimating', () => {
      const error = refusalOf({ roof_age_years: table.roof.review_over_age_years + 1 });
      expect(error.code).toBe('roof_review_required');
      expect(error.message).toBe(
        'A roof older than 20 years needs an underwriting review, so a licensed agent has to quote this home.',
      );
      expect(error.review_over_age_years).toBe(20);
    });

    it('words every refusal as one sentence a voice assistant can read aloud', () => {
      const refusals = [
        refusalOf({ state: 'TX' }),
        refusalOf({ dwelling_coverage: 5 }),
        refusalOf({ year_built: 3000 }),
        refusalOf({ construction_type: 'log' }),
        refusalOf({ deductible: 1 }),
        refusalOf({ roof_age_years: -2 }),
        refusalOf({ roof_age_years: 25 }),
      ];
      expect(new Set(refusals.map((e) => e.code)).size).toBe(7);
      for (const error of refusals) expect(isOneSpokenSentence(error.message), error.message).toBe(true);
    });
  });

  describe('monotonicity', () => {
    it('charges more for more dwelling coverage', () => {
      const smaller = quote({ dwelling_coverage: 250_000 });
      const larger = quote({ dwelling_coverage: 400_000 });
      expect(larger.annual_low).toBeGreaterThan(smaller.annual_low);
      expect(larger.annual_high).toBeGreaterThan(smaller.annual_high);
    });

    it('charges less for a higher deductible', () => {
      const highs = [500, 1000, 2500, 5000].map((deductible) => quote({ deductible }).annual_high);
      expect(highs).toEqual([...highs].sort((a, b) => b - a));
      expect(new Set(highs).size).toBe(highs.length);
    });
  });

  describe('properties over valid inputs', () => {
    const states = Object.keys(table.states);
    const validInput = fc
      .record({
        state: fc.constantFrom(...states, ...states.map((s) => s.toLowerCase())),
        dwelling_coverage: fc.integer({ min: table.dwelling_coverage.min, max: table.dwelling_coverage.max }),
        year_built: fc.integer({ min: EARLIEST_YEAR_BUILT, max: CURRENT_YEAR }),
        construction_type: fc.option(fc.constantFrom(...Object.keys(table.construction_types)), {
          nil: undefined,
        }),
        deductible: fc.option(fc.constantFrom(...table.deductibles.map((d) => d.amount)), { nil: undefined }),
        roofShare: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
      })
      .map(({ roofShare, ...input }): QuoteInput => {
        const maxRoof = Math.min(table.roof.review_over_age_years, CURRENT_YEAR - input.year_built);
        return roofShare === undefined
          ? input
          : { ...input, roof_age_years: Math.floor(roofShare * maxRoof) };
      });

    it('is never binding, always carries the disclaimer, and keeps low <= high with monthly ~ annual / 12', () => {
      fc.assert(
        fc.property(validInput, (input) => {
          const result = estimateQuote(table, input, CURRENT_YEAR);
          expect(result.ok).toBe(true);
          if (!result.ok) return;
          const range = result.value;
          expect(range.binding).toBe(false);
          expect(range.disclaimer).toBe(table.disclaimer);
          expect(range.disclaimer.length).toBeGreaterThan(0);
          expect(range.annual_low).toBeGreaterThan(0);
          expect(range.annual_low).toBeLessThanOrEqual(range.annual_high);
          expect(range.monthly_low).toBeLessThanOrEqual(range.monthly_high);
          for (const value of [range.annual_low, range.annual_high, range.monthly_low, range.monthly_high]) {
            expect(Number.isInteger(value)).toBe(true);
          }
          expect(Math.abs(range.monthly_low - range.annual_low / 12)).toBeLessThan(1);
          expect(Math.abs(range.monthly_high - range.annual_high / 12)).toBeLessThan(1);
        }),
      );
    });

    it('never lowers the range when only the coverage grows', () => {
      fc.assert(
        fc.property(validInput, fc.integer({ min: 0, max: 500_000 }), (input, extra) => {
          const larger = Math.min(input.dwelling_coverage + extra, table.dwelling_coverage.max);
          const a = estimateQuote(table, input, CURRENT_YEAR);
          const b = estimateQuote(table, { ...input, dwelling_coverage: larger }, CURRENT_YEAR);
          if (!a.ok || !b.ok) throw new Error('expected two estimates');
          expect(b.value.annual_low).toBeGreaterThanOrEqual(a.value.annual_low);
          expect(b.value.annual_high).toBeGreaterThanOrEqual(a.value.annual_high);
        }),
      );
    });

    it('is deterministic for the same input', () => {
      fc.assert(
        fc.property(validInput, (input) => {
          expect(estimateQuote(table, input, CURRENT_YEAR)).toEqual(
            estimateQuote(table, input, CURRENT_YEAR),
          );
        }),
      );
    });
  });

  describe('rate table schema', () => {
    const raw = (): Record<string, unknown> => structuredClone(table);

    it('accepts the bundled table', () => {
      expect(RateTableSchema.safeParse(raw()).success).toBe(true);
    });

    it.each([
      ['a default construction type that is not listed', { default_construction_type: 'adobe' }],
      ['a default deductible that is not listed', { default_deductible: 750 }],
      [
        'a higher deductible that costs more',
        {
          deductibles: [
            { amount: 500, factor: 1 },
            { amount: 1000, factor: 1.1 },
          ],
        },
      ],
      ['age bands that do not start at zero', { home_age_bands: [{ min_age_years: 5, factor: 1 }] }],
      [
        'age bands out of order',
        {
          home_age_bands: [
            { min_age_years: 0, factor: 1 },
            { min_age_years: 30, factor: 1.1 },
            { min_age_years: 20, factor: 1.2 },
          ],
        },
      ],
      ['a spread that would make the low end free', { range_spread: { below: 0.95, above: 0.2 } }],
      ['no supported state', { states: {} }],
      ['a lowercase state code', { states: { il: { name: 'Illinois', base_rate_per_1000: 3 } } }],
      ['coverage bounds in the wrong order', { dwelling_coverage: { min: 500_000, max: 100_000 } }],
    ])('rejects %s', (_label, patch) => {
      expect(RateTableSchema.safeParse({ ...raw(), ...patch }).success).toBe(false);
    });
  });
});
