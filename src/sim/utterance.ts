/**
 * Reading what a caller said: dates, times, contacts, names, amounts. Plain functions over the text
 * and "today" (office-local `YYYY-MM-DD`), shared by the scripted intent router and the guards, so
 * both read a phone number or a name the same way.
 */

const MONTHS: readonly [RegExp, number][] = [
  [/^jan(uary)?$/, 1],
  [/^feb(ruary)?$/, 2],
  [/^mar(ch)?$/, 3],
  [/^apr(il)?$/, 4],
  [/^may$/, 5],
  [/^june?$/, 6],
  [/^july?$/, 7],
  [/^aug(ust)?$/, 8],
  [/^sep(t(ember)?)?$/, 9],
  [/^oct(ober)?$/, 10],
  [/^nov(ember)?$/, 11],
  [/^dec(ember)?$/, 12],
];
const MONTH_WORD =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
export const WEEKDAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;

const PHONE = /(?:\+?1[\s.-]?)?\(?\b[2-9]\d{2}\)?[\s.-]?\d{3}[\s.-]?\d{4}\b/;
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const LAST_FOUR =
  /\b(?:last four(?: digits)?(?: (?:are|is|of my (?:phone|number)(?: are)?))?|ending in|ends in)\s*:?\s*(\d{4})\b/i;
