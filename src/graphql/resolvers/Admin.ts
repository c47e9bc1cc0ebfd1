import { createAccount, createKey, listKeys, revokeKey, updateAccount } from '../../db/account-store';
import { AppError } from '../../errors';
import type { AccountResolvers, MutationResolvers, QueryResolvers } from '../__generated__/resolvers-types';

// Admin operations (schema/admin.graphql). The admin-key check is the schema's root-field guard.

export const AdminQuery: Pick<QueryResolvers, 'api_keys'> = {
  api_keys: (_root, _args, ctx) => listKeys(ctx.db.prisma),
};

export const Mutation: MutationResolvers = {
  ok: () => true,
  createAccount: (_root, args, ctx) =>
    createAccount(ctx.db.prisma, { name: args.name, plan: args.plan, subscriptionEndsAt: args.subscription_ends_at ?? null }),
  createApiKey: async (_root, args, ctx) => {
    try {
      const key = await createKey(ctx.db.prisma, {
        accountId: args.account_id ?? undefined,
        plan: args.plan ?? undefined,
        expiresAt: args.expires_at,
        name: args.name ?? null,
      });
      return { ...key, expires_at: key.expires_at ? new Date(key.expires_at) : null };
    } catch (error) {
      if (args.account_id && error instanceof Error && /not found/.test(error.message)) throw new AppError('NOT_FOUND', `account ${args.account_id} not found`);
      throw error;
    }
  },
  // Each change is announced after its write, so every API process drops the key before we answer.
  revokeApiKey: async (_root, args, ctx) => {
    const revoked = await revokeKey(ctx.db.prisma, args.id);
    if (revoked) await ctx.keyChanged?.({ keyId: args.id });
    return revoked;
  },
  updateAccount: async (_root, args, ctx) => {
    const account = await updateAccount(ctx.db.prisma, args.id, {
      plan: args.plan ?? undefined,
      subscriptionStatus: args.subscription_status ?? undefined,
      // null clears the end date; absent leaves it alone
      subscriptionEndsAt: args.subscription_ends_at === undefined ? undefined : args.subscription_ends_at,
    });
    if (account) await ctx.keyChanged?.({ accountId: args.id });
    return account;
  },
};

export const Account: AccountResolvers = {
  subscription_status: (a) => a.subscriptionStatus,
  subscription_ends_at: (a) => a.subscriptionEndsAt,
};
