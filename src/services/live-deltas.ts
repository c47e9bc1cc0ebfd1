import type { PrismaClient } from '../db/client';
import { gameStates, quotesOfMarkets, readConsistently, type GameState } from '../db/live-repository';
import { propQuotesByGameIds, quotesByGameIds, type QuoteRow } from '../db/odds-repository';
import { marketInScope, scopeWantsProps, type LiveScope, type LiveTick } from '../events/live-feed';
import { isOneOf, isPropMarket, LIVE_STATUSES, MARKET_TYPES, ODDS_DECIMAL_DIGITS, propTypeOf, pushTo, roundTo } from '../domain';
import { displayedQuotes } from './quotes';

// The one delta engine (docs/live-protocol.md): what the keys of a change-log entry changed inside a
// filter, read from one database snapshot. change-deltas.ts decides each entry's delta with it, once,
// for every process and transport (the streams of live-streams.ts and odds-stream.ts filter that).

/**
 * A quote in a delta: the displayed quote of one game, book, market, period and side, and on a
 * player prop (only pushed to a player_props filter) of one player and line: the three prop fields
 * are absent on game markets, so a game quote keeps its bytes.
 */
export interface LiveQuoteChange {
  game_id: number;
  book_id: number;
  market_type: string;
  period: string;
  side: string;
  /** Player props: the player (GET /players?player_id= names them), as /live's outcomes' `player.id`. */
  player_id?: number;
  /** Player props: points, rebounds, ... (as /live's outcomes' `prop_type`). */
  prop_type?: string;
  /** Player props: a book's alternate line, whose point is part of its identity; false on the main line, whose point moves. */
  is_alternate?: boolean;
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

export interface TickChanges {
  games: Map<number, GameState>;
  quotes: QuoteRow[];
}

/**
 * The current rows of what `tick` names: games (status, clock, score) and the quotes of its changed
 * markets, of the game markets or (`props`) of the player props only: the props of a capture are
 * read for the filters that ask for them, never for the others (a book's prop type holds every
 * player's lines).
 */
export function readTickChanges(prisma: PrismaClient, tick: LiveTick, props = false): Promise<TickChanges> {
  const markets = tick.markets.filter((m) => isPropMarket(m.marketType) === props);
  // One database snapshot: the status, the score and the quotes of a game as one commit left them.
  return readConsistently(prisma, async (db) => {
    const gameIds = [...new Set([...tick.games, ...markets.map((m) => m.gameId)])];
    const games = await gameStates(db, gameIds);
    const quotes = await quotesOfMarkets(db, markets);
    return { games: new Map(games.map((g) => [g.id, g])), quotes };
  });
}

const isLive = (game: GameState | undefined) => game !== undefined && LIVE_STATUSES.includes(game.status);

function quoteChange(q: QuoteRow): LiveQuoteChange {
  return {
    game_id: q.gameId,
    book_id: q.bookId,
    market_type: q.marketType,
    period: q.period,
    side: q.side,
    // Named as /live's prop outcomes name them; none of these keys on a game market's quote.
    ...(isPropMarket(q.marketType) && { player_id: q.playerId, prop_type: propTypeOf(q.marketType)!, is_alternate: q.lineKey !== '' }),
    is_live: q.isLive,
    point: q.point,
    price: q.american,
    decimal: roundTo(q.decimal, ODDS_DECIMAL_DIGITS), // as the schema's decimal fields answer it (schema.ts)
    is_available: q.isAvailable,
    line_status: q.lineStatus,
  };
}

/**
 * What `tick` changed inside `scope`, or null when nothing: the games of the tick in scope that are
 * being played or have left play (not scheduled ones, which the live snapshot does not show), and the
 * displayed quotes (the live price while a game is played) of the changed markets in scope, of games
 * being played. A game market comes whole (its two or three quotes); a prop market of a book holds
 * every player's lines, so of it only the quotes the tick's document wrote come (the ingest stamps
 * each row it writes with the document's time, `seenAt`; a later document's rows may come too,
 * and applying one early changes nothing), except in the games of `whole` and in a tick without a
 * time (a catch-up over several ingests), which carry every quote.
 */
export function changeInScope(tick: LiveTick, changes: TickChanges, scope: LiveScope, whole: ReadonlySet<number> = new Set()): Pick<LiveOddsChange, 'games' | 'quotes'> | null {
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
  // The live snapshot holds the three markets (and, under player_props, the props) only
  // (LiveOdds.graphql): team totals, which it does not carry, are not sent as deltas either
  // (docs/live-protocol.md); marketInScope keeps props to the filters that ask for them.
  const changed = new Set(
    tick.markets
      .filter((m) => (isOneOf(MARKET_TYPES, m.marketType) || isPropMarket(m.marketType)) && marketInScope(m, scope) && isLive(changes.games.get(m.gameId)))
      .map((m) => `${m.gameId}|${m.marketType}|${m.bookId}`),
  );
  const byGame = new Map<number, QuoteRow[]>();
  for (const q of changes.quotes) {
    if (!changed.has(`${q.gameId}|${q.marketType}|${q.bookId}`)) continue;
    pushTo(byGame, q.gameId, q);
  }
  const since = tick.seenAt?.getTime() ?? null;
  const quotes: LiveQuoteChange[] = [];
  for (const [gameId, rows] of byGame) {
    for (const q of displayedQuotes(changes.games.get(gameId)!.status, rows)) {
      if (since !== null && isPropMarket(q.marketType) && !whole.has(gameId) && q.seenAt.getTime() < since) continue;
      quotes.push(quoteChange(q));
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
  const props = scopeWantsProps(scope);
  // The keys of the whole games and their rows from one snapshot too (the delta is all of that read):
  // their game markets, or under player_props their props.
  return readConsistently(prisma, async (db) => {
    const keys = new Map(tick.markets.map((m) => [`${m.gameId}|${m.marketType}|${m.bookId}`, m]));
    for (const q of await (props ? propQuotesByGameIds : quotesByGameIds)(db, whole)) keys.set(`${q.gameId}|${q.marketType}|${q.bookId}`, { gameId: q.gameId, marketType: q.marketType, bookId: q.bookId });
    const wider: LiveTick = { ...keysTick([...tick.games], [...keys.values()]), seenAt: tick.seenAt };
    return changeInScope(wider, await readTickChanges(db, wider, props), scope, new Set(whole));
  });
}
