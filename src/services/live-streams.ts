import type { PrismaClient } from '../db/client';
import { filterDelta, scopeKey, type LiveFeed, type LiveScope } from '../events/live-feed';
import { changeFeed, type ChangeFeedEntry } from './change-feed';
import type { LiveOddsChange } from './live-deltas';

export type { LiveGameChange, LiveOddsChange, LiveQuoteChange } from './live-deltas';

// Live delta streams (docs/live-protocol.md): one sequence for every filter and process, the
// change log's. Each change-log entry (its delta decided once and stored, change-deltas.ts) reaches
// every stream through the process's change feed (change-feed.ts), filtered to the stream's scope
// (filterDelta, a pure function), with seq = the entry's version and base_seq = the version of the
// entry before it: the same numbers and bytes on every process, whenever it started. A stream sends
// every entry, even one whose filtered delta is empty, so that base_seq always meets the seq its
// clients hold. Read by Subscription.liveOddsChanges (graphql-ws, the Socket.IO rooms) and by
// Subscription.oddsStream (SSE, which skips the empty ones: odds-stream.ts).

/** The `stream` of every delta and snapshot: the sequence is global, not one process's. */
export const GLOBAL_STREAM = 'global';

/** The delta of `entry` a client of `scope` gets (possibly empty). */
export function changeOf(entry: ChangeFeedEntry, scope: LiveScope): LiveOddsChange {
  return { stream: GLOBAL_STREAM, seq: entry.version, base_seq: entry.previous, at: entry.at, ...filterDelta(entry.delta, scope) };
}

/** The delta stream of one scope in one process. */
export interface LiveStream {
  readonly id: string;
  /** Calls `listener` with the delta of every entry from now on, in seq order, empty ones too. */
  listen(listener: (change: LiveOddsChange) => void): () => void;
  /**
   * The deltas after `afterSeq` up to the newest, from the stored log (on any process), or null when
   * they cannot be replayed (change-feed.ts replayAfter: unknown, pruned, or more than REPLAY_MAX_ENTRIES).
   * Every delta after the last one it returns reaches the stream's listeners.
   */
  replay(afterSeq: number): Promise<LiveOddsChange[] | null>;
  /**
   * `listen` with the deltas after `afterSeq` first (replayed from the log, then those the feed
   * brought meanwhile), or null when they cannot be replayed.
   */
  resume(afterSeq: number, listener: (change: LiveOddsChange) => void): Promise<(() => void) | null>;
}

const registries = new WeakMap<LiveFeed, Map<string, { stream: LiveStream; listeners: Set<(change: LiveOddsChange) => void> }>>();

/** The stream of `scope` on `feed`: one per scope and process while listened to, whose filtered deltas its listeners share. */
export function liveStream(feed: LiveFeed, prisma: PrismaClient, scope: LiveScope): LiveStream {
  let registry = registries.get(feed);
  if (!registry) registries.set(feed, (registry = new Map()));
  const key = scopeKey(scope);
  const known = registry.get(key);
  if (known) return known.stream;
  const listeners = new Set<(change: LiveOddsChange) => void>();
  let stop: (() => void) | null = null;
  const stream: LiveStream = {
    id: GLOBAL_STREAM,
    listen(listener) {
      listeners.add(listener);
      if (!stop) {
        registry.set(key, { stream, listeners });
        stop = changeFeed(feed, prisma).onEntry((entry) => {
          const change = changeOf(entry, scope);
          for (const l of [...listeners]) l(change);
        });
      }
      return () => {
        if (!listeners.delete(listener) || listeners.size) return;
        stop?.();
        stop = null;
        if (registry.get(key)?.stream === stream) registry.delete(key);
      };
    },
    async replay(afterSeq) {
      // After the change feed's start: the replay then reaches at least where the feed starts, and
      // every entry after that reaches the stream's listeners, so a replay and the deltas that follow
      // it leave no hole between them.
      const changes = changeFeed(feed, prisma);
      await changes.ready;
      const replayed = await changes.replay(afterSeq);
      return 'refused' in replayed ? null : replayed.entries.map((entry) => changeOf(entry, scope));
    },
    async resume(afterSeq, listener) {
      const held: LiveOddsChange[] = [];
      let live = false;
      let through = afterSeq;
      const pass = (change: LiveOddsChange) => {
        if (change.seq <= through) return; // the replay had it
        through = change.seq;
        listener(change);
      };
      const unlisten = stream.listen((change) => (live ? pass(change) : held.push(change)));
      let replayed: LiveOddsChange[] | null;
      try {
        replayed = await stream.replay(afterSeq);
      } catch (error) {
        unlisten();
        throw error;
      }
      if (!replayed) {
        unlisten();
        return null;
      }
      for (const change of [...replayed, ...held]) pass(change);
      live = true;
      return unlisten;
    },
  };
  return stream;
}
