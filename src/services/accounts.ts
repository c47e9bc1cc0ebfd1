import { createAccount as insertAccount, createKey, listKeys, revokeKey, updateAccount as changeAccount, type KeyListing } from '../db/account-store';
import type { Account } from '../db/client';
import type { Plan, SubscriptionStatus } from '../domain';
import { AppError } from '../errors';
import type { KeyChangeEvent } from '../events/bus';
import { refuseControlCharacters } from './arguments';
import type { ReadContext } from './read-context';

// Accounts and API keys (schema/admin.graphql; the admin-key check is the caller's). Each change of a
// key or account is announced after its write (`keyChanged`), so every API process drops the key
// before the caller answers.

export type { Account, KeyListing };

type Db = Pick<ReadContext, 'db'>;
/** Tells every API process that a key or account changed; absent where nothing listens. */
type KeyChanged = ((change: KeyChangeEvent) => Promise<void>) | undefined;

/** Every API key, in the CLI's snake_case shape (`odds keys list`). */
export const listApiKeys = (ctx: Db): Promise<KeyListing[]> => listKeys(ctx.db.prisma);

/** A new account. @throws AppError BAD_REQUEST (control characters in the name) */
export function createAccount(ctx: Db, input: { name: string; plan: Plan; subscriptionEndsAt?: Date | null | undefined }): Promise<Account> {
  refuseControlCharacters('name', input.name);
  return insertAccount(ctx.db.prisma, { name: input.name, plan: input.plan, subscriptionEndsAt: input.subscriptionEndsAt ?? null });
}

/**
 * A new key (of `accountId`, else of a new account with `plan` and `expiresAt`); the key itself is
 * returned here only. @throws AppError BAD_REQUEST (control characters) or NOT_FOUND (no such account)
 */
export async function createApiKey(
  ctx: Db,
  input: { accountId?: string | null | undefined; plan?: Plan | null | undefined; expiresAt?: Date | null | undefined; name?: string | null | undefined },
) {
  if (input.name) refuseControlCharacters('name', input.name);
  if (input.accountId) refuseControlCharacters('accountId', input.accountId);
  try {
    const key = await createKey(ctx.db.prisma, {
      accountId: input.accountId ?? undefined,
      plan: input.plan ?? undefined,
      expiresAt: input.expiresAt,
      name: input.name ?? null,
    });
    return { id: key.id, key: key.key, accountId: key.account_id, plan: key.plan, expiresAt: key.expires_at ? new Date(key.expires_at) : null, name: key.name };
  } catch (error) {
    if (input.accountId && error instanceof Error && /not found/.test(error.message)) throw new AppError('NOT_FOUND', `account ${input.accountId} not found`);
    throw error;
  }
}

/** Revokes key `id` at once (false: no such key), then announces it. @throws AppError BAD_REQUEST (control characters) */
export async function revokeApiKey(ctx: Db, id: string, keyChanged: KeyChanged): Promise<boolean> {
  refuseControlCharacters('id', id);
  const revoked = await revokeKey(ctx.db.prisma, id);
  if (revoked) await keyChanged?.({ keyId: id });
  return revoked;
}

/**
 * Changes an account's plan, subscription status or end date (null clears the end date; absent
 * leaves it alone), then announces it; null when there is no such account.
 * @throws AppError BAD_REQUEST (control characters)
 */
export async function updateAccount(
  ctx: Db,
  id: string,
  change: { plan?: Plan | null | undefined; subscriptionStatus?: SubscriptionStatus | null | undefined; subscriptionEndsAt?: Date | null | undefined },
  keyChanged: KeyChanged,
): Promise<Account | null> {
  refuseControlCharacters('id', id);
  const account = await changeAccount(ctx.db.prisma, id, {
    plan: change.plan ?? undefined,
    subscriptionStatus: change.subscriptionStatus ?? undefined,
    subscriptionEndsAt: change.subscriptionEndsAt === undefined ? undefined : change.subscriptionEndsAt,
  });
  if (account) await keyChanged?.({ accountId: id });
  return account;
}
