import { createHash } from 'node:crypto';
import { generateApiKey } from '../../src/db/account-store';
import { hashApiKey, looksLikeApiKey, sameHash } from '../../src/api-keys';
import { bearerToken, verifyApiKey, type KeyRecord } from '../../src/auth/viewer';
import { AppError } from '../../src/errors';

describe('API keys', () => {
  test('when a key is generated, then it is sk_ + 32 random bytes and only its SHA-256 is kept', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a.key).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.key.slice(3), 'base64url')).toHaveLength(32);
    expect(a.key).not.toBe(b.key);
    expect(a.hash).toBe(createHash('sha256').update(a.key).digest('hex'));
    expect(a.hash).not.toContain(a.key.slice(3, 20));
    expect(a.prefix).toBe(a.key.slice(0, 10));
    expect(looksLikeApiKey(a.key)).toBe(true);
  });

  test('when hashes are compared, then equal hashes match and any difference does not', () => {
    const h = hashApiKey('sk_x');
    expect(sameHash(h, hashApiKey('sk_x'))).toBe(true);
    expect(sameHash(h, hashApiKey('sk_y'))).toBe(false);
    expect(sameHash(h, h.slice(0, 10))).toBe(false);
  });

  test.each([
    ['Bearer sk_abc', 'sk_abc'],
    ['bearer   sk_abc  ', 'sk_abc'],
    ['Basic sk_abc', undefined],
    ['sk_abc', undefined],
    ['', undefined],
  ])('when the Authorization header is %j, then the token is %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });
});

describe('key verification', () => {
  const { key, hash } = generateApiKey();
  const record = (change: Partial<KeyRecord['account']> = {}, revokedAt: Date | null = null): KeyRecord => ({
    id: 'key_1',
    hash,
    revokedAt,
    account: { id: 'acct_1', plan: 'pro', subscriptionStatus: 'active', subscriptionEndsAt: null, ...change },
  });
  const lookupOf = (r: KeyRecord | null) => async (h: string) => (r && h === r.hash ? r : null);
  const code = async (promise: Promise<unknown>) => promise.then(() => 'ok', (e: AppError) => e.code);

  test('when the key is valid and the subscription active, then the viewer carries account and plan', async () => {
    await expect(verifyApiKey(lookupOf(record()), key)).resolves.toEqual({ keyId: 'key_1', accountId: 'acct_1', plan: 'pro', subscriptionEndsAt: null });
  });
  test('when the key is missing, malformed, unknown or revoked, then it is UNAUTHENTICATED', async () => {
    expect(await code(verifyApiKey(lookupOf(record()), undefined))).toBe('UNAUTHENTICATED');
    expect(await code(verifyApiKey(lookupOf(record()), 'sk_short'))).toBe('UNAUTHENTICATED');
    expect(await code(verifyApiKey(lookupOf(null), key))).toBe('UNAUTHENTICATED');
    expect(await code(verifyApiKey(lookupOf(record({}, new Date())), key))).toBe('UNAUTHENTICATED');
  });
  test('when the subscription ended or is not active, then it is SUBSCRIPTION_EXPIRED', async () => {
    const now = new Date('2026-11-22T00:00:00Z');
    expect(await code(verifyApiKey(lookupOf(record({ subscriptionEndsAt: new Date('2026-11-21T23:59:59Z') })), key, now))).toBe('SUBSCRIPTION_EXPIRED');
    expect(await code(verifyApiKey(lookupOf(record({ subscriptionEndsAt: new Date('2026-11-22T00:00:01Z') })), key, now))).toBe('ok');
    expect(await code(verifyApiKey(lookupOf(record({ subscriptionStatus: 'canceled' })), key, now))).toBe('SUBSCRIPTION_EXPIRED');
    expect(await code(verifyApiKey(lookupOf(record({ subscriptionStatus: 'inactive' })), key, now))).toBe('SUBSCRIPTION_EXPIRED');
  });
});
