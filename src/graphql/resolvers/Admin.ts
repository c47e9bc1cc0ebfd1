import { createAccount, createKey, listKeys, revokeKey, updateAccount } from '../../db/account-store';
import { AppError } from '../../errors';
import { refuseControlCharacters } from '../../services/arguments';
import type { AccountResolvers, ApiKeyListingResolvers, MutationResolvers, QueryResolvers } from '../__generated__/resolvers-types';

// Admin operations (schema/admin.graphql). The admin-key check is the schema's root-field guard.

export const AdminQuery: Pick<QueryResolvers, 'apiKeys'> = {
  apiKeys: (_root, _args, ctx) => listKeys(ctx.db.prisma),
};

export const Mutation: MutationResolvers = {
  ok: () => true,
  createAccount: (_root, args, ctx) => {
    refuseControlCharacters('name', args.name);
    return createAccount(ctx.db.prisma, { name: args.name, plan: args.plan, subscriptionEndsAt: args.subscriptionEndsAt ?? null });
  },
  createApiKey: async (_root, args, ctx) => {
    if (args.name) refuseControlCharacters('name', args.name);
    if (args.accountId) refuseControlCharacters('accountId', args.accountId);
    try {
      const key = await createKey(ctx.db.prisma, {
        accountId: args.accountId ?? undefined,
        plan: args.plan ?? undefined,
        expiresAt: args.expiresAt,
        name: args.name ?? null,
      });
      return { id: key.id, key: key.key, accountId: key.account_id, plan: key.plan, expiresAt: key.expires_at ? new Date(key.expires_at) : null, name: key.name };
    } catch (error) {
      if (args.accountId && error instanceof Error && /not found/.test(error.message)) throw new AppError('NOT_FOUND', `account ${args.accountId} not found`);
      throw error;
    }
  },
  // Each change is announced after its write, so every API process drops the key before we answer.
  revokeApiKey: async (_root, args, ctx) => {
    refuseControlCharacters('id', args.id);
    const revoked = await revokeKey(ctx.db.prisma, args.id);
    if (revoked) await ctx.keyChanged?.({ keyId: args.id });
    return revoked;
  },
  updateAccount: async (_root, args, ctx) => {
    refuseControlCharacters('id', args.id);
    const account = await updateAccount(ctx.db.prisma, args.id, {
      plan: args.plan ?? undefined,
      subscriptionStatus: args.subscriptionStatus ?? undefined,
      // null clears the end date; absent leaves it alone
      subscriptionEndsAt: args.subscriptionEndsAt === undefined ? undefined : args.subscriptionEndsAt,
    });
    if (account) await ctx.keyChanged?.({ accountId: args.id });
    return account;
  },
};

export const Account: AccountResolvers = {
  subscriptionStatus: (a) => a.subscriptionStatus,
  subscriptionEndsAt: (a) => a.subscriptionEndsAt,
};

// The account store lists keys in the CLI's snake_case shape (`odds keys list`).
export const ApiKeyListing: ApiKeyListingResolvers = {
  accountId: (k) => k.account_id,
  createdAt: (k) => new Date(k.created_at),
  revokedAt: (k) => (k.revoked_at ? new Date(k.revoked_at) : null),
  expiresAt: (k) => (k.expires_at ? new Date(k.expires_at) : null),
};
