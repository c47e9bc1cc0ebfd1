import { LRUCache } from 'lru-cache';
import { AppError } from '../errors';
import { hashApiKey, sameHash } from '../api-keys';
import { createKeyWatch, type KeyWatch } from './live-key';
import { bearerToken, verifyApiKey, type KeyLookup, type KeyRecord, type Viewer } from './viewer';

/**
 * Who sent a request. Resolved once per request (or socket / subscription) by the authenticator and
 * checked per root field by the schema (src/graphql/schema.ts), so every transport applies the same
 * rules: an API key for queries and subscriptions, the admin key for admin fields.
 */
export type Auth =
  | { kind: 'viewer'; viewer: Viewer }
  | { kind: 'admin' }
  /** No usable credentials; `error` says why (401 missing/unknown/revoked, 403 subscription). */
  | { kind: 'none'; error: AppError };

/** What a key or account change names; absent fields mean "any" (`{}` forgets every key). */
export interface KeyChange {
  keyId?: string | undefined;
  accountId?: string | undefined;
}

export interface AuthenticatorOptions {
  /** The store's key lookup (src/db/key-store.ts); called only on a cache miss. */
  lookup: KeyLookup;
  /** ADMIN_KEY; admin fields are disabled without it. */
  adminKey: string | undefined;
  now?: () => Date;
  /**
   * Longest time a verified key is trusted without asking the store again (default 60 s): the safety
   * net behind the bus, which drops a changed key at once.
   */
  ttlMs?: number;
  /** Bytes the verified keys may hold (default 16 MiB, about 16,000 keys), least recently used out first. */
  maxBytes?: number;
  /** What the key cache does (metrics): hit, miss, evict, expire. */
  onCacheEvent?: (event: 'hit' | 'miss' | 'evict' | 'expire') => void;
  /** Period of the re-check of connected sockets' keys, in memory (default 500 ms). */
  watchIntervalMs?: number;
  onError?: (error: Error) => void;
}

/** The one authentication of every transport: REST, GraphQL over HTTP, graphql-ws and Socket.IO. */
export interface Authenticator {
  /** An `Authorization` header value -> Auth. Never throws for bad credentials. */
  authenticate(authorization: string | string[] | undefined): Promise<Auth>;
  /** The key lookup through the in-memory cache (what the live transports verify with). */
  readonly lookup: KeyLookup;
  /** Watches connected sockets' keys; a failing key's sockets are told at once. */
  readonly keyWatch: KeyWatch;
  /** A key or account changed (the 'keys' bus topic): forget it now and re-check connected sockets. */
  keyChanged(change: KeyChange): Promise<void>;
  close(): void;
}


/** Bytes one verified key is counted for in the key cache. */
const KEY_ENTRY_BYTES = 1024;

/**
 * Builds the authenticator: verified keys are held in memory (hash -> stored key with its account),
 * so no request reads the database after the first one of a key; the bus (`keyChanged`) and a TTL
 * bound how long a change can go unseen. Expiry dates are checked against the clock on every request.
 */
export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const now = options.now ?? (() => new Date());
  const ttlMs = options.ttlMs ?? 60_000;
  const adminHash = options.adminKey ? hashApiKey(options.adminKey) : undefined;
  // Bounded in bytes, so keys used once long ago do not stay forever; the TTL is the safety net behind
  // the bus. A record is a fixed handful of short fields: its hash key, ids, plan, dates (~1 KiB with
  // the LRU's own bookkeeping).
  const onCacheEvent = options.onCacheEvent;
  const entries = new LRUCache<string, KeyRecord>({
    maxSize: options.maxBytes ?? 16 * 1024 * 1024,
    sizeCalculation: () => KEY_ENTRY_BYTES,
    ttl: ttlMs,
    ...(onCacheEvent && { dispose: (_record: KeyRecord, _hash: string, reason: LRUCache.DisposeReason) => (reason === 'evict' || reason === 'expire') && onCacheEvent(reason) }),
  });
  // A change that arrives while a lookup is in flight must not be undone by the lookup's older answer.
  let generation = 0;

  const lookup: KeyLookup = async (hash) => {
    const cached = entries.get(hash);
    onCacheEvent?.(cached ? 'hit' : 'miss');
    if (cached) return cached;
    const started = generation;
    const record = await options.lookup(hash);
    // Unknown keys are not remembered: a flood of made-up keys must not fill memory.
    if (record && started === generation) entries.set(hash, record);
    else if (!record) entries.delete(hash);
    return record;
  };

  const keyWatch = createKeyWatch(lookup, { now, intervalMs: options.watchIntervalMs ?? 500, ...(options.onError && { onError: options.onError }) });

  return {
    lookup,
    keyWatch,
    async authenticate(authorization) {
      const token = bearerToken(authorization);
      if (token && adminHash && sameHash(hashApiKey(token), adminHash)) return { kind: 'admin' };
      try {
        return { kind: 'viewer', viewer: await verifyApiKey(lookup, token, now()) };
      } catch (error) {
        if (error instanceof AppError) return { kind: 'none', error };
        throw error;
      }
    },
    async keyChanged(change) {
      generation++;
      for (const [hash, record] of [...entries.entries()]) {
        const matches = (!change.keyId || record.id === change.keyId) && (!change.accountId || record.account.id === change.accountId);
        if (matches) entries.delete(hash);
      }
      await keyWatch.checkNow();
    },
    close() {
      keyWatch.close();
      entries.clear();
    },
  };
}
