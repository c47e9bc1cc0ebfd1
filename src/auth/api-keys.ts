import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** Prefix of every key, as the spec shows them. */
export const KEY_PREFIX = 'sk_';

/** A new secret key: `sk_` + 32 random bytes (base64url). Shown once, stored only as its hash. */
export function generateApiKey(): { id: string; key: string; hash: string; prefix: string } {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  return { id: `key_${randomUUID()}`, key, hash: hashApiKey(key), prefix: key.slice(0, 10) };
}

/**
 * SHA-256 of a key, hex. A fast hash is right here: keys carry 256 bits of entropy, so there is no
 * password to guess, and verification sits on every request.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Compares two hex hashes in constant time. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Looks like a key at all (cheap rejection before any lookup). */
export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(KEY_PREFIX) && value.length >= KEY_PREFIX.length + 40 && value.length <= 200;
}
