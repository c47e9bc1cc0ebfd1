/**
 * Recent REST results, by route operation, plan and variables. Stored data only changes when a
 * document is ingested, so entries live until the next ingest event (the app clears the cache on
 * every bus event, from any process) and at most `ttlMs`, because a few fields follow the clock
 * (staleness flags, "today"). The body is kept serialised: a hit costs no GraphQL and no JSON work.
 */
export interface ResultCache {
  get(key: string): string | undefined;
  set(key: string, body: string): void;
  clear(): void;
  /** Bumped by clear(): a result computed under an older version must not be stored. */
  readonly version: number;
}

export function createResultCache(ttlMs: number, maxEntries = 500, now: () => number = Date.now): ResultCache {
  const entries = new Map<string, { body: string; expires: number }>();
  let version = 0;
  return {
    get version() {
      return version;
    },
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expires <= now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.body;
    },
    set(key, body) {
      if (ttlMs <= 0) return;
      // Oldest first out: Map keeps insertion order.
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, { body, expires: now() + ttlMs });
    },
    clear() {
      version++;
      entries.clear();
    },
  };
}
