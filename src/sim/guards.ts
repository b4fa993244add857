import type { JsonSchema } from './chat.js';
import { parseAmount, phoneDigits } from './utterance.js';

/**
 * Guards for a small model, as pure functions. The orchestrator runs them around every model step
 * and tool call and shows each one that fires in the trace; none of them trusts the model's word.
 */

export interface Coerced {
  readonly value: Record<string, unknown>;
  /** What was changed, for the trace: `dwelling_coverage: "$500,000" -> 500000`. */
  readonly changes: readonly string[];
}

function typesOf(schema: JsonSchema): readonly string[] {
  if (schema.type === undefined) return [];
  return typeof schema.type === 'string' ? [schema.type] : schema.type;
}

function coerceValue(value: unknown, schema: JsonSchema): unknown {
  const types = typesOf(schema);
  if (schema.enum && typeof value === 'string') {
    const wanted = value
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_');
    const match = schema.enum.find((option) => typeof option === 'string' && option.toLowerCase() === wanted);
    if (match !== undefined) return match;
  }
  if ((types.includes('number') || types.includes('integer')) && typeof value === 'string') {
    const amount = parseAmount(value);
    if (amount !== undefined)
      return types.includes('integer') && !types.includes('number') ? Math.round(amount) : amount;
  }
  if (
    types.includes('integer') &&
    !types.includes('number') &&
    typeof value === 'number' &&
    !Number.isInteger(value)
  ) {
    return Math.round(value);
  }
  if (types.includes('string') && (typeof value === 'number' || typeof value === 'boolean'))
    return String(value);
  if (types.includes('string') && typeof value === 'string') return value.trim();
  if (types.includes('boolean') && typeof value === 'string' && /^(?:true|false)$/i.test(value.trim())) {
    return value.trim().toLowerCase() === 'true';
  }
  return value;
}

const show = (value: unknown): string => JSON.stringify(value) ?? String(value);

/**
 * Fits a model's arguments to the tool's JSON Schema: keys the schema does not name are dropped,
 * amounts written as text become numbers, enum values are matched loosely ("Policy Review" ->
 * `policy_review`), and empty optional values are left out instead of failing validation.
 */
export function coerceArguments(args: Readonly<Record<string, unknown>>, schema: JsonSchema): Coerced {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const value: Record<string, unknown> = {};
  const changes: string[] = [];
  for (const [key, raw] of Object.entries(args)) {
    const property = properties[key];
    if (!property) {
      changes.push(`${key}: dropped (not in the schema)`);
      continue;
    }
    if (
      !required.has(key) &&
      (raw === null || raw === '' || (typeof raw === 'string' && raw.trim() === ''))
    ) {
      changes.push(`${key}: dropped (empty)`);
      continue;
    }
    const coerced = coerceValue(raw, property);
    if (show(coerced) !== show(raw)) changes.push(`${key}: ${show(raw)} -> ${show(coerced)}`);
    value[key] = coerced;
  }
  return { value, changes };
}

/** Which arguments name the caller or their contact, per tool. */
const CALLER_FIELDS: Readonly<Record<string, readonly ('client_name' | 'contact')[]>> = {
  book_appointment: ['client_name', 'contact'],
  get_appointment_status: ['contact'],
  cancel_appointment: ['contact'],
};

function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z\u00c0-\u024f]+(?:['’-][a-z\u00c0-\u024f]+)*/g) ?? [];
}

function digitRuns(text: string): string[] {
  return (text.match(/\+?\d[\d\s().-]*\d/g) ?? []).map(phoneDigits);
}

function nameWasSaid(name: string, said: readonly string[]): boolean {
  const wanted = words(name);
  if (wanted.length === 0) return false;
  return said.some((utterance) => {
    const heard = new Set(words(utterance));
    return wanted.every((word) => heard.has(word));
  });
}

function contactWasSaid(contact: string, said: readonly string[]): boolean {
  const text = contact.trim().toLowerCase();
  if (text.includes('@'))
    return said.some((utterance) => utterance.toLowerCase().replace(/\s+/g, '').includes(text));
  const digits = phoneDigits(text);
  if (digits.length < 4 || /[a-z]/.test(text)) return false;
  return said.some((utterance) =>
    digitRuns(utterance).some(
      (run) => run === digits || (run.length > 4 && run.endsWith(digits) && digits.length === 4),
    ),
  );
}

/**
 * The caller's name and contact in a tool call must be ones the caller said in this conversation:
 * a small model will otherwise fill in "User, 123-456-7890". Returns the fields that were not said.
 */
export function unsaidCallerDetails(
  tool: string,
  args: Readonly<Record<string, unknown>>,
  callerSaid: readonly string[],
): string[] {
  const missing: string[] = [];
  for (const field of CALLER_FIELDS[tool] ?? []) {
    const value = args[field];
    const said =
      typeof value === 'string' &&
      (field === 'client_name' ? nameWasSaid(value, callerSaid) : contactWasSaid(value, callerSaid));
    if (!said) missing.push(field);
  }
  return missing;
}

/** "I've booked you", "you're all set", "it's cancelled": a claim that something was done. */
const ACTION_CLAIM =
  /\b(?:i(?:'ve| have)?|we(?:'ve| have)?|it(?:'s| is| has been)|you(?:'re| are)|that(?:'s| is)|has been|have been|is now|all)\s+(?:now\s+|just\s+|successfully\s+|gone ahead and\s+)?(?:booked|scheduled|reserved|held|placed (?:a|the|your) hold|put (?:you|it) (?:down|in)|cancell?ed|confirmed|all set|set up)\b|\b(?:booking|appointment|reservation|cancellation) (?:is|has been) (?:made|placed|confirmed|done|complete)\b/i;

export function claimsAnAction(reply: string): boolean {
  return ACTION_CLAIM.test(reply);
}

/**
 * Says something is confirmed. "not confirmed", "not yet confirmed", "unconfirmed" and "will
 * confirm" are not claims; "is confirmed", "confirmed by staff", "your booking is confirmed" are.
 */
export function claimsConfirmation(reply: string): boolean {
  const cleaned = reply
    .toLowerCase()
    .replace(
      /\b(?:not|never|isn't|is not|wasn't|hasn't been|has not been|not yet|until (?:it is|it's|staff have|a staff member has))\s+(?:been\s+|yet\s+)?confirmed\b/g,
      ' ',
    )
    .replace(/\bunconfirmed\b/g, ' ');
  return /\bconfirmed\b/.test(cleaned);
}

/** A reply after a hold must carry its reference and say it is not a booking yet. */
export function keepsHoldNotice(reply: string, appointmentId: string): boolean {
  const lower = reply.toLowerCase();
  const pending =
    /\bnot (?:a booking|confirmed|yet confirmed|final)\b|\bpending\b|\bwaiting for (?:staff|approval)\b|\bstaff (?:member )?(?:will|must|need to|has to) (?:confirm|approve)/.test(
      lower,
    );
  return pending && reply.toUpperCase().includes(appointmentId.toUpperCase());
}

/** A reply after a price range must say it is not a quote. */
export function keepsQuoteDisclaimer(reply: string): boolean {
  return /\bnot (?:a|an actual|a real|a binding) quote\b|\bnon-?binding\b|\billustrat/i.test(reply);
}
