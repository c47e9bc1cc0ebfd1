import { LRUCache } from 'lru-cache';

// Every in-memory cache of the request path is one of these: an LRU bounded in bytes, where an
// entry's size counts its key as well as its value (a request can choose a long key: 1,480 ids in a
// URL cost more than the empty answer they ask for), and expired entries are dropped when found or
// when `purgeStale()` sweeps. What each cache does is told to `onEvent` (the app counts it in /metrics).

/** What a cache reports: a look-up found an entry or not; an entry left for room or because it expired. */
export type CacheEvent = 'hit' | 'miss' | 'evict' | 'expire';

/** Bytes of bookkeeping per entry beyond its key and value (the LRU's slots, the Map entry, object headers). */
export const ENTRY_OVERHEAD_BYTES = 200;

/** Bytes a string takes in memory: one per character for Latin-1, two otherwise (V8's two string forms). */
export function stringBytes(text: string): number {
  return /[^\u0000-\u00ff]/.test(text) ? text.length * 2 : text.length;
}

export interface BoundedCacheOptions<V> {
  /** Upper bound of the bytes held, keys, values and bookkeeping included. */
  maxBytes: number;
  /** Bytes `value` holds besides its key (an estimate; it should not undercount). */
  sizeOf(value: V): number;
  /** Largest single entry (default: a quarter of maxBytes), so one answer never empties the cache. */
  maxEntryBytes?: number;
  /** Entries older than this are dropped when found or swept (ms); absent: no age limit. */
  ttlMs?: number;
  onEvent?: (event: CacheEvent) => void;
}

/** An LRU cache bounded in bytes whose `get` reports hits and misses (`peek` reports nothing). */
export class BoundedCache<V extends {}> extends LRUCache<string, V> {
  readonly #onEvent: ((event: CacheEvent) => void) | undefined;

  constructor(options: BoundedCacheOptions<V>) {
    const onEvent = options.onEvent;
    super({
      maxSize: options.maxBytes,
      maxEntrySize: options.maxEntryBytes ?? Math.floor(options.maxBytes / 4),
      sizeCalculation: (value, key) => Math.max(1, stringBytes(key) + options.sizeOf(value) + ENTRY_OVERHEAD_BYTES),
      ...(options.ttlMs && { ttl: options.ttlMs, ttlAutopurge: false }),
      ...(onEvent && {
        dispose: (_value: V, _key: string, reason: LRUCache.DisposeReason) => {
          if (reason === 'evict' || reason === 'expire') onEvent(reason);
        },
      }),
    });
    this.#onEvent = onEvent;
  }

  override get(key: string, options?: LRUCache.GetOptions<string, V, unknown>): V | undefined {
    const value = super.get(key, options);
    this.#onEvent?.(value === undefined ? 'miss' : 'hit');
    return value;
  }

  /** Drops every entry whose key `stale` says is no longer useful (reported as expired); returns how many. */
  dropWhere(stale: (key: string) => boolean): number {
    let dropped = 0;
    for (const key of [...this.keys()]) {
      if (stale(key)) {
        // dispose reports 'delete' for this; it is an expiry to the reader of the metrics
        this.delete(key);
        this.#onEvent?.('expire');
        dropped++;
      }
    }
    return dropped;
  }
}
