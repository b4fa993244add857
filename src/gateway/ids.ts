import { randomBytes } from 'node:crypto';

/** Lowercase letters and digits without the easily confused 0/o, 1/l. */
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** A fresh random id such as `call_k7x2m9qaw3tr`: 12 characters from 32, 60 bits. */
export function newId(prefix: 'call' | 'flow' | 'dev' | 'pat'): string {
  const bytes = randomBytes(12);
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_${id}`;
}
