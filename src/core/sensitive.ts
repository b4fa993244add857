/**
 * Detection of social-security and payment-card numbers in caller free text (names, notes, cancel
 * reasons, escalation summaries and every key and value of escalation details). Such numbers are
 * refused, never stored and never echoed, so detection leans towards flagging: a false refusal costs
 * the caller one rephrasing, a miss puts a number into the store and the logs.
 *
 * Boundaries:
 * - Text is read as digit runs: groups of ASCII digits joined by exactly one space, dash or dot
 *   (`4111 1111-1111.1111` is one run of four groups). Anything else ends a run: commas, slashes,
 *   colons, parentheses, letters, two separators in a row. That is why `$500,000`, `09/16/2026`,
 *   `10:30` or `(555) 123-4567` never add up to a long run.
 * - Payment card: any 13–19 consecutive digits of a run that pass the Luhn check, wherever group
 *   boundaries fall. Checking every such window, not only stretches of whole groups, catches a card
 *   inside a longer run however it was grouped or glued to its neighbours (`4111-111111-11111-11`).
 *   The price: about one window in ten passes Luhn by chance, so a long run of unrelated digits
 *   (two phone numbers separated only by a space) may be refused and must be rephrased.
 * - SSN: three consecutive groups of 3, 2 and 4 digits, or one group of exactly 9 contiguous digits
 *   (9 digits inside a longer contiguous run are not an SSN by themselves). Area 000, 666 and
 *   900–999, group 00 and serial 0000 are never issued, so they are not SSNs.
 * - A `+` directly before a run marks an E.164 phone number: its leading groups, up to 15 digits in
 *   all, are exempt from both checks. This is the boundary that keeps 13–15 digit international
 *   numbers from reading as cards; the price is that a 13–15 digit card dictated after a `+` passes.
 *   Card windows and SSN groups that reach past those groups are checked as usual.
 * - US phone numbers in their usual forms, dates, times, amounts, zip codes, years and appointment
 *   ids have fewer than 13 digits per run and no 3-2-4 shape, so they pass without special cases.
 */

export type SensitiveKind = 'ssn' | 'payment_card';

const KIND_ORDER: readonly SensitiveKind[] = ['ssn', 'payment_card'];

const CARD_MIN_DIGITS = 13;
const CARD_MAX_DIGITS = 19;
const E164_MAX_DIGITS = 15;

const DIGIT_RUN = /\d+(?:[ .-]\d+)*/g;
const GROUP_SEPARATOR = /[ .-]/;

interface DigitRun {
  readonly groups: readonly string[];
  /** Leading groups belonging to an E.164 phone number, never checked on their own. */
  readonly exemptGroups: number;
}

export function findSensitiveNumbers(text: string): SensitiveKind[] {
  const runs = digitRuns(text);
  const found: Record<SensitiveKind, boolean> = {
    ssn: runs.some(containsSsn),
    payment_card: runs.some(containsCard),
  };
  return KIND_ORDER.filter((kind) => found[kind]);
}

function digitRuns(text: string): DigitRun[] {
  return [...text.matchAll(DIGIT_RUN)].map((match) => {
    const groups = match[0].split(GROUP_SEPARATOR);
    const isE164 = text[match.index - 1] === '+';
    return { groups, exemptGroups: isE164 ? e164GroupCount(groups) : 0 };
  });
}

function e164GroupCount(groups: readonly string[]): number {
  let digits = 0;
  let count = 0;
  for (const group of groups) {
    digits += group.length;
    if (digits > E164_MAX_DIGITS) break;
    count += 1;
  }
  return count;
}

function containsCard({ groups, exemptGroups }: DigitRun): boolean {
  const digits = groups.join('');
  const exemptDigits = groups.slice(0, exemptGroups).join('').length;
  for (let end = Math.max(CARD_MIN_DIGITS, exemptDigits + 1); end <= digits.length; end++) {
    const longest = Math.min(CARD_MAX_DIGITS, end);
    for (let length = CARD_MIN_DIGITS; length <= longest; length++) {
      if (passesLuhn(digits.slice(end - length, end))) return true;
    }
  }
  return false;
}

