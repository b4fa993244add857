import { createHash, timingSafeEqual } from 'node:crypto';

/** SHA-256 hex of a secret: what is stored and compared instead of the secret itself. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/**
 * Compares two secrets in time independent of where they differ and of their lengths: both sides
 * are hashed to equal-length digests first, then compared with `timingSafeEqual`.
 */
export function secretsEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
