import { hashApiKey, sameHash } from '../auth/api-keys';
import { bearerToken, verifyApiKey, type Viewer } from '../auth/viewer';
import type { Database } from '../db/client';
import { createKeyLookup } from '../db/key-store';
import { AppError } from '../errors';
import { createLoaders, type Loaders } from './loaders';

/**
 * Who sent a request. Resolved once per request (or socket / subscription) by `authenticate` and
 * checked per root field by the schema (src/graphql/schema.ts), so every transport applies the same
 * rules: an API key for queries and subscriptions, the admin key for admin fields.
 */
export type Auth =
  | { kind: 'viewer'; viewer: Viewer }
  | { kind: 'admin' }
  /** No usable credentials; `error` says why (401 missing/unknown/revoked, 403 subscription). */
  | { kind: 'none'; error: AppError };

/** What every resolver receives. */
export interface GraphQLContext {
  auth: Auth;
  /** The API key's viewer, or null (admin or anonymous). */
  viewer: Viewer | null;
  db: Database;
  loaders: Loaders;
  /** The request's time: one clock reading per request, so "today" and staleness agree. */
  now: Date;
  /** IANA zone of the league's calendar day (`date` parameters). */
  timeZone: string;
}

export interface AuthDeps {
  db: Database;
  /** ADMIN_KEY; admin fields are disabled without it. */
  adminKey: string | undefined;
}

/**
 * Resolves an `Authorization` header value to an Auth. Never throws for bad credentials (they become
 * `{kind: 'none', error}`); the admin key is compared by hash in constant time. No cache, so a
 * revoked key fails on the next request.
 */
export async function authenticate(deps: AuthDeps, authorization: string | string[] | undefined, now = new Date()): Promise<Auth> {
  const token = bearerToken(authorization);
  if (token && deps.adminKey && sameHash(hashApiKey(token), hashApiKey(deps.adminKey))) return { kind: 'admin' };
  try {
    return { kind: 'viewer', viewer: await verifyApiKey(createKeyLookup(deps.db.prisma), token, now) };
  } catch (error) {
    if (error instanceof AppError) return { kind: 'none', error };
    throw error;
  }
}

/** A fresh context: new DataLoaders, so nothing is cached across requests. */
export function createContext(input: { auth: Auth; db: Database; now: Date; timeZone: string }): GraphQLContext {
  return {
    auth: input.auth,
    viewer: input.auth.kind === 'viewer' ? input.auth.viewer : null,
    db: input.db,
    loaders: createLoaders(input.db.prisma),
    now: input.now,
    timeZone: input.timeZone,
  };
}