const APPOINTMENT_ID = /\bAPT-?[A-Z0-9]{4,12}\b/i;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function isoDate(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${year}-${pad(month)}-${pad(day)}`;
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + days));
  return `${next.getUTCFullYear()}-${pad(next.getUTCMonth() + 1)}-${pad(next.getUTCDate())}`;
}

function weekday(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

function monthNumber(word: string): number | undefined {
  const lower = word.toLowerCase().replace(/\.$/, '');
  return MONTHS.find(([pattern]) => pattern.test(lower))?.[1];
}

/** A month and day without a year means the next such day from today. */
function upcoming(today: string, month: number, day: number): string | undefined {
  const year = Number(today.slice(0, 4));
  const thisYear = isoDate(year, month, day);
  if (thisYear === undefined) return undefined;
  return thisYear >= today ? thisYear : isoDate(year + 1, month, day);
}

interface Found<T> {
  readonly value: T;
  /** The words it was read from, so they can be cut out before reading something else. */
  readonly text: string;
}

/**
 * A date the caller named: ISO, "September 16", "16th of September", "9/16", "today", "tomorrow",
 * "the day after tomorrow", "the 16th", or a weekday. A bare or "this" weekday is its next
 * occurrence after today ("this" allows today); "next" adds a week to that.
 */
export function findDate(utterance: string, today: string): Found<string> | undefined {
  const text = utterance.toLowerCase();
  let m = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(text);
  if (m) {
    const value = isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
    if (value) return { value, text: m[0] };
  }
  m = /\b(?:the\s+)?day after tomorrow\b/.exec(text);
  if (m) return { value: addDays(today, 2), text: m[0] };
  m = /\btomorrow\b/.exec(text);
  if (m) return { value: addDays(today, 1), text: m[0] };
  m = /\btoday\b|\bthis (?:afternoon|morning)\b|\blater today\b/.exec(text);
  if (m) return { value: today, text: m[0] };
  m = new RegExp(`\\b(${MONTH_WORD})\\.?\\s+(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\b`).exec(text);
  if (m) {
    const value = upcoming(today, monthNumber(m[1]!)!, Number(m[2]));
    if (value) return { value, text: m[0] };
  }
  m = new RegExp(`\\b(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH_WORD})\\b`).exec(text);
  if (m) {
    const value = upcoming(today, monthNumber(m[2]!)!, Number(m[1]));
    if (value) return { value, text: m[0] };
  }
  m = /\b(\d{1,2})\/(\d{1,2})(?:\/(\d{2}|\d{4}))?\b/.exec(text);
  if (m) {
    const year = m[3] === undefined ? undefined : Number(m[3].length === 2 ? `20${m[3]}` : m[3]);
    const value =
      year === undefined
        ? upcoming(today, Number(m[1]), Number(m[2]))
        : isoDate(year, Number(m[1]), Number(m[2]));
    if (value) return { value, text: m[0] };
  }
  m = /\b(next|this|on|coming)?\s*(sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b/.exec(text);
  if (m) {
    const target = WEEKDAYS.indexOf(m[2] as (typeof WEEKDAYS)[number]);
    let ahead = (target - weekday(today) + 7) % 7;
    if (ahead === 0 && m[1] !== 'this') ahead = 7;
    if (m[1] === 'next') ahead += 7;
    return { value: addDays(today, ahead), text: m[0] };
  }
  m = /\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b/.exec(text);
  if (m) {
    const day = Number(m[1]);
    const [y, mo] = today.split('-').map(Number) as [number, number];
    const here = isoDate(y, mo, day);
    const value =
      here !== undefined && here >= today
        ? here
        : isoDate(mo === 12 ? y + 1 : y, mo === 12 ? 1 : mo + 1, day);
    if (value) return { value, text: m[0] };
  }
  return undefined;
}

function to24(hour: number, meridiem: string | undefined): number {
  const mer = meridiem?.replace(/\./g, '').toLowerCase();
  if (mer === 'am') return hour === 12 ? 0 : hour;
  if (mer === 'pm') return hour === 12 ? 12 : hour + 12;
  // Without AM/PM, an office's day decides: 8 to 11 are mornings, 12 is noon, 1 to 7 afternoons.
  return hour >= 1 && hour <= 7 ? hour + 12 : hour;
}

function clock(hour: number, minute: number): string | undefined {
  return hour >= 0 && hour < 24 && minute >= 0 && minute < 60 ? `${pad(hour)}:${pad(minute)}` : undefined;
}

/**
 * A time of day: "10:30", "2 pm", "10 o'clock", "noon", "half past two", "at 3". Phone numbers,
 * amounts and dates are cut out first so their digits are not read as hours.
 */
export function findTime(utterance: string, today: string): string | undefined {
  let text = utterance.toLowerCase();
  for (const cut of [PHONE, EMAIL, /\$\s?[\d,.]+\s*(?:k|thousand|million)?/, APPOINTMENT_ID]) {
    text = text.replace(new RegExp(cut.source, 'gi'), ' ');
  }
  const date = findDate(text, today);
  if (date) text = text.replace(date.text, ' ');
  if (/\b(?:noon|midday)\b/.test(text)) return '12:00';
  const words: Record<string, number> = {
    one: 1,
    two: 2,
    three: 3,
    four: 4,
    five: 5,
    six: 6,
    seven: 7,
    eight: 8,
    nine: 9,
    ten: 10,
    eleven: 11,
    twelve: 12,
  };
  const hourWord = '(\\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)';
  const hourOf = (word: string) => words[word] ?? Number(word);
  let m = new RegExp(`\\bhalf past ${hourWord}\\b`).exec(text);
  if (m) return clock(to24(hourOf(m[1]!), undefined), 30);
  m = new RegExp(`\\bquarter past ${hourWord}\\b`).exec(text);
  if (m) return clock(to24(hourOf(m[1]!), undefined), 15);
  m = new RegExp(`\\bquarter to ${hourWord}\\b`).exec(text);
  if (m) return clock(to24(hourOf(m[1]!) - 1, undefined), 45);
  m = /\b(\d{1,2}):(\d{2})\s*(a\.?m\.?|p\.?m\.?)?/.exec(text);
  if (m) return clock(to24(Number(m[1]), m[3]), Number(m[2]));
  m = new RegExp(`\\b${hourWord}\\s*(a\\.?m\\.?|p\\.?m\\.?|o'?clock)(?![a-z])`).exec(text);
  if (m) return clock(to24(hourOf(m[1]!), m[2]!.startsWith('o') ? undefined : m[2]), 0);
  m = /\b(?:at|the|for)\s+(\d{1,2})\b(?!\s*(?:st|nd|rd|th|\/|-|years?|%))/.exec(text);
  if (m) return clock(to24(Number(m[1]), undefined), 0);
  return undefined;
}

/** "the first one", "the earliest", "the second", "the last one" among times just offered. */
export function findSlotChoice(utterance: string, offered: readonly string[]): string | undefined {
  const text = utterance.toLowerCase();
  if (offered.length === 0) return undefined;
  if (/\b(?:first|earliest)\b/.test(text)) return offered[0];
  if (/\bsecond\b/.test(text)) return offered[1];
  if (/\bthird\b/.test(text)) return offered[2];
  if (/\b(?:last|latest)\b/.test(text)) return offered[offered.length - 1];
  return undefined;
}

export function findPhone(utterance: string): string | undefined {
  return PHONE.exec(utterance)?.[0].trim();
}

export function findEmail(utterance: string): string | undefined {
  return EMAIL.exec(utterance)?.[0].replace(/\.$/, '');
}

/** A full phone number or e-mail address, as the caller said it. */
export function findContact(utterance: string): string | undefined {
  return findEmail(utterance) ?? findPhone(utterance);
}

/** Last four digits of a phone, when the caller says so ("ending in 0142"). */
export function findLastFour(utterance: string): string | undefined {
  return LAST_FOUR.exec(utterance)?.[1];
}

export function findAppointmentId(utterance: string): string | undefined {
  const raw = APPOINTMENT_ID.exec(utterance)?.[0];
  if (raw === undefined) return undefined;
  const upper = raw.toUpperCase();
  return upper.startsWith('APT-') ? upper : `APT-${upper.slice(3)}`;
}

/** Words that end a name ("I'm Dana Reyes and my number is ..."). */
const NAME_STOP = new Set([
  'and',
  'my',
  'phone',
  'number',
  'at',
  'on',
  'email',
  'e-mail',
  'mail',
  'contact',
  'for',
  'please',
  'thanks',
  'thank',
  'with',
  'to',
  'the',
  'a',
  'an',
  'i',
  'is',
  'you',
  'can',
  'could',
  'cell',
  'mobile',
  'reach',
  'tomorrow',
  'today',
  'but',
  'so',
  'or',
  'from',
  'in',
  'about',
  'by',
  'via',
  'call',
  'text',
  'it',
  'this',
  'that',
  'of',
  ...WEEKDAYS,
]);
/** Phrases after "I'm" / "this is" that are not names. */
const NOT_A_NAME = new Set([
  'looking',
  'interested',
  'calling',
  'wondering',
  'trying',
  'not',
  'just',
  'hoping',
  'going',
  'new',
  'sorry',
  'fine',
  'good',
  'great',
  'okay',
  'ok',
  'here',
  'urgent',
  'available',
  'free',
  'still',
  'also',
  'very',
  'really',
  'thinking',
  'planning',
  'a',
  'an',
  'the',
  'about',
  'done',
  'ready',
  'happy',
  'confused',
  'worried',
  'asking',
]);
const MONTH_NAMES = new RegExp(`^(?:${MONTH_WORD})$`, 'i');

function titleCase(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

/**
 * The name the caller gave for themselves: "my name is dana reyes", "I'm Dana Reyes", "this is Dana",
 * "under Dana Reyes", or "for Dana Reyes" (capitalised, so "for a consultation" is not a name).
 */
export function findName(utterance: string): string | undefined {
  const patterns: readonly RegExp[] = [
    /\b(?:my )?name(?:'s| is)\s+([a-z][a-z'’-]*(?:\s+[a-z][a-z'’-]*){0,3})/i,
    /\bname (?:it )?under\s+([a-z][a-z'’-]*(?:\s+[a-z][a-z'’-]*){0,3})/i,
    /\bunder (?:the name )?([A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+){0,2})/,
    /\b(?:i'm|i am|this is|it's|it is)\s+([a-z][a-z'’-]*(?:\s+[a-z][a-z'’-]*){0,3})/i,
    /\bfor\s+([A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+){0,2})/,
  ];
  for (const pattern of patterns) {
    const m = pattern.exec(utterance);
    if (!m) continue;
    const words: string[] = [];
    for (const word of m[1]!.split(/\s+/)) {
      const lower = word.toLowerCase();
      if (NAME_STOP.has(lower) || MONTH_NAMES.test(lower)) break;
      words.push(titleCase(word));
      if (words.length === 3) break;
    }
    if (words.length === 0 || NOT_A_NAME.has(words[0]!.toLowerCase())) continue;
    return words.join(' ');
  }
  return undefined;
}

/** Dollar amounts: "$500,000", "500k", "350 thousand", "1.2 million", "$1000". */
export interface Amount {
  readonly value: number;
  readonly index: number;
  readonly text: string;
}

export function findAmounts(utterance: string): Amount[] {
  const pattern = /(\$\s?)?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(k\b|thousand\b|million\b|mil\b|m\b)?/gi;
  const out: Amount[] = [];
  for (const m of utterance.matchAll(pattern)) {
    const dollar = m[1] !== undefined;
    const unit = m[3]?.toLowerCase();
    if (!dollar && unit === undefined) continue;
    let value = Number(m[2]!.replace(/,/g, ''));
    if (unit === 'k' || unit === 'thousand') value *= 1000;
    if (unit === 'million' || unit === 'mil' || unit === 'm') value *= 1_000_000;
    out.push({ value: Math.round(value), index: m.index, text: m[0] });
  }
  return out;
}

/**
 * A dollar amount as a number, for arguments a model sent as text: "$500,000" -> 500000,
 * "350k" -> 350000, "1.2 million" -> 1200000. Undefined when the text is not one amount.
 */
export function parseAmount(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^-?\d+(?:\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const amounts = findAmounts(trimmed.startsWith('$') ? trimmed : `$${trimmed}`);
  if (amounts.length !== 1) return undefined;
  const rest = trimmed
    .replace(/^\$/, '')
    .replace(amounts[0]!.text.replace(/^\$\s?/, ''), '')
    .trim();
  return rest === '' || /^(?:usd|dollars?)$/i.test(rest) ? amounts[0]!.value : undefined;
}

/** Digits only, without a leading North American country code. */
export function phoneDigits(text: string): string {
  const digits = text.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}
