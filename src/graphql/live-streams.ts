import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '../db/client';
import { gameStates, quotesOfMarkets, type GameState } from '../db/live-repository';
import { findLiveGames } from '../db/movement-repository';
import { quotesByGameIds, type QuoteRow } from '../db/odds-repository';
import { marketInScope, scopeKey, tickConcerns, type LiveFeed, type LiveScope, type LiveTick } from '../events/live-feed';
import { isOneOf, LIVE_STATUSES, MARKET_TYPES, ODDS_DECIMAL_DIGITS, roundTo } from '../domain';
import { displayedQuotes } from './quotes';

// Live deltas (docs/live-protocol.md): per process, one stream per distinct filter (scope). A stream
// turns each change tick of the live feed into at most one delta holding only what changed in its
// scope, numbers it (seq, +1 per delta), keeps the last WINDOW deltas for reconnects, and hands it to
// its listeners (Subscription.liveOddsChanges, hence graphql-ws and the Socket.IO rooms). The rows of
// one tick are read once per process (LiveTick.shared), whatever the number of streams and clients.

/** A quote in a delta: the displayed quote of one game, book, market, period and side. */
export interface LiveQuoteChange {
  game_id: number;
  book_id: number;
  market_type: string;
  period: string;
  side: string;
  is_live: boolean;
  point: number | null;
  /** American price, as a number. */
  price: number;
  decimal: number;
  is_available: boolean;
  line_status: string;
}

/** A game whose status, clock or score changed. */
export interface LiveGameChange {
  game_id: number;
  status: string;
  status_display: string | null;
  clock: string | null;
  period: number | null;
  home_score: number | null;
  away_score: number | null;
}

/**
 * One delta of a stream, in the spec's snake_case: Socket.IO replays missed deltas as they are
 * (event odds_change); the GraphQL type LiveOddsChange maps its camelCase fields to these
 * (resolvers/LiveOddsChange.ts).
 */
export interface LiveOddsChange {
  /** Id of the stream: a client reconnecting with it and its last seq may get the missed deltas. */
  stream: string;
  seq: number;
  /** The seq of the state this delta applies to: the snapshot's, or the previous delta's. */
  base_seq: number;
  /** When the ingested document was seen. */
  at: Date;
  games: LiveGameChange[];
  quotes: LiveQuoteChange[];
}

/** Deltas a stream keeps for reconnects. */
export const WINDOW = 512;
/** How long a stream with no listener lives on (and keeps counting), so a reconnect can replay. */
export const IDLE_MS = 60_000;

export interface TickChanges {
  games: Map<number, GameState>;
  quotes: QuoteRow[];
}

/** The current rows of what `tick` names: games (status, clock, score) and the quotes of its changed markets. */
export async function readTickChanges(prisma: PrismaClient, tick: LiveTick): Promise<TickChanges> {
  const gameIds = [...new Set([...tick.games, ...tick.markets.map((m) => m.gameId)])];
  const [games, quotes] = await Promise.all([gameStates(prisma, gameIds), quotesOfMarkets(prisma, tick.markets)]);
  return { games: new Map(games.map((g) => [g.id, g])), quotes };
}

const isLive = (game: GameState | undefined) => game !== undefined && LIVE_STATUSES.includes(game.status);

/**
 * What `tick` changed inside `scope`, or null when nothing: the games of the tick in scope that are
 * being played or have left play (not scheduled ones, which the live snapshot does not show), and the
 * displayed quotes (the live price while a game is played) of the changed markets in scope, of games
 * being played.
 */
export function changeInScope(tick: LiveTick, changes: TickChanges, scope: LiveScope): Pick<LiveOddsChange, 'games' | 'quotes'> | null {
  const games: LiveGameChange[] = [];
  for (const id of tick.games) {
    const game = changes.games.get(id);
    if (!game || game.status === 'scheduled' || (scope.gameId != null && scope.gameId !== id)) continue;
    games.push({
      game_id: id,
      status: game.status,
      status_display: game.statusDisplay,
      clock: game.boxscore?.clock ?? null,
      period: game.boxscore?.period ?? null,
      home_score: game.boxscore?.homeScore ?? null,
      away_score: game.boxscore?.awayScore ?? null,
    });
  }
  // The live snapshot holds the three markets only (LiveOdds.graphql): team totals, which it does not
  // carry, are not sent as deltas either (docs/live-protocol.md).
  const changed = new Set(
    tick.markets
      .filter((m) => isOneOf(MARKET_TYPES, m.marketType) && marketInScope(m, scope) && isLive(changes.games.get(m.gameId)))
      .map((m) => `${m.gameId}|${m.marketType}|${m.bookId}`),
  );
  const byGame = new Map<number, QuoteRow[]>();
  for (const q of changes.quotes) {
    if (!changed.has(`${q.gameId}|${q.marketType}|${q.bookId}`)) continue;
    byGame.set(q.gameId, [...(byGame.get(q.gameId) ?? []), q]);
  }
  const quotes: LiveQuoteChange[] = [];
  for (const [gameId, rows] of byGame) {
    for (const q of displayedQuotes(changes.games.get(gameId)!.status, rows)) {
      quotes.push({
        game_id: q.gameId,
        book_id: q.bookId,
        market_type: q.marketType,
        period: q.period,
        side: q.side,
        is_live: q.isLive,
        point: q.point,
        price: q.american,
        decimal: roundTo(q.decimal, ODDS_DECIMAL_DIGITS), // as the schema's decimal fields answer it (schema.ts)
        is_available: q.isAvailable,
        line_status: q.lineStatus,
      });
    }
  }
  return games.length || quotes.length ? { games, quotes } : null;
}

