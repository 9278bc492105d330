import { hash, verify, type Algorithm } from '@node-rs/argon2';

/**
 * Passwords and reset codes are hashed with argon2id (OWASP's first choice: 19 MiB, 2 passes).
 * The library's verify compares in constant time.
 */
/** Algorithm.Argon2id: the package exports it as a const enum, which isolated modules cannot read. */
const argon2id = 2 as Algorithm;
const options = { algorithm: argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashSecret(secret: string): Promise<string> {
  return hash(secret, options);
}

/**
 * A hash of nothing anyone knows, verified when there is no real one (unknown e-mail, Google-only
 * account, no pending code) so those answers take as long as a wrong password.
 */
const decoy = hashSecret('no account has this secret: decoy for constant-time answers');

/** True when `secret` matches `stored`; with no stored hash it still spends the same work. */
export async function verifySecret(stored: string | null | undefined, secret: string) {
  if (!stored) {
    await verify(await decoy, secret).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, secret);
  } catch {
    // A malformed stored hash is a failed check, never a 500 that tells the caller something.
    return false;
  }
}
