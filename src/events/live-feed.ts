import { inLiveMarketFilter } from '../domain';
import type { EventBus, MarketChange, OddsChangeEvent, SignalsEvent } from './bus';

// The live topic of one process, fed by the event bus: every committed ingest (one bus event) becomes
// one "change" tick at once, and a timer adds an "interval" tick (the spec's snapshot about every
// 20 s). Every subscription in the process sees the same ticks, so the work of one push (the SQL read
// of what changed, DataLoaders) is shared through `LiveTick.shared`, whatever the number of clients.

export type { MarketChange } from './bus';

/** Why a live payload is sent. */
export type LiveReason = 'snapshot' | 'change' | 'interval' | 'resync';

/** One tick of the live topic. */
export interface LiveTick {
  /** Increases by one per tick of this feed. */
  seq: number;
  reason: 'change' | 'interval';
  /** When the tick left the feed. */
  at: Date;
  /** When the ingested document was seen (change ticks). */
  seenAt: Date | null;
  /** The global sequence of the ingest behind a change tick (OddsChangeEvent.version), when known. */
  version: number | null;
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

/** Signals the ingest stored after one capture (the bus's `signals` event), as the subscriptions of this process see them. */
export interface SignalTick {
  /** When the capture was seen. */
  at: Date;
  signals: SignalsEvent['signals'];
  /** As LiveTick.shared: the rows of the tick are read once per process, whatever the subscribers. */
  shared<T>(key: string, make: () => T): T;
}

export interface LiveFeed {
  /** Calls `handler` with every tick from now on; returns unsubscribe. */
  onTick(handler: (tick: LiveTick) => void): () => void;
  /** Calls `handler` with every signals event from now on; returns unsubscribe. */
  onSignals(handler: (tick: SignalTick) => void): () => void;
  readonly intervalMs: number;
  /** Stops the timer and the bus subscription; handlers get no more ticks. */
  close(): void;
}

export interface LiveFeedOptions {
  /** Period of interval ticks (config.livePushIntervalMs). */
  intervalMs: number;
}

/** What a subscriber wants to hear about: absent fields match everything. */
export interface LiveScope {
  gameId?: number | null | undefined;
  marketType?: string | null | undefined;
  bookId?: number | null | undefined;
}

/** One string per distinct scope: the key of a stream and of a Socket.IO room. */
export function scopeKey(scope: LiveScope): string {
  return `${scope.gameId ?? '*'}|${scope.marketType ?? '*'}|${scope.bookId ?? '*'}`;
}

/** Whether `scope` asks for player props (market_type player_props): its pushes carry props and nothing else. */
export function scopeWantsProps(scope: LiveScope): boolean {
  return scope.marketType === 'player_props';
}

/**
 * Whether a changed quote key lies in `scope`: player_props is any prop market type, no market type
 * the game markets only (inLiveMarketFilter).
 */
export function marketInScope(m: MarketChange, scope: LiveScope): boolean {
  return (
    (scope.gameId == null || scope.gameId === m.gameId) &&
    inLiveMarketFilter(scope.marketType, m.marketType) &&
    (scope.bookId == null || scope.bookId === m.bookId)
  );
}

/**
 * The part of an unfiltered delta (a change-log entry's, src/services/change-deltas.ts) that a client
 * of `scope` gets: the games of its game (every game without one), and the quotes marketInScope keeps
 * (player_props: the props only; no market type: the game markets only; the book). Pure: every
 * process filters the same stored delta to the same bytes. May be empty (no games, no quotes).
 */
export function filterDelta<G extends { game_id: number }, Q extends { game_id: number; market_type: string; book_id: number }>(
  delta: { games: readonly G[]; quotes: readonly Q[] },
  scope: LiveScope,
): { games: G[]; quotes: Q[] } {
  return {
    games: delta.games.filter((g) => scope.gameId == null || scope.gameId === g.game_id),
    quotes: delta.quotes.filter((q) => marketInScope({ gameId: q.game_id, marketType: q.market_type, bookId: q.book_id }, scope)),
  };
}

/**
 * Whether a change tick may concern `scope`: a changed quote of the scope's game, market and book, or
 * a changed game row of the scope's game (any game without one). Interval ticks concern every scope.
 */
export function tickConcerns(tick: LiveTick, scope: LiveScope): boolean {
  if (tick.reason === 'interval') return true;
  if ([...tick.games].some((id) => scope.gameId == null || scope.gameId === id)) return true;
  return tick.markets.some((m) => marketInScope(m, scope));
}

function makeTick(seq: number, reason: LiveTick['reason'], event: OddsChangeEvent | null): LiveTick {
  const memo = new Map<string, unknown>();
  return {
    seq,
    reason,
    at: new Date(),
    seenAt: event ? new Date(event.at) : null,
    version: event?.version ?? null,
    games: new Set(event?.games ?? []),
    markets: event?.markets ?? [],
    shared<T>(key: string, make: () => T): T {
      if (!memo.has(key)) memo.set(key, make());
      return memo.get(key) as T;
    },
  };
}

/** The live topic of one process over `bus`. */
export function createLiveFeed(bus: EventBus, options: LiveFeedOptions): LiveFeed {
  const handlers = new Set<(tick: LiveTick) => void>();
  let seq = 0;
  let closed = false;

  const emit = (tick: LiveTick) => {
    for (const handler of [...handlers]) handler(tick);
  };
  // No debounce: one ingest is one event, already coalesced; waiting would only add latency.
  // Events were lost (Redis came back after an outage): nobody knows what changed, so every
  // subscriber gets what an interval brings, a full snapshot.
  const unsubscribe = bus.subscribe('odds', (event) => {
    if (!closed) emit(event.missed ? makeTick(++seq, 'interval', null) : makeTick(++seq, 'change', event));
  });
  const signalHandlers = new Set<(tick: SignalTick) => void>();
  const unsubscribeSignals = bus.subscribe('signals', (event) => {
    if (closed) return;
    const memo = new Map<string, unknown>();
    const tick: SignalTick = {
      at: new Date(event.at),
      signals: event.signals,
      shared<T>(key: string, make: () => T): T {
        if (!memo.has(key)) memo.set(key, make());
        return memo.get(key) as T;
      },
    };
    for (const handler of [...signalHandlers]) handler(tick);
  });
  const interval = setInterval(() => emit(makeTick(++seq, 'interval', null)), options.intervalMs);
  // The timer alone should not keep a process alive (main.ts decides when to exit).
  interval.unref();

  return {
    intervalMs: options.intervalMs,
    onTick(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    onSignals(handler) {
      signalHandlers.add(handler);
      return () => signalHandlers.delete(handler);
    },
    close() {
      closed = true;
      unsubscribe();
      unsubscribeSignals();
      signalHandlers.clear();
      clearInterval(interval);
      handlers.clear();
    },
  };
}

/**
 * An async iterator over values pushed by `start` (which gets `push` and `fail` and returns its stop
 * function), beginning with `first` items. `latestOnly`: a slow consumer gets the newest pending
 * value, not a backlog (for full snapshots, where skipping one loses nothing); otherwise every value
 * is kept in order (for deltas). `fail` ends the iterator with the error once the values pushed
 * before it were consumed. `return()` stops.
 */
export function pushIterator<T>(
  start: (push: (value: T) => void, fail: (error: unknown) => void) => () => void,
  options: { first?: T[]; latestOnly?: boolean } = {},
): AsyncIterableIterator<T> {
  const queue: T[] = [...(options.first ?? [])];
  let waiter: { resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void } | null = null;
  let done = false;
  let failure: { error: unknown } | null = null;
  let stop: () => void = () => {};
  const finish = (): Promise<IteratorResult<T>> => {
    if (!done) {
      done = true;
      stop();
    }
    queue.length = 0;
    waiter?.resolve({ value: undefined, done: true });
    waiter = null;
    return Promise.resolve({ value: undefined, done: true });
  };
  const push = (value: T) => {
    if (done || failure) return;
    if (waiter) {
      const { resolve } = waiter;
      waiter = null;
      resolve({ value, done: false });
    } else if (options.latestOnly) {
      queue.splice(0, queue.length, value);
    } else {
      queue.push(value);
    }
  };
  const fail = (error: unknown) => {
    if (done || failure) return;
    failure = { error };
    if (waiter) {
      const { reject } = waiter;
      waiter = null;
      void finish();
      reject(error);
    }
  };
  stop = start(push, fail);
  return {
    next() {
      if (queue.length) return Promise.resolve({ value: queue.shift()!, done: false });
      if (failure && !done) {
        void finish();
        return Promise.reject(failure.error);
      }
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => {
        waiter = { resolve, reject };
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
const ON_PUSH = Symbol('onPush');

/**
 * Gives a (subscription) context the live feed its resolvers read through `liveFeedOf`, and what to
 * call when a delta leaves for the client (`onPush`, with the feed time of its data: the push
 * latency metric of the transport).
 */
export function attachLiveFeed<C extends object>(context: C, feed: LiveFeed, onPush?: (seenAt: Date) => void): C {
  (context as Record<symbol, unknown>)[FEED] = feed;
  if (onPush) (context as Record<symbol, unknown>)[ON_PUSH] = onPush;
  return context;
}

/** The live feed attached to `context`, or undefined (a transport without live support). */
export function liveFeedOf(context: object): LiveFeed | undefined {
  return (context as Record<symbol, LiveFeed | undefined>)[FEED];
}

/** Tells the transport of `context` (if it asked) that a delta with data seen at `seenAt` is leaving. */
export function notePush(context: object, seenAt: Date): void {
  (context as Record<symbol, ((seenAt: Date) => void) | undefined>)[ON_PUSH]?.(seenAt);
}
