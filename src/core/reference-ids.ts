/**
 * Short reference ids a caller can say back, e.g. `APT-7F3K2Q`: no 0/O or 1/I/L, which are misheard
 * and mistyped. Randomness is I/O, so the caller supplies the bytes. 31^6 ≈ 887 million ids per
 * prefix; the database's primary key catches the rare collision.
 */
export const REFERENCE_PREFIXES = ['APT', 'REQ', 'ESC'] as const;
export type ReferencePrefix = (typeof REFERENCE_PREFIXES)[number];

const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const REFERENCE_ID_BYTES = 6;

export function referenceIdFrom(prefix: ReferencePrefix, randomBytes: Uint8Array): string {
  if (randomBytes.length < REFERENCE_ID_BYTES) {
    throw new RangeError(`a reference id needs at least ${REFERENCE_ID_BYTES} random bytes`);
  }
  let id = `${prefix}-`;
  for (let i = 0; i < REFERENCE_ID_BYTES; i++) id += ALPHABET[randomBytes[i]! % ALPHABET.length];
  return id;
}

export const REFERENCE_ID_PATTERN = /^(APT|REQ|ESC)-[2-9A-HJKMNP-Z]{6}$/;

/** What a caller reads back ("apt 7f3k2q", "APT–7F3K2Q") in the canonical form. */
export function normaliseReferenceId(spoken: string): string {
  const compact = spoken.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const match = /^(APT|REQ|ESC)([A-Z0-9]{6})$/.exec(compact);
  return match ? `${match[1]}-${match[2]}` : spoken.trim().toUpperCase();
}
