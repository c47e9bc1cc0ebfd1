import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '../db/client';
import { findLiveGames } from '../db/movement-repository';
import { scopeKey, tickConcerns, type LiveFeed, type LiveScope, type LiveTick } from '../events/live-feed';
import { LIVE_STATUSES } from '../domain';
import { DeltaTracker, quoteChangeKey, type LiveOddsChange } from './live-deltas';

export type { LiveGameChange, LiveOddsChange, LiveQuoteChange } from './live-deltas';

// Live delta streams (docs/live-protocol.md): per process, one stream per distinct filter (scope). A
// stream turns each change tick of the live feed into at most one delta holding only what changed in
// its scope (the delta engine, live-deltas.ts), numbers it (seq, +1 per delta), keeps the last WINDOW deltas for reconnects, and hands it to
// its listeners (Subscription.liveOddsChanges, hence graphql-ws and the Socket.IO rooms). The rows of
// one tick are read once per process (LiveTick.shared), whatever the number of streams and clients.

/** Deltas a stream keeps for reconnects. */
export const WINDOW = 512;
/** How long a stream with no listener lives on (and keeps counting), so a reconnect can replay. */
export const IDLE_MS = 60_000;

/**
 * The part of `change` that differs from what a stream last said (`said`: per game, key -> values,
 * updated here), or null when nothing does. A quote changes as a whole when any of its values
 * changes. A game that leaves play is forgotten: what a stream remembers stays bounded by the games
 * being played, and a game that comes back into play (a status flicker) comes whole again, the values
 * it had before included.
 */
function unsent(change: Pick<LiveOddsChange, 'games' | 'quotes'>, said: Map<number, Map<string, string>>): Pick<LiveOddsChange, 'games' | 'quotes'> | null {
  const fresh = <T extends object>(gameId: number, key: string, item: T) => {
    let ofGame = said.get(gameId);
    if (!ofGame) said.set(gameId, (ofGame = new Map()));
    const values = JSON.stringify(item);
    if (ofGame.get(key) === values) return false;
    ofGame.set(key, values);
    return true;
  };
  const games = change.games.filter((g) => fresh(g.game_id, 'game', g));
  const quotes = change.quotes.filter((q) => fresh(q.game_id, quoteChangeKey(q), q));
  for (const g of games) if (!LIVE_STATUSES.includes(g.status)) said.delete(g.game_id);
  return games.length || quotes.length ? { games, quotes } : null;
}

/** The delta stream of one scope in one process. */
export interface LiveStream {
  readonly id: string;
  /** Seq of the latest delta (0 before the first). A snapshot taken now applies at this seq. */
  readonly seq: number;
  /** Calls `listener` with every delta from now on, in seq order; the stream lives while listened to. */
  listen(listener: (change: LiveOddsChange) => void): () => void;
  /** The deltas after `seq` up to the latest, or null when the window no longer holds them all. */
  replay(afterSeq: number): LiveOddsChange[] | null;
}

const registries = new WeakMap<LiveFeed, Map<string, LiveStream>>();

/** The stream of `scope` on `feed` (made on first use; see IDLE_MS). */
export function liveStream(feed: LiveFeed, prisma: PrismaClient, scope: LiveScope): LiveStream {
  let registry = registries.get(feed);
  if (!registry) registries.set(feed, (registry = new Map()));
  const key = scopeKey(scope);
  let stream = registry.get(key);
  if (!stream) {
    stream = createStream(feed, prisma, scope, () => registry.delete(key));
    registry.set(key, stream);
  }
  return stream;
}

function createStream(feed: LiveFeed, prisma: PrismaClient, scope: LiveScope, dispose: () => void): LiveStream {
  const id = randomBytes(6).toString('hex');
  let seq = 0;
  /** Deltas by seq, oldest first; a null marks a delta lost to a read error (a gap nobody can replay). */
  const window: Array<LiveOddsChange | null> = [];
  const listeners = new Set<(change: LiveOddsChange) => void>();
  const said = new Map<number, Map<string, string>>();
  /** The live games the stream's clients hold whole: those live when it began, then those it sent whole. */
  const tracker = new DeltaTracker(scope);
  let idle: NodeJS.Timeout | null = null;
  // Ticks are handled one after another, so seq follows the ingest order even when reads overlap.
  // First, the games being played now: a client's first snapshot is read after this stream exists
  // and holds them whole already. (If the read fails, they come whole on their next change.)
  let chain: Promise<void> = findLiveGames(prisma, LIVE_STATUSES, scope.gameId != null ? [scope.gameId] : undefined).then(
    (games) => tracker.holdOnly(games.map((g) => g.id)),
    () => {},
  );

  const record = (change: LiveOddsChange | null) => {
    window.push(change);
    if (window.length > WINDOW) window.shift();
  };
  const handle = async (tick: LiveTick) => {
    let inScope: Awaited<ReturnType<DeltaTracker['next']>>;
    try {
      inScope = await tracker.next(prisma, tick);
    } catch {
      // The change is lost: count it, so the next delta shows a gap and clients resync.
      seq++;
      record(null);
      return;
    }
    if (!inScope) return;
    // Only what differs from what this stream last said: the read returns whole markets of a book.
    inScope = unsent(inScope, said);
    if (!inScope) return;
    seq++;
    const change: LiveOddsChange = { stream: id, seq, base_seq: seq - 1, at: tick.seenAt ?? tick.at, ...inScope };
    record(change);
    for (const listener of [...listeners]) listener(change);
  };
  const stopTicks = feed.onTick((tick) => {
    if (tick.reason !== 'change' || !tickConcerns(tick, scope)) return;
    chain = chain.then(() => handle(tick));
  });
  const scheduleIdle = () => {
    idle = setTimeout(() => {
      stopTicks();
      dispose();
    }, IDLE_MS);
    idle.unref();
  };
  scheduleIdle();

  return {
    id,
    get seq() {
      return seq;
    },
    listen(listener) {
      if (idle) clearTimeout(idle);
      idle = null;
      listeners.add(listener);
      return () => {
        if (!listeners.delete(listener) || listeners.size) return;
        scheduleIdle();
      };
    },
    replay(afterSeq) {
      const first = seq - window.length + 1;
      if (!Number.isSafeInteger(afterSeq) || afterSeq > seq || afterSeq + 1 < first) return null;
      const missed = window.slice(afterSeq + 1 - first);
      return missed.every((c): c is LiveOddsChange => c !== null) ? missed : null;
    },
  };
}
