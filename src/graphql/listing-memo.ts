import { LRUCache } from 'lru-cache';

// The built cross-game listings of the current data version, kept so that the pages of one listing
// do not each read and de-vig the whole day again (issue 22: a cold /markets/player_props page in
// under 50 ms). A listing is a pure function of the stored prices and the clock's flags, and both
// only change when the data version advances (an ingest, or a staleness flag flipping: the data
// version's clock), so an entry is valid for exactly one version: the memo empties when the version
// moves on, as the response cache drops the answers of past versions. The response cache keys on a
// whole URL; this one keys on the listing without its page, so offset=100 after offset=0 (or a
// warm-up of the first page after an ingest) pays only for presenting its page.

/** Most listing entries the memo holds across its listings (about 1 kB each as built). */
export const LISTING_MEMO_MAX_ENTRIES = 50_000;

export interface ListingMemo {
  /**
   * The value memoised under `key` for the current data version, else `compute()`'s, stored when it
   * resolves (a rejection is not stored). Concurrent askers of one key share one computation.
   * `size` counts what a value holds (its entries), bounded by LISTING_MEMO_MAX_ENTRIES in all.
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
