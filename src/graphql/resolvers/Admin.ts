import { createAccount, createApiKey, listApiKeys, revokeApiKey, updateAccount } from '../../services/accounts';
import type { AccountResolvers, ApiKeyListingResolvers, MutationResolvers, QueryResolvers } from '../__generated__/resolvers-types';

// Admin operations (schema/admin.graphql; src/services/accounts.ts). The admin-key check is the
// schema's root-field guard.

export const AdminQuery: Pick<QueryResolvers, 'apiKeys'> = {
  apiKeys: (_root, _args, ctx) => listApiKeys(ctx),
};

export const Mutation: MutationResolvers = {
  ok: () => true,
  createAccount: (_root, args, ctx) => createAccount(ctx, args),
  createApiKey: (_root, args, ctx) => createApiKey(ctx, args),
  // Each change is announced after its write, so every API process drops the key before we answer.
  revokeApiKey: (_root, args, ctx) => revokeApiKey(ctx, args.id, ctx.keyChanged),
  updateAccount: (_root, args, ctx) => updateAccount(ctx, args.id, args, ctx.keyChanged),
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