function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let fromRight = 0; fromRight < digits.length; fromRight++) {
    const digit = digits.charCodeAt(digits.length - 1 - fromRight) - 48;
    const weighted = fromRight % 2 === 1 ? digit * 2 : digit;
    sum += weighted > 9 ? weighted - 9 : weighted;
  }
  return sum % 10 === 0;
}

function containsSsn({ groups, exemptGroups }: DigitRun): boolean {
  return groups.some((group, index) => {
    if (index < exemptGroups) return false;
    if (group.length === 9) return isIssuableSsn(group.slice(0, 3), group.slice(3, 5), group.slice(5));
    const [area, middle] = [groups[index - 2], groups[index - 1]];
    return (
      area?.length === 3 && middle?.length === 2 && group.length === 4 && isIssuableSsn(area, middle, group)
    );
  });
}

function isIssuableSsn(area: string, group: string, serial: string): boolean {
  return area !== '000' && area !== '666' && !area.startsWith('9') && group !== '00' && serial !== '0000';
}

interface PathStep {
  readonly segment: string;
  readonly parent: PathStep | undefined;
}

interface PendingValue {
  readonly value: unknown;
  readonly at: PathStep | undefined;
}

/**
 * Finds a sensitive number anywhere in a JSON-like value: strings, numbers and bigints (a card can
 * arrive as a JSON number), array items, and both keys and values of plain objects; the keys of an
 * object are checked before its values are walked. The walk keeps its own stack, so no nesting depth can overflow it or hide a number below a cut-off,
 * and visits each array or object once, so cycles end.
 *
 * `path` names where the number is (`details.items[2]`; a key holding one reads `details.<key>`)
 * and never contains it: a key only becomes part of a path after it was found clean, and every
 * segment is fenced by brackets or by a dot before a non-digit, so digits of neighbouring segments never join.
 * `root` prefixes the path; without it, the path of the value itself is empty.
 */
export function findSensitiveIn(
  value: unknown,
  root = '',
): { kind: SensitiveKind; path: string } | undefined {
  const visited = new Set<object>();
  const pending: PendingValue[] = [{ value, at: undefined }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: current, at } = next;
    if (typeof current === 'string' || typeof current === 'number' || typeof current === 'bigint') {
      const [kind] = findSensitiveNumbers(String(current));
      if (kind) return { kind, path: renderPath(root, at) };
    } else if (Array.isArray(current) || isPlainObject(current)) {
      if (visited.has(current)) continue;
      visited.add(current);
      const children = Array.isArray(current) ? arrayChildren(current, at) : objectChildren(current, at);
      if ('found' in children) return { kind: children.found, path: renderPath(root, children.at) };
      // One push per child: spreading a large array into push() overflows the argument limit.
      for (const child of children.reverse()) pending.push(child);
    }
  }
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function arrayChildren(items: readonly unknown[], at: PathStep | undefined): PendingValue[] {
  return items.map((item, index) => ({ value: item, at: { segment: `[${index}]`, parent: at } }));
}

type ObjectChildren = PendingValue[] | { found: SensitiveKind; at: PathStep };

function objectChildren(object: Record<string, unknown>, at: PathStep | undefined): ObjectChildren {
  const children: PendingValue[] = [];
  for (const [key, value] of Object.entries(object)) {
    const [kind] = findSensitiveNumbers(key);
    if (kind) return { found: kind, at: { segment: '.<key>', parent: at } };
    children.push({ value, at: { segment: keySegment(key), parent: at } });
  }
  return children;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Other keys stay unescaped inside the brackets, so their digits read exactly as they were checked. */
function keySegment(key: string): string {
  return IDENTIFIER.test(key) ? `.${key}` : `["${key}"]`;
}

function renderPath(root: string, at: PathStep | undefined): string {
  const segments: string[] = [];
  for (let step = at; step !== undefined; step = step.parent) segments.push(step.segment);
  const tail = segments.reverse().join('');
  return root === '' ? tail.replace(/^\./, '') : root + tail;
}
