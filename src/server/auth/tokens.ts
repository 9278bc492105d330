import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** Random secrets that travel to a browser or a mailbox; only their hashes are stored. */

/** 256 bits, URL-safe: session ids and e-mailed reset tokens. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Tokens are long and random, so a fast hash is enough to make a leaked table useless; it also
 * lets the row be found by the hash.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** A 6-digit reset code, uniformly drawn (leading zeros kept). */
export function newResetCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/** Compares a secret the caller sent with the expected one in time that does not depend on where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
