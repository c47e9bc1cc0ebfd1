// The rows the cross-game listings are computed from (the games of the scope, their quotes, the
// books), kept for the current data version so that the pages of one listing, and the listings that
// share a scope (another sort, de-vig method or filter), do not each read the whole day again
// (issue 22: a cold /markets/player_props page in under 50 ms). The rows are a function of the
// stored prices alone, which change only when the data version advances (an ingest), so an entry is
// valid for exactly one version: the memo empties when the version moves on, as the response cache
// drops the answers of past versions. What depends on the clock (ages, staleness, whether a game has
// started) is computed by each request from these rows at its own time, so the answers are those a
// fresh read would give. After an ingest, the response cache's warm-up reads them once again.
//
// Bounded in bytes like every other cache of the service (issue 20): the store is the app's
// BoundedCache (src/rest/bounded-cache.ts, LISTING_ROWS_MAX_BYTES, `cache_*{cache="listing_rows"}`
// in /metrics), handed in by app.ts because graphql/ may not import rest/.

/** One memoised value: the promise (shared by concurrent askers) and the bytes its result holds. */
export interface ListingMemoEntry {
  value: Promise<unknown>;
  bytes: number;
}

/** What the memo needs of its store: an LRU bounded in bytes that sizes an entry by its `bytes` (and key). */
export interface ListingMemoStore {
  /** Looks an entry up (counted as a hit or a miss). */
  get(key: string): ListingMemoEntry | undefined;
  /** Looks an entry up without counting it. */
  peek(key: string): ListingMemoEntry | undefined;
  set(key: string, entry: ListingMemoEntry): unknown;
  delete(key: string): unknown;
  clear(): void;
}

export interface ListingMemo {
  /**
   * The value memoised under `key` for the current data version, else `compute()`'s, stored when it
   * resolves (a rejection is not stored). Concurrent askers of one key share one computation.
   * `bytes` estimates the memory a value holds (it should not undercount): the store's byte bound
   * counts it, and a value larger than the store's largest entry is computed every time rather than
   * evicting everything.
   */
  get<T>(key: string, compute: () => Promise<T>, bytes: (value: T) => number): Promise<T>;
}

/** Bytes estimated per listing row held in memory (a quote row with its strings and dates is about 0.5 kB; rounded up). */
export const LISTING_ROW_BYTES = { game: 512, quote: 640, book: 256 } as const;

/** Bytes the rows of one listing scope hold, by LISTING_ROW_BYTES. */
export function listingRowsBytes(rows: { games: readonly unknown[]; quotes: readonly unknown[]; books: readonly unknown[] }): number {
  return rows.games.length * LISTING_ROW_BYTES.game + rows.quotes.length * LISTING_ROW_BYTES.quote + rows.books.length * LISTING_ROW_BYTES.book;
}

/** A memo bound to `version` (the data version every cache keys on), holding its entries in `store`. */
export function createListingMemo(version: () => number, store: ListingMemoStore): ListingMemo {
  let at = version();
  return {
    async get<T>(key: string, compute: () => Promise<T>, bytes: (value: T) => number): Promise<T> {
      const now = version();
      if (now !== at) {
        store.clear();
        at = now;
      }
      const hit = store.get(key);
      if (hit) return hit.value as Promise<T>;
      const value = compute();
      // Held while computing (no bytes yet), so a burst of askers shares it; re-sized once known.
      store.set(key, { value, bytes: 0 });
      try {
        const result = await value;
        if (version() === now && store.peek(key)?.value === value) store.set(key, { value, bytes: bytes(result) });
        return result;
      } catch (error) {
        if (store.peek(key)?.value === value) store.delete(key);
        throw error;
      }
    },
  };
}
