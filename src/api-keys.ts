import { createHash, timingSafeEqual } from 'node:crypto';

// The API key's format: its prefix, its shape, its hash and how two hashes are compared. The key
// store hashes a key it creates (src/db/account-store.ts) and auth hashes the key a request brings
// (src/auth/viewer.ts): both must agree, so the format lives here, at the top of src/ beside the other
// small modules several layers share (errors.ts, redact.ts), not in domain/, which uses no Node
// built-in (this uses node:crypto's SHA-256 and constant-time comparison). Generating a key
// (randomness) stays with the store that writes it.

/** Prefix of every key, as the spec shows them. */
export const KEY_PREFIX = 'sk_';

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
