import { z } from 'zod';
import type { Refusal, Result } from './result.js';
import { refusal, success } from './result.js';
import { speakList } from './spoken.js';

/**
 * Illustrative home-insurance ranges from a synthetic rate table. The answer is always a range,
 * never a price: `binding` is the literal `false` and the disclaimer travels with every estimate,
 * because only a licensed person may quote (DESIGN.md, "the assistant holds, a human confirms").
 */

const Factor = z.number().positive();

const isStrictlyAscending = (values: readonly number[]): boolean =>
  values.every((value, i) => i === 0 || value > (values[i - 1] ?? value));

const AgeBands = z
  .array(z.object({ min_age_years: z.number().int().nonnegative(), factor: Factor }))
  .min(1)
  .refine((bands) => bands[0]?.min_age_years === 0, 'the first band must start at age 0')
  .refine((bands) => isStrictlyAscending(bands.map((b) => b.min_age_years)), 'bands must ascend by age');

export const RateTableSchema = z
  .object({
    currency: z.literal('USD'),
    disclaimer: z.string().trim().min(1),
    states: z.record(
      z.string().regex(/^[A-Z]{2}$/, 'expected a two-letter state code'),
      z.object({ name: z.string().min(1), base_rate_per_1000: Factor }),
    ),
    dwelling_coverage: z
      .object({ min: z.number().positive(), max: z.number().positive() })
      .refine((c) => c.min < c.max, 'coverage min must be below max'),
    construction_types: z.record(z.string().regex(/^[a-z]+(_[a-z]+)*$/), Factor),
    default_construction_type: z.string(),
    home_age_bands: AgeBands,
    deductibles: z.array(z.object({ amount: z.number().int().positive(), factor: Factor })).min(1),
    default_deductible: z.number().int().positive(),
    roof: z.object({
      review_over_age_years: z.number().int().positive(),
      age_bands: AgeBands,
      unknown_age_factor: Factor,
      unknown_age_extra_spread: z.number().nonnegative(),
    }),
    range_spread: z.object({ below: z.number().nonnegative(), above: z.number().nonnegative() }),
    annual_rounding_dollars: z.number().int().positive(),
  })
  .superRefine((table, ctx) => {
    if (Object.keys(table.states).length === 0)
      ctx.addIssue({ code: 'custom', message: 'no supported state' });
    if (!Object.hasOwn(table.construction_types, table.default_construction_type)) {
      ctx.addIssue({ code: 'custom', message: 'default construction type is not in construction_types' });
    }
    if (!table.deductibles.some((d) => d.amount === table.default_deductible)) {
      ctx.addIssue({ code: 'custom', message: 'default deductible is not in deductibles' });
    }
    // Callers are told a higher deductible lowers the price; the table must never contradict that.
    const amounts = table.deductibles.map((d) => d.amount);
    const negatedFactors = table.deductibles.map((d) => -d.factor);
    if (!isStrictlyAscending(amounts) || !isStrictlyAscending(negatedFactors)) {
      ctx.addIssue({ code: 'custom', message: 'deductibles must ascend by amount with descending factors' });
    }
    // The widest low end must stay a positive price.
    if (table.range_spread.below + table.roof.unknown_age_extra_spread >= 1) {
      ctx.addIssue({ code: 'custom', message: 'range spread below the estimate must stay under 100%' });
    }
  });

export type RateTable = z.infer<typeof RateTableSchema>;

export interface QuoteInput {
  state: string;
  dwelling_coverage: number;
  year_built: number;
  construction_type?: string;
  roof_age_years?: number;
  deductible?: number;
}

export interface QuoteFactors {
  base_rate_per_1000: number;
  construction_type: string;
  construction_factor: number;
  home_age_years: number;
  home_age_factor: number;
  deductible: number;
  deductible_factor: number;
  /** `null` when the caller did not know the roof's age. */
  roof_age_years: number | null;
  roof_factor: number;
  spread_below: number;
  spread_above: number;
}

