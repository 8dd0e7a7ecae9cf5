import * as argon2 from 'argon2';

/**
 * argon2id with OWASP's recommended minimum (19 MiB, 2 iterations, 1 lane): a login costs tens of
 * milliseconds, so it stays fast on a 2-core server while still being memory-hard.
 */
export const PASSWORD_HASH_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** Hashes a password into an argon2id PHC string (salt and parameters included). */
export function hashPassword(plain: string): Promise<string> {
  return argon2.hash(plain, PASSWORD_HASH_OPTIONS);
}

/**
 * True when `plain` matches `hash`. A hash that is not a valid argon2 string (e.g. an imported legacy
 * hash) never matches, rather than turning a login into a server error.
 */
export async function verifyPassword(hash: string, plain: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, plain);
  } catch {
    return false;
  }
}

/** True when the hash was made with other parameters than today's: rehash it after a successful login. */
export function passwordNeedsRehash(hash: string): boolean {
  try {
    return !hash.startsWith('$argon2id$') || argon2.needsRehash(hash, PASSWORD_HASH_OPTIONS);
  } catch {
    return true;
  }
}