/** A tick-shaped view of keys that changed (what changeInScope and readTickChanges read). */
export function keysTick(games: readonly number[], markets: LiveTick['markets']): LiveTick {
  return { seq: 0, reason: 'change', at: new Date(), seenAt: null, version: null, games: new Set(games), markets, shared: (_key, make) => make() };
}

/** The games of `ids` being played (per `changes`) and inside `scope`. */
export function playingGames(changes: TickChanges, ids: Iterable<number>, scope: LiveScope): number[] {
  return [...ids].filter((id) => isLive(changes.games.get(id)) && (scope.gameId == null || scope.gameId === id));
}

/**
 * What `tick` changed in `scope` (as changeInScope), plus every quote of the games in `whole`: a game
 * a client does not hold yet (it just started playing) comes whole, as a snapshot would show it, not
 * only with the markets that moved.
 */
export async function changeWithWholeGames(
  prisma: PrismaClient,
  tick: LiveTick,
  changes: TickChanges,
  scope: LiveScope,
  whole: readonly number[],
): Promise<Pick<LiveOddsChange, 'games' | 'quotes'> | null> {
  if (!whole.length) return changeInScope(tick, changes, scope);
  const keys = new Map(tick.markets.map((m) => [`${m.gameId}|${m.marketType}|${m.bookId}`, m]));
  for (const q of await quotesByGameIds(prisma, whole)) keys.set(`${q.gameId}|${q.marketType}|${q.bookId}`, { gameId: q.gameId, marketType: q.marketType, bookId: q.bookId });
  const wider = keysTick([...tick.games], [...keys.values()]);
  return changeInScope(wider, await readTickChanges(prisma, wider), scope);
}

/**
 * The part of `change` that differs from what a stream last sent (`said`: key -> values, updated
 * here), or null when nothing does. A quote changes as a whole when any of its values changes.
 */
function unsent(change: Pick<LiveOddsChange, 'games' | 'quotes'>, said: Map<string, string>): Pick<LiveOddsChange, 'games' | 'quotes'> | null {
  const fresh = <T extends object>(key: string, item: T) => {
    const values = JSON.stringify(item);
    if (said.get(key) === values) return false;
    said.set(key, values);
    return true;
  };
  const games = change.games.filter((g) => fresh(`g${g.game_id}`, g));
  const quotes = change.quotes.filter((q) => fresh(`q${q.game_id}|${q.book_id}|${q.market_type}|${q.period}|${q.side}|${q.is_live}`, q));
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
  const said = new Map<string, string>();
  /** Live games whose every quote in scope the stream's clients hold: those live when it began, then those it sent whole. */
  const held = new Set<number>();
  let idle: NodeJS.Timeout | null = null;
  // Ticks are handled one after another, so seq follows the ingest order even when reads overlap.
  // First, the games being played now: a client's first snapshot is read after this stream exists
  // and holds them whole already. (If the read fails, they come whole on their next change.)
  let chain: Promise<void> = findLiveGames(prisma, LIVE_STATUSES, scope.gameId != null ? [scope.gameId] : undefined).then(
    (games) => games.forEach((g) => held.add(g.id)),
    () => {},
  );

  const record = (change: LiveOddsChange | null) => {
    window.push(change);
    if (window.length > WINDOW) window.shift();
  };
  const handle = async (tick: LiveTick) => {
    let inScope: ReturnType<typeof changeInScope>;
    try {
      const changes = await tick.shared('live-changes', () => readTickChanges(prisma, tick));
      // A game this stream has not sent whole comes whole (it may have just started playing);
      // `unsent` below drops the quotes a client already has from an earlier delta.
      inScope = await changeWithWholeGames(prisma, tick, changes, scope, playingGames(changes, tick.games, scope).filter((id) => !held.has(id)));
      for (const g of inScope?.games ?? []) {
        if (LIVE_STATUSES.includes(g.status)) held.add(g.game_id);
        else held.delete(g.game_id);
      }
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