export interface QuoteRange {
  state: string;
  dwelling_coverage: number;
  annual_low: number;
  annual_high: number;
  monthly_low: number;
  monthly_high: number;
  currency: 'USD';
  binding: false;
  disclaimer: string;
  factors: QuoteFactors;
}

export const QUOTE_REFUSAL_CODES = [
  'unsupported_state',
  'coverage_out_of_range',
  'invalid_year_built',
  'unknown_construction_type',
  'unsupported_deductible',
  'invalid_roof_age',
  'roof_review_required',
] as const;
export type QuoteRefusalCode = (typeof QUOTE_REFUSAL_CODES)[number];

/** Older dates are almost always a mistake in what the caller said, not a real house. */
export const EARLIEST_YEAR_BUILT = 1800;

type Step<T> = Result<T, QuoteRefusalCode>;

const dollars = (amount: number): string =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(
    amount,
  );

/** The band whose lower bound is the highest one not above `age`; the schema guarantees a band at 0. */
const bandFactor = (bands: RateTable['home_age_bands'], age: number): number =>
  bands.reduce((factor, band) => (band.min_age_years <= age ? band.factor : factor), 1);

function resolveState(table: RateTable, raw: string): Step<{ code: string; baseRate: number }> {
  const code = raw.trim().toUpperCase();
  const state = Object.hasOwn(table.states, code) ? table.states[code] : undefined;
  if (state !== undefined) return success({ code, baseRate: state.base_rate_per_1000 });
  const names = Object.values(table.states)
    .map((s) => s.name)
    .sort();
  return refusal('unsupported_state', `I can only give estimates for homes in ${speakList(names)}.`, {
    supported_states: Object.keys(table.states).sort(),
  });
}

function checkCoverage(table: RateTable, coverage: number): Refusal<QuoteRefusalCode> | undefined {
  const { min, max } = table.dwelling_coverage;
  if (Number.isFinite(coverage) && coverage >= min && coverage <= max) return undefined;
  return refusal(
    'coverage_out_of_range',
    `Dwelling coverage must be between ${dollars(min)} and ${dollars(max)} for an estimate.`,
    { min, max },
  );
}

function resolveHomeAge(yearBuilt: number, currentYear: number): Step<number> {
  if (Number.isInteger(yearBuilt) && yearBuilt >= EARLIEST_YEAR_BUILT && yearBuilt <= currentYear) {
    return success(currentYear - yearBuilt);
  }
  return refusal(
    'invalid_year_built',
    `The year the home was built must be a whole year between ${EARLIEST_YEAR_BUILT} and ${currentYear}.`,
    { min_year: EARLIEST_YEAR_BUILT, max_year: currentYear },
  );
}

/** Voice transcripts say "masonry veneer" or "fire-resistive"; the table keys are snake_case. */
const tableKey = (spoken: string): string =>
  spoken
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

function resolveConstruction(
  table: RateTable,
  raw: string | undefined,
): Step<{ type: string; factor: number }> {
  const type = raw === undefined ? table.default_construction_type : tableKey(raw);
  // `hasOwn` so that a word like "constructor" is not found on the object's prototype.
  const factor = Object.hasOwn(table.construction_types, type) ? table.construction_types[type] : undefined;
  if (factor !== undefined) return success({ type, factor });
  const types = Object.keys(table.construction_types);
  const spoken = speakList(types.map((t) => t.replaceAll('_', ' ')));
  return refusal('unknown_construction_type', `The construction types I can estimate are ${spoken}.`, {
    construction_types: types,
  });
}

