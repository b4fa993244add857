import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: 43 to 128 characters of the unreserved set. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** A base64url SHA-256 digest is exactly 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function isValidChallenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge);
}

/** RFC 7636 §4.6: BASE64URL(SHA256(code_verifier)) must equal the stored code_challenge. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier) || !isValidChallenge(challenge)) return false;
  const computed = createHash('sha256').update(verifier).digest('base64url');
  return timingSafeEqual(Buffer.from(computed), Buffer.from(challenge));
}
