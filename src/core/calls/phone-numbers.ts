import { refusal, success, type Result } from '../result.js';

/**
 * Which numbers the gateway may dial. A staff member's assistant types numbers the gateway then
 * dials for real, so the checks lean towards refusing:
 *
 * - Emergency and crisis numbers are never dialled, whatever their form: national (`911`, `9 1 1`,
 *   `1-911`, `0-112`), international (`+1 911`, `+44 999`, `+61 000`, `0049 110`, `011 1 911`) or a
 *   NANP number whose area code or exchange is 911 (`+1 911 555 0100` would reach 911 on some
 *   switches). A dial string of at most seven digits whose tail, after up to three country-code digits
 *   and one trunk digit (0 or 1), is an emergency code counts as emergency: no such string is a
 *   number worth the risk.
 * - Other short codes (two to six digits: directory, N11 services, `116xxx` hotlines) are refused:
 *   they are not E.164 numbers and their cost and destination depend on the caller's network.
 * - The number must be E.164: `+`, a country code not starting with 0, at most 15 digits in all and
 *   at least 7. Spaces, hyphens, dots and parentheses between digits are tolerated and dropped. NANP
 *   numbers (+1) must have ten digits with an area code and exchange of the form [2-9]XX, not N11.
 * - Premium-rate and high-cost prefixes are refused (see `PREMIUM_PREFIXES`).
 */
export type DialRefusalCode = 'invalid_number' | 'emergency_number' | 'short_code' | 'premium_rate_number';

/** Emergency and crisis numbers as dialled on their own, in the countries that use them. */
export const EMERGENCY_CODES: ReadonlySet<string> = new Set([
  '911', // North America, Mexico, and forwarded by most GSM networks
  '933', // the US 911 test line
  '988', // US suicide and crisis line
  '112', // GSM and the European Union
  '999', // UK, Ireland, Hong Kong, Singapore, Malaysia, ...
  '000', // Australia
  '111', // New Zealand
  '110', // police: Germany, Japan, China
  '119', // fire and ambulance: Japan, Korea, Taiwan; fire: China
  '118', // ambulance: Italy; coast guard: Japan
  '113', // police: Italy, Vietnam; medical: Norway
  '115', // fire: Italy
  '120', // ambulance: China
  '122', // traffic police: China; fire: Austria
  '100', // police: India, Greece, Israel
  '101', // fire: India, Israel
  '102', // ambulance: India
  '108', // emergency: India
  '190', // police: Brazil
  '192', // ambulance: Brazil
  '193', // fire: Brazil
  '995', // fire and ambulance: Singapore
  '15', // SAMU: France
  '17', // police: France
  '18', // fire: France
  '08', // emergency as dialled from some handsets and networks
]);

/**
 * Premium-rate and high-cost destinations, as E.164 digit prefixes (without `+`). NANP 976 is an
 * exchange, refused in every area code, and handled apart.
 */
export const PREMIUM_PREFIXES: readonly string[] = [
  '1900', // NANP 900 premium services
  '1976', // NANP 976 (historic premium area code form)
  '449', // UK 09xx premium rate
  '44871', // UK 0871-0873 service-charge numbers
  '44872',
  '44873',
  '4470', // UK 070 personal numbers, often mistaken for mobiles and charged at premium rates
  '61190', // Australia 190x
  '64900', // New Zealand 0900
  '49900', // Germany 0900
  '49137', // Germany 0137 mass-calling
  '3381', // France 081/082 shared-cost, 089 premium
  '3382',
  '3389',
  '3989', // Italy 89x
  '34803', // Spain 803, 806, 807, 905
  '34806',
  '34807',
  '34905',
  '31900', // Netherlands 0900, 0906, 0909
  '31906',
  '31909',
  '3290', // Belgium 090x
  '4190', // Switzerland 090x
  '4390', // Austria 090x and 093x
  '4393',
  '35315', // Ireland 15xx
  '46900', // Sweden 0900, 0939, 0944
  '46939',
  '46944',
  '4590', // Denmark 90xx
  '47820', // Norway 820, 829
  '47829',
  '358600', // Finland 0600, 0700
  '358700',
  '4870', // Poland 70x
  '870', // Inmarsat and other satellite services
  '881', // global mobile satellite systems
  '882', // international networks
  '883',
  '979', // international premium rate service
];

const FORMATTING = /[\s().-]/g;
const MIN_E164_DIGITS = 7;
const MAX_E164_DIGITS = 15;
const MAX_SHORT_CODE_DIGITS = 6;
const MAX_COUNTRY_CODE_DIGITS = 3;

