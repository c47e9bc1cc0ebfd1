import { randomBytes, randomUUID } from 'node:crypto';
import type { Plan, SubscriptionStatus } from '../domain';
import { hashApiKey, KEY_PREFIX } from '../api-keys';
import type { PrismaClient } from './client';

// Accounts and API keys: shared by the `odds keys|accounts` commands and the admin GraphQL
// mutations of a running server (which holds the embedded database, so the CLI cannot).

/** A new secret key: `sk_` + 32 random bytes (base64url). Shown once, stored only as its hash. */
export function generateApiKey(): { id: string; key: string; hash: string; prefix: string } {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  return { id: `key_${randomUUID()}`, key, hash: hashApiKey(key), prefix: key.slice(0, 10) };
}

export interface CreatedKey {
  id: string;
  key: string;
  account_id: string;
  plan: Plan;
  expires_at: string | null;
  name: string | null;
}

export interface KeyListing {
  id: string;
  name: string | null;
  prefix: string;
  account_id: string;
  plan: Plan;
  created_at: string;
  revoked_at: string | null;
  expires_at: string | null;
}

export async function createAccount(
  prisma: PrismaClient,
  input: { name: string; plan: Plan; subscriptionEndsAt?: Date | null },
) {
  return prisma.account.create({
    data: { id: `acct_${randomUUID()}`, name: input.name, plan: input.plan, subscriptionEndsAt: input.subscriptionEndsAt ?? null },
  });
}

/**
 * Creates a key; without `accountId`, a new account with `plan` and `expiresAt` as its
 * subscription end. The key itself is returned here only.
 */
export async function createKey(
  prisma: PrismaClient,
  input: { accountId?: string | undefined; plan?: Plan | undefined; expiresAt?: Date | null | undefined; name?: string | null | undefined },
): Promise<CreatedKey> {
  let account = input.accountId
    ? await prisma.account.findUnique({ where: { id: input.accountId } })
    : await createAccount(prisma, { name: input.name ?? 'default', plan: input.plan ?? 'starter', subscriptionEndsAt: input.expiresAt ?? null });
  if (!account) throw new Error(`account ${input.accountId} not found`);
  // The plan and the subscription end belong to the account: asked for with an existing account,
  // they move the account (and so every key of it).
  if (input.accountId && ((input.plan && input.plan !== account.plan) || input.expiresAt !== undefined)) {
    account = await prisma.account.update({
      where: { id: account.id },
      data: { ...(input.plan && { plan: input.plan }), ...(input.expiresAt !== undefined && { subscriptionEndsAt: input.expiresAt }) },
    });
  }
  const generated = generateApiKey();
  await prisma.apiKey.create({
    data: { id: generated.id, accountId: account.id, name: input.name ?? null, hash: generated.hash, prefix: generated.prefix },
  });
  return {
    id: generated.id,
    key: generated.key,
    account_id: account.id,
    plan: account.plan,
    expires_at: account.subscriptionEndsAt?.toISOString() ?? null,
    name: input.name ?? null,
  };
}

export async function listKeys(prisma: PrismaClient): Promise<KeyListing[]> {
  const keys = await prisma.apiKey.findMany({ include: { account: true }, orderBy: { createdAt: 'asc' } });
  return keys.map((k) => ({
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    account_id: k.accountId,
    plan: k.account.plan,
    created_at: k.createdAt.toISOString(),
    revoked_at: k.revokedAt?.toISOString() ?? null,
    expires_at: k.account.subscriptionEndsAt?.toISOString() ?? null,
  }));
}

/** Revokes a key at once; returns false when there is no such key. Revoking twice is harmless. */
export async function revokeKey(prisma: PrismaClient, id: string): Promise<boolean> {
  const key = await prisma.apiKey.findUnique({ where: { id } });
  if (!key) return false;
  if (!key.revokedAt) await prisma.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
  return true;
}

export async function listAccounts(prisma: PrismaClient) {
  return prisma.account.findMany({ orderBy: { createdAt: 'asc' }, include: { _count: { select: { apiKeys: true } } } });
}

/** Changes plan, subscription status or end date; returns null when there is no such account. */
export async function updateAccount(
  prisma: PrismaClient,
  id: string,
  change: { plan?: Plan | undefined; subscriptionStatus?: SubscriptionStatus | undefined; subscriptionEndsAt?: Date | null | undefined },
) {
  const account = await prisma.account.findUnique({ where: { id } });
  if (!account) return null;
  return prisma.account.update({ where: { id }, data: change });
}
