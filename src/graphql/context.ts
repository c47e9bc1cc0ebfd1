import type { Auth } from '../auth/authenticate';
import type { Viewer } from '../auth/viewer';
import type { Database } from '../db/client';
import type { KeyChangeEvent } from '../events/bus';
import type { ListingMemo } from '../services/listing-memo';
import type { ReadContext } from '../services/read-context';
import { createLoaders, type Loaders } from './loaders';

export type { Auth } from '../auth/authenticate';

/** What every resolver receives; the services read with it (a ReadContext). */
export interface GraphQLContext extends ReadContext {
  auth: Auth;
  /** The API key's viewer, or null (admin or anonymous). */
  viewer: Viewer | null;
  db: Database;
  loaders: Loaders;
  /** The request's time: one clock reading per request, so "today" and staleness agree. */
  now: Date;
  /** IANA zone of the league's calendar day (`date` parameters). */
  timeZone: string;
  /**
   * Tells every API process that a key or account changed (admin mutations call it after the write),
   * so cached keys are dropped and sockets re-checked at once. Absent where nothing listens.
   */
  keyChanged?: ((change: KeyChangeEvent) => Promise<void>) | undefined;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: webhooks may point at private and loopback addresses (tests, demo). */
  allowPrivateWebhookTargets: boolean;
  /** The built listings of the current data version (listing-memo.ts); absent: every page builds its listing. */
  listingMemo?: ListingMemo | undefined;
}

/** A fresh context: new DataLoaders, so nothing is cached across requests. */
export function createContext(input: {
  auth: Auth;
  db: Database;
  now: Date;
  timeZone: string;
  keyChanged?: GraphQLContext['keyChanged'];
  allowPrivateWebhookTargets?: boolean;
  listingMemo?: ListingMemo;
}): GraphQLContext {
  return {
    auth: input.auth,
    viewer: input.auth.kind === 'viewer' ? input.auth.viewer : null,
    db: input.db,
    loaders: createLoaders(input.db.prisma),
    now: input.now,
    timeZone: input.timeZone,
    keyChanged: input.keyChanged,
    allowPrivateWebhookTargets: input.allowPrivateWebhookTargets ?? false,
    listingMemo: input.listingMemo,
  };
}
