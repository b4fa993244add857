/**
 * How a caller can be reached, and how a later call proves it is the same caller: booking stores a
 * contact, a status look-up may give the full contact or the last four digits of the phone, and a
 * cancellation needs the full contact.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

import type { Result } from './result.js';
import { refusal, success } from './result.js';

export type Contact =
  | { kind: 'phone'; /** E.164, e.g. `+15551234567`. */ value: string }
  | { kind: 'email'; /** Trimmed and lowercased. */ value: string };

/** Never echoes what the caller said: it may hold a number that must not be repeated. */
const INVALID_CONTACT_MESSAGE =
  'Please give a phone number with its area code, an international number starting with plus, or an e-mail address.';

/**
 * Separators are not checked for placement: a phone number is read from its digits alone, the way a
 * person writing it down would.
 */
const PHONE_CHARACTERS = /^\+?[\d ().-]+$/;
/** North American numbering: neither area code nor exchange starts with 0 or 1. */
const NANP_NUMBER = /^[2-9]\d{2}[2-9]\d{6}$/;
const INTERNATIONAL_NUMBER = /^[1-9]\d{7,14}$/;
/** Pragmatic, not RFC 5322: the real test of an address is whether mail arrives. */
const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const EMAIL_MAX_LENGTH = 254;
const LAST_FOUR = /^\d{4}$/;

export function parseContact(raw: string): Result<Contact, 'invalid_contact'> {
  const text = raw.trim();
  const contact = text.includes('@') ? parseEmail(text) : parsePhone(text);
  return contact ? success(contact) : refusal('invalid_contact', INVALID_CONTACT_MESSAGE);
}

function parseEmail(text: string): Contact | undefined {
  if (text.length > EMAIL_MAX_LENGTH || !EMAIL_ADDRESS.test(text)) return undefined;
  return { kind: 'email', value: text.toLowerCase() };
}

/** Country code 1 is the North American plan, so `+1` numbers follow its rules, not the generic ones. */
function parsePhone(text: string): Contact | undefined {
  if (!PHONE_CHARACTERS.test(text)) return undefined;
  const digits = text.replace(/\D/g, '');
  if (text.startsWith('+') && !digits.startsWith('1')) {
    return INTERNATIONAL_NUMBER.test(digits) ? { kind: 'phone', value: `+${digits}` } : undefined;
  }
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  return NANP_NUMBER.test(national) ? { kind: 'phone', value: `+1${national}` } : undefined;
}

/**
 * Whether `given` identifies the stored contact. Four bare digits stand for the end of a stored phone
 * number only when the caller's action allows it; they never match an e-mail address.
 */
export function contactMatches(stored: Contact, given: string, options: { allowLastFour: boolean }): boolean {
  const text = given.trim();
  if (options.allowLastFour && LAST_FOUR.test(text)) {
    return stored.kind === 'phone' && sameSecret(stored.value.slice(-4), text);
  }
  const parsed = parseContact(text);
  return parsed.ok && sameSecret(canonical(stored), canonical(parsed.value));
}

function canonical(contact: Contact): string {
  return `${contact.kind}:${contact.value}`;
}

/**
 * Compares digests rather than the strings: `timingSafeEqual` needs equal lengths, and comparing
 * lengths first would tell a guesser how long the stored contact is.
 */
function sameSecret(stored: string, given: string): boolean {
  return timingSafeEqual(digest(stored), digest(given));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** A form safe to show or speak: enough for the caller to recognise, too little to reuse. */
export function describeContact(contact: Contact): string {
  if (contact.kind === 'phone') return `phone ending in ${contact.value.slice(-4)}`;
  const at = contact.value.lastIndexOf('@');
  return `${contact.value.slice(0, 1)}•••${contact.value.slice(at)}`;
}