function resolveDeductible(
  table: RateTable,
  raw: number | undefined,
): Step<{ amount: number; factor: number }> {
  const amount = raw ?? table.default_deductible;
  const row = table.deductibles.find((d) => d.amount === amount);
  if (row !== undefined) return success(row);
  const amounts = table.deductibles.map((d) => d.amount);
  return refusal(
    'unsupported_deductible',
    `The deductibles I can estimate with are ${speakList(amounts.map(dollars))}.`,
    { deductibles: amounts },
  );
}

interface RoofTerms {
  age: number | null;
  factor: number;
  extraSpread: number;
}

function resolveRoof(table: RateTable, roofAge: number | undefined, homeAge: number): Step<RoofTerms> {
  const { roof } = table;
  // Unknown is an honest answer on a phone call: estimate anyway, but show the uncertainty.
  if (roofAge === undefined) {
    return success({
      age: null,
      factor: roof.unknown_age_factor,
      extraSpread: roof.unknown_age_extra_spread,
    });
  }
  if (!Number.isFinite(roofAge) || roofAge < 0 || roofAge > homeAge) {
    return refusal(
      'invalid_roof_age',
      'The roof age must be zero or more years and cannot be older than the home.',
      {
        home_age_years: homeAge,
      },
    );
  }
  if (roofAge > roof.review_over_age_years) {
    return refusal(
      'roof_review_required',
      `A roof older than ${roof.review_over_age_years} years needs an underwriting review, so a licensed agent has to quote this home.`,
      { review_over_age_years: roof.review_over_age_years },
    );
  }
  return success({ age: roofAge, factor: bandFactor(roof.age_bands, roofAge), extraSpread: 0 });
}

/** Low rounds down and high rounds up, so rounding only ever widens the range. */
function roundedRange(table: RateTable, point: number, factors: QuoteFactors) {
  const step = table.annual_rounding_dollars;
  const annualLow = Math.floor((point * (1 - factors.spread_below)) / step) * step;
  const annualHigh = Math.ceil((point * (1 + factors.spread_above)) / step) * step;
  return {
    annual_low: annualLow,
    annual_high: annualHigh,
    monthly_low: Math.floor(annualLow / 12),
    monthly_high: Math.ceil(annualHigh / 12),
  };
}

export function estimateQuote(
  table: RateTable,
  input: QuoteInput,
  currentYear: number,
): Result<QuoteRange, QuoteRefusalCode> {
  const state = resolveState(table, input.state);
  if (!state.ok) return state;
  const coverageRefusal = checkCoverage(table, input.dwelling_coverage);
  if (coverageRefusal !== undefined) return coverageRefusal;
  const homeAge = resolveHomeAge(input.year_built, currentYear);
  if (!homeAge.ok) return homeAge;
  const construction = resolveConstruction(table, input.construction_type);
  if (!construction.ok) return construction;
  const deductible = resolveDeductible(table, input.deductible);
  if (!deductible.ok) return deductible;
  const roof = resolveRoof(table, input.roof_age_years, homeAge.value);
  if (!roof.ok) return roof;

  const factors: QuoteFactors = {
    base_rate_per_1000: state.value.baseRate,
    construction_type: construction.value.type,
    construction_factor: construction.value.factor,
    home_age_years: homeAge.value,
    home_age_factor: bandFactor(table.home_age_bands, homeAge.value),
    deductible: deductible.value.amount,
    deductible_factor: deductible.value.factor,
    roof_age_years: roof.value.age,
    roof_factor: roof.value.factor,
    spread_below: table.range_spread.below + roof.value.extraSpread,
    spread_above: table.range_spread.above + roof.value.extraSpread,
  };
  const point =
    (input.dwelling_coverage / 1000) *
    factors.base_rate_per_1000 *
    factors.construction_factor *
    factors.home_age_factor *
    factors.deductible_factor *
    factors.roof_factor;
  return success({
    state: state.value.code,
    dwelling_coverage: input.dwelling_coverage,
    ...roundedRange(table, point, factors),
    currency: table.currency,
    binding: false,
    disclaimer: table.disclaimer,
    factors,
  });
}
