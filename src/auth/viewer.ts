import { AppError } from '../errors';
import { hashApiKey, looksLikeApiKey, sameHash } from '../api-keys';

import { PLANS, type Plan, type SubscriptionStatus } from '../domain/vocabulary';

// The plans are the domain's vocabulary; re-exported for the modules that know them from here.
export { PLANS, type Plan };

/** Who is calling: resolved from an API key once per request (or per socket / subscription). */
export interface Viewer {
  keyId: string;
  accountId: string;
  plan: Plan;
  subscriptionEndsAt: Date | null;
}

/** A stored key with its account, as the key store returns it. */
export interface KeyRecord {
  id: string;
  hash: string;
  revokedAt: Date | null;
  account: { id: string; plan: Plan; subscriptionStatus: SubscriptionStatus; subscriptionEndsAt: Date | null };
}

/** Finds a key by its hash (the db layer implements it; auth holds no SQL). */
export type KeyLookup = (hash: string) => Promise<KeyRecord | null>;

/** `Authorization: Bearer sk_...` -> the key, or undefined. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value ?? '');
  return match?.[1];
}

/**
 * Checks a key and its account: 401 when missing, unknown or revoked; 403 when the account's
 * subscription is inactive, cancelled or past its end date. No cache: a revocation takes effect on
 * the next request.
 */
export async function verifyApiKey(lookup: KeyLookup, key: string | undefined, now = new Date()): Promise<Viewer> {
  if (!key || !looksLikeApiKey(key)) throw new AppError('UNAUTHENTICATED');
  const hash = hashApiKey(key);
  const record = await lookup(hash);
  if (!record || !sameHash(record.hash, hash) || record.revokedAt) throw new AppError('UNAUTHENTICATED');
  const { account } = record;
  const ended = account.subscriptionEndsAt !== null && account.subscriptionEndsAt.getTime() <= now.getTime();
  if (account.subscriptionStatus !== 'active' || ended) throw new AppError('SUBSCRIPTION_EXPIRED');
  return { keyId: record.id, accountId: account.id, plan: account.plan, subscriptionEndsAt: account.subscriptionEndsAt };
}

/** Plans that may use each gated feature (spec 5.9); everything else is open to every plan. */
export const PLAN_GATES = {
  liveOdds: PLANS,
  lineMovement: ['pro', 'elite'],
  historical: ['pro', 'elite'],
  webhooks: ['pro', 'elite'],
} as const satisfies Record<string, readonly Plan[]>;

export type GatedFeature = keyof typeof PLAN_GATES;

/** Throws 403 naming the plans that include `feature` when the viewer's plan does not. */
export function requirePlan(viewer: Viewer, feature: GatedFeature, what: string): void {
  const allowed: readonly Plan[] = PLAN_GATES[feature];
  if (!allowed.includes(viewer.plan)) {
    const names = allowed.map((p) => p[0]!.toUpperCase() + p.slice(1)).join(' or ');
    throw new AppError('PLAN_REQUIRED', `Forbidden: ${what} requires the ${names} plan (your plan: ${viewer.plan})`);
  }
}

/**
 * What a plan may see, as a key: the gated features it passes. Plans with the same gates get the
 * same answers (Pro and Elite today), so response caches share them.
 */
export function planVisibility(plan: Plan): string {
  return (Object.keys(PLAN_GATES) as GatedFeature[]).filter((f) => (PLAN_GATES[f] as readonly Plan[]).includes(plan)).join(',');
}
