import type { Plan, SubscriptionStatus } from '../domain';
import type { PrismaClient } from './client';

/**
 * A stored key with its account. It has the shape of auth's KeyRecord (src/auth/viewer.ts): auth reads
 * keys through its KeyLookup, which createKeyLookup implements (app.ts hands one to the other, where the
 * compiler checks that the shapes agree); db does not import auth.
 */
export interface StoredKey {
  id: string;
  hash: string;
  revokedAt: Date | null;
  account: { id: string; plan: Plan; subscriptionStatus: SubscriptionStatus; subscriptionEndsAt: Date | null };
}

/**
 * The key lookup auth needs, on every request: one indexed read by hash joined with the account.
 * Written as one SQL statement because it sits on every request's path (Prisma's include made it
 * two round trips); no cache, so a revocation holds from the next request on.
 */
export function createKeyLookup(prisma: PrismaClient) {
  return async (hash: string): Promise<StoredKey | null> => {
    const rows = await prisma.$queryRaw<
      Array<{ id: string; hash: string; revokedAt: Date | null; accountId: string; plan: Plan; status: SubscriptionStatus; endsAt: Date | null }>
    >`SELECT k."id", k."hash", k."revokedAt", a."id" AS "accountId", a."plan"::text AS "plan", a."subscriptionStatus"::text AS "status", a."subscriptionEndsAt" AS "endsAt"
      FROM "ApiKey" k JOIN "Account" a ON a."id" = k."accountId" WHERE k."hash" = ${hash}`;
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      hash: row.hash,
      revokedAt: row.revokedAt,
      account: { id: row.accountId, plan: row.plan, subscriptionStatus: row.status, subscriptionEndsAt: row.endsAt },
    };
  };
}