/** The digits of a dial string after its international prefix (`+`, `00` or the NANP `011`), if any. */
function significantDigits(input: string): { digits: string; international: boolean } {
  const trimmed = input.trim();
  const digits = trimmed.replace(/\D/g, '');
  if (trimmed.startsWith('+')) return { digits, international: true };
  if (digits.startsWith('011')) return { digits: digits.slice(3), international: true };
  if (digits.startsWith('00')) return { digits: digits.slice(2), international: true };
  return { digits, international: false };
}

const withoutTrunkDigit = (digits: string): string[] =>
  /^[01]./.test(digits) ? [digits, digits.slice(1)] : [digits];

/** Every reading of a short dial string as "country code, trunk digit, code". */
function emergencyReadings(digits: string): string[] {
  const readings = withoutTrunkDigit(digits);
  for (let cc = 1; cc <= MAX_COUNTRY_CODE_DIGITS && cc < digits.length; cc++) {
    readings.push(...withoutTrunkDigit(digits.slice(cc)));
  }
  return readings;
}

/** A NANP number (as +1 NPA NXX XXXX, 1 NPA NXX XXXX or NPA NXX XXXX) with 911 as area code or exchange. */
function isNanpEmergency(digits: string, international: boolean): boolean {
  const nanp = international || digits.length === 11 ? /^1(\d{10})$/.exec(digits)?.[1] : digits;
  if (nanp?.length !== 10) return false;
  return nanp.startsWith('911') || nanp.slice(3, 6) === '911';
}

/** True when dialling `input` could reach an emergency or crisis service. */
export function isEmergencyNumber(input: string): boolean {
  const { digits, international } = significantDigits(input);
  // "000" and "0049 110" both start like an international prefix: read the digits both ways.
  const everyDigit = input.replace(/\D/g, '');
  const short = [digits, everyDigit].filter((d) => d !== '' && d.length <= MIN_E164_DIGITS);
  if (short.some((d) => emergencyReadings(d).some((reading) => EMERGENCY_CODES.has(reading)))) return true;
  return isNanpEmergency(digits, international);
}

/** The premium prefix `e164` starts with, if any. */
export function premiumPrefixOf(e164: string): string | undefined {
  const digits = e164.replace(/^\+/, '');
  const prefix = PREMIUM_PREFIXES.find((p) => digits.startsWith(p));
  if (prefix) return prefix;
  return digits.startsWith('1') && digits.slice(4, 7) === '976' ? '1NPA976' : undefined;
}

/** `input` as E.164 (`+` and digits only), or why it is not one. Says nothing about emergency numbers. */
export function parseE164(input: string): Result<string, 'invalid_number'> {
  const compact = input.trim().replace(FORMATTING, '');
  const invalid = refusal(
    'invalid_number',
    'Give the number in E.164 form: + and the country code, e.g. +13125550134.',
  );
  if (!/^\+[1-9]\d+$/.test(compact)) return invalid;
  const digits = compact.slice(1);
  if (digits.length < MIN_E164_DIGITS || digits.length > MAX_E164_DIGITS) return invalid;
  if (digits.startsWith('1') && !/^1[2-9]\d\d[2-9]\d{6}$/.test(digits)) return invalid;
  if (digits.startsWith('1') && (/^1[2-9]11/.test(digits) || /^1\d{3}[2-9]11/.test(digits))) return invalid;
  return success(compact);
}

/**
 * Whether the gateway may dial `input`: the E.164 form to dial, or the refusal. Emergency numbers are
 * checked first, on the raw digits, so that no formatting turns one into a mere "invalid number".
 */
export function checkDialable(input: string): Result<string, DialRefusalCode> {
  if (isEmergencyNumber(input)) {
    return refusal(
      'emergency_number',
      'Emergency and crisis numbers are never dialled by the gateway. Call them yourself from a phone.',
    );
  }
  const { digits } = significantDigits(input);
  if (digits.length >= 2 && digits.length <= MAX_SHORT_CODE_DIGITS && /^[\d\s().+-]+$/.test(input.trim())) {
    return refusal('short_code', 'Short codes and service numbers cannot be dialled through the gateway.');
  }
  const parsed = parseE164(input);
  if (!parsed.ok) return parsed;
  const premium = premiumPrefixOf(parsed.value);
  if (premium) {
    return refusal('premium_rate_number', 'Premium-rate and high-cost numbers are refused.', {
      prefix: premium === '1NPA976' ? '+1 NPA 976' : `+${premium}`,
    });
  }
  return parsed;
}
