import { LRUCache } from 'lru-cache';

// The rows the cross-game listings are computed from (the games of the scope, their quotes, the
// books), kept for the current data version so that the pages of one listing, and the listings that
// share a scope (another sort, de-vig method or filter), do not each read the whole day again
// (issue 22: a cold /markets/player_props page in under 50 ms). The rows are a function of the
// stored prices alone, which change only when the data version advances (an ingest), so an entry is
// valid for exactly one version: the memo empties when the version moves on, as the response cache
// drops the answers of past versions. What depends on the clock (ages, staleness, whether a game has
// started) is computed by each request from these rows at its own time, so the answers are those a
// fresh read would give. After an ingest, the response cache's warm-up reads them once again.

/** Most quotes the memo holds across its scopes (a quote row is about 0.5 kB in memory). */
export const LISTING_MEMO_MAX_ENTRIES = 50_000;

export interface ListingMemo {
  /**
   * The value memoised under `key` for the current data version, else `compute()`'s, stored when it
   * resolves (a rejection is not stored). Concurrent askers of one key share one computation.
   * `size` counts what a value holds (its quotes), bounded by LISTING_MEMO_MAX_ENTRIES in all.
   */
  get<T>(key: string, compute: () => Promise<T>, size: (value: T) => number): Promise<T>;
}

/** A memo bound to `version` (the data version every cache keys on). */
export function createListingMemo(version: () => number, maxEntries = LISTING_MEMO_MAX_ENTRIES): ListingMemo {
  let at = version();
  const cache = new LRUCache<string, { value: Promise<unknown>; size: number }>({
    maxSize: maxEntries,
    // A listing larger than the whole budget is computed every time rather than evicting everything.
    maxEntrySize: maxEntries,
    sizeCalculation: (e) => Math.max(1, e.size),
  });
  return {
    async get<T>(key: string, compute: () => Promise<T>, size: (value: T) => number): Promise<T> {
      const now = version();
      if (now !== at) {
        cache.clear();
        at = now;
      }
      const hit = cache.get(key);
      if (hit) return hit.value as Promise<T>;
      const value = compute();
      // Held while computing (size 1), so a burst of askers shares it; re-sized once known.
      cache.set(key, { value, size: 1 });
      try {
        const result = await value;
        if (version() === now && cache.get(key)?.value === value) cache.set(key, { value, size: size(result) });
        return result;
      } catch (error) {
        if (cache.get(key)?.value === value) cache.delete(key);
        throw error;
      }
    },
  };
}
