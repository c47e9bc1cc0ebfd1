import type { EventBus, OddsChangeEvent } from './bus';

// The live topic every subscription listens to: one per process, fed by the event bus. Ingest events
// are gathered for a short debounce window and leave as one "change" tick; a timer adds an
// "interval" tick. Every subscription in the process sees the same ticks, so the work of one push
// (SQL reads, DataLoaders) can be shared through `LiveTick.shared`, whatever the number of clients.

/** Why a live payload is sent. */
export type LiveReason = 'snapshot' | 'change' | 'interval';

export interface MarketChange {
  gameId: number;
  marketType: string;
  bookId: number;
}

/** One push of the live topic. */
export interface LiveTick {
  /** Increases by one per tick of this feed. */
  seq: number;
  reason: 'change' | 'interval';
  /** When the tick left the feed. */
  at: Date;
  /** Games whose row, status or score changed (change ticks). */
  games: ReadonlySet<number>;
  /** Quotes that changed, per game, market and book (change ticks). */
  markets: readonly MarketChange[];
  /**
   * A value made once per tick and key and shared by every subscriber of the tick: the data loaders
   * and the reads of one push. Dropped with the tick.
   */
  shared<T>(key: string, make: () => T): T;
}

export interface LiveFeed {
  /** Calls `handler` with every tick from now on; returns unsubscribe. */
  onTick(handler: (tick: LiveTick) => void): () => void;
  readonly intervalMs: number;
  readonly debounceMs: number;
  /** Stops the timer and the bus subscription; handlers get no more ticks. */
  close(): void;
}

export interface LiveFeedOptions {
  /** Period of interval ticks (config.livePushIntervalMs). */
  intervalMs: number;
  /**
   * How long ingest events are gathered before a change tick (default 25 ms). A burst of documents
   * becomes one push, and a tick leaves at most this long after the first event of the burst.
   */
  debounceMs?: number;
}

/** What a subscriber wants to hear about: absent fields match everything. */
export interface LiveScope {
  gameId?: number | null | undefined;
  marketType?: string | null | undefined;
  bookId?: number | null | undefined;
}

/**
 * Whether a change tick concerns `scope`: a changed quote of the scope's game, market and book, or a
 * changed game row of the scope's game (with no game in scope, any game: one may have started or
 * ended). Interval ticks always concern every scope.
 */
export function tickConcerns(tick: LiveTick, scope: LiveScope): boolean {
  if (tick.reason === 'interval') return true;
  const gameMatches = (id: number) => scope.gameId == null || scope.gameId === id;
  if ([...tick.games].some(gameMatches)) return true;
  return tick.markets.some(
    (m) => gameMatches(m.gameId) && (scope.marketType == null || scope.marketType === m.marketType) && (scope.bookId == null || scope.bookId === m.bookId),
  );
}

function makeTick(seq: number, reason: LiveTick['reason'], games: Set<number>, markets: MarketChange[]): LiveTick {
  const memo = new Map<string, unknown>();
  return {
    seq,
    reason,
    at: new Date(),
    games,
    markets,
    shared<T>(key: string, make: () => T): T {
      if (!memo.has(key)) memo.set(key, make());
      return memo.get(key) as T;
    },
  };
}

/** The live topic of one process over `bus`; see LiveFeedOptions for the timing. */
export function createLiveFeed(bus: EventBus, options: LiveFeedOptions): LiveFeed {
  const debounceMs = options.debounceMs ?? 25;
  const handlers = new Set<(tick: LiveTick) => void>();
  let seq = 0;
  let pendingGames = new Set<number>();
  let pendingMarkets = new Map<string, MarketChange>();
  let debounce: NodeJS.Timeout | null = null;
  let closed = false;

  const emit = (tick: LiveTick) => {
    for (const handler of [...handlers]) handler(tick);
  };
  const flush = () => {
    debounce = null;
    const tick = makeTick(++seq, 'change', pendingGames, [...pendingMarkets.values()]);
    pendingGames = new Set();
    pendingMarkets = new Map();
    emit(tick);
  };
  const onEvent = (event: OddsChangeEvent) => {
    if (closed) return;
    for (const id of event.games) pendingGames.add(id);
    for (const m of event.markets) pendingMarkets.set(`${m.gameId}|${m.marketType}|${m.bookId}`, m);
    // Not reset by later events: a steady stream of documents must not postpone the push forever.
    debounce ??= setTimeout(flush, debounceMs);
  };
  const unsubscribe = bus.subscribe('odds', onEvent);
  const interval = setInterval(() => emit(makeTick(++seq, 'interval', new Set(), [])), options.intervalMs);
  // Neither timer alone should keep a process alive (main.ts decides when to exit).
  interval.unref();

  return {
    intervalMs: options.intervalMs,
    debounceMs,
    onTick(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    close() {
      closed = true;
      unsubscribe();
      clearInterval(interval);
      if (debounce) clearTimeout(debounce);
      handlers.clear();
    },
  };
}

/**
 * The ticks of `feed` that concern `scope` as an async iterator, starting with a `snapshot` item.
 * A slow consumer gets the latest pending tick, not a backlog (each push is a full snapshot, so
 * skipping one loses nothing). `return()` unsubscribes.
 */
export function liveTicks(feed: LiveFeed, scope: LiveScope): AsyncIterableIterator<LiveTick | { reason: 'snapshot' }> {
  let first = true;
  let pending: LiveTick | null = null;
  let wake: ((result: IteratorResult<LiveTick | { reason: 'snapshot' }>) => void) | null = null;
  let done = false;
  const unsubscribe = feed.onTick((tick) => {
    if (done || !tickConcerns(tick, scope)) return;
    if (wake) {
      const resolve = wake;
      wake = null;
      resolve({ value: tick, done: false });
    } else {
      pending = tick;
    }
  });
  const finish = (): Promise<IteratorResult<LiveTick>> => {
    done = true;
    unsubscribe();
    pending = null;
    if (wake) wake({ value: undefined, done: true });
    wake = null;
    return Promise.resolve({ value: undefined, done: true });
  };
  return {
    next() {
      if (done) return Promise.resolve({ value: undefined, done: true });
      if (first) {
        first = false;
        return Promise.resolve({ value: { reason: 'snapshot' as const }, done: false });
      }
      if (pending) {
        const tick = pending;
        pending = null;
        return Promise.resolve({ value: tick, done: false });
      }
      return new Promise((resolve) => {
        wake = resolve;
      });
    },
    return: finish,
    throw(error) {
      void finish();
      return Promise.reject(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

const FEED = Symbol('liveFeed');

/** Gives a (subscription) context the live feed its resolvers read through `liveFeedOf`. */
export function attachLiveFeed<C extends object>(context: C, feed: LiveFeed): C {
  (context as Record<symbol, unknown>)[FEED] = feed;
  return context;
}

/** The live feed attached to `context`, or undefined (a transport without live support). */
export function liveFeedOf(context: object): LiveFeed | undefined {
  return (context as Record<symbol, LiveFeed | undefined>)[FEED];
}
