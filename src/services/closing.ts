import type { Game } from '../db/client';
import { findClosingRows, findGameCaptureFacts, type ClosingRow } from '../db/closing-repository';
import type { QuoteScope } from '../db/movement-repository';
import { findGames, type SportsbookRow } from '../db/odds-repository';
import {
  americanToDecimal,
  closingCutoff,
  closingGap,
  decimalToFractional,
  hasLine,
  isPropMarket,
  propTypeOf,
  storedMarketTypesOf,
  type ClosingGap,
  type CutoffSource,
  type DevigMethod,
  type League,
  type LiveMarketType,
  type Period,
  type Side,
  type StoredMarketType,
} from '../domain';
import { MarketView, type ListingQuote } from '../domain';
import { dayOrToday, list } from './arguments';
import { booksOf } from './quotes';
import type { ReadContext } from './read-context';

// Closing lines (docs/closing-and-grading.md): history rows -> the ClosingLine shape the schema
// shows, and the fair close of a market from every real book's closing pair.

/** A price block: American odds, their decimal and implied probability (GraphQL ClosingPrice). */
export interface ClosingPrice {
  american: number;
  decimal: number;
  impliedProbability: number;
}

/** A prop's player as answers show it (GraphQL PlayerBrief). */
export interface PlayerBrief {
  id: number;
  name: string;
  teamId: number | null;
}

/** One book's close of one outcome (GraphQL ClosingLine). */
export interface ClosingLine {
  gameId: number;
  bookId: number;
  bookName: string | null;
  bookIsAggregate: boolean;
  marketType: LiveMarketType;
  propType: string | null;
  player: PlayerBrief | null;
  isAlternate: boolean | null;
  period: Period;
  side: Side;
  point: number | null;
  price: ClosingPrice | null;
  capturedAt: Date | null;
  missingReason: ClosingGap | null;
  cutoffAt: Date;
  cutoffSource: CutoffSource;
  settled: boolean;
}

/** Most games one closingLines request reads (a league day has at most about 15). */
const MAX_CLOSING_GAMES = 1000;

/** What closingLines is asked for: the day's games (or these games), narrowed to books, markets, periods, sides. */
export interface ClosingLinesQuery {
  date?: string | null | undefined;
  gameId?: readonly number[] | null | undefined;
  bookId?: readonly number[] | null | undefined;
  marketType?: readonly LiveMarketType[] | null | undefined;
  period?: readonly Period[] | null | undefined;
  side?: readonly Side[] | null | undefined;
}

/** The closing lines of a day's games (Query.closingLines, GET /odds/closing). */
export async function closingLines(ctx: ReadContext, args: ClosingLinesQuery): Promise<ClosingLine[]> {
  const gameIds = list(args.gameId);
  // Game ids pick the games: without an explicit date they are not limited to today.
  const range = gameIds && !args.date ? {} : dayOrToday(args.date, ctx.now, ctx.timeZone);
  const { items } = await findGames(ctx.db.prisma, { ...range, gameIds }, { limit: MAX_CLOSING_GAMES, offset: 0 });
  const scope = { bookIds: list(args.bookId), marketTypes: storedMarketTypesOf(list(args.marketType)), periods: list(args.period), sides: list(args.side) };
  return (await loadClosing(ctx, items, scope)).lines;
}

/** A price block of American odds. */
export function priceOf(american: number): ClosingPrice {
  const decimal = americanToDecimal(american);
  return { american, decimal, impliedProbability: 1 / decimal };
}

/** The closing lines of `games` within `scope`, and the closing rows and books they came from. */
export interface ClosingSet {
  /** One per row, in the same order (`lines[i]` is `rows[i]` as the schema shows it). */
  lines: ClosingLine[];
  rows: ClosingRow[];
  books: Map<number, SportsbookRow>;
  /** Per game: cutoff and first capture, for the gap of an outcome that has no row at all. */
  games: Map<number, { game: Game; cutoffAt: Date; firstSeenAt: Date | null }>;
}

/** Reads the closing lines of `games` (one query for the capture facts, one for the rows). */
export async function loadClosing(ctx: ReadContext, games: readonly Game[], scope: QuoteScope = {}): Promise<ClosingSet> {
  const facts = await findGameCaptureFacts(
    ctx.db.prisma,
    games.map((g) => g.id),
  );
  const byId = new Map(games.map((g) => [g.id, g]));
  const gameInfo = new Map<number, { game: Game; cutoffAt: Date; firstSeenAt: Date | null; source: 'start_time' | 'first_live_price'; settled: boolean }>();
  for (const f of facts) {
    const game = byId.get(f.gameId);
    if (!game) continue;
    const cutoff = closingCutoff(f.startTime, f.firstLiveAt);
    // Settled once the game went live by the clock, by a live price, or by a status past scheduled.
    const settled = f.firstLiveAt !== null || cutoff.at <= ctx.now || f.status !== 'scheduled';
    gameInfo.set(f.gameId, { game, cutoffAt: cutoff.at, firstSeenAt: f.firstSeenAt, source: cutoff.source, settled });
  }
  const rows = await findClosingRows(ctx.db.prisma, new Map([...gameInfo].map(([id, g]) => [id, g.cutoffAt])), scope);
  const books = await booksOf(ctx, rows);
  const playerIds = [...new Set(rows.flatMap((r) => (r.playerId ? [r.playerId] : [])))];
  const players = new Map(
    (await ctx.loaders.playerById.loadMany(playerIds)).flatMap((p, i) => (p && !(p instanceof Error) ? [[playerIds[i]!, p] as const] : [])),
  );
  const lines = rows.map((r): ClosingLine => {
    const g = gameInfo.get(r.gameId)!;
    const gap: ClosingGap | null = closingGap(r.close !== null, g.firstSeenAt, g.cutoffAt);
    const book = books.get(r.bookId);
    return {
      gameId: r.gameId,
      bookId: r.bookId,
      bookName: book?.name ?? null,
      bookIsAggregate: book?.isAggregate ?? false,
      // A prop's close is listed under player_props with its prop type, player and line (docs/player-props.md).
      marketType: (isPropMarket(r.marketType) ? 'player_props' : r.marketType) as LiveMarketType,
      propType: propTypeOf(r.marketType),
      player: r.playerId ? { id: r.playerId, name: players.get(r.playerId)?.name ?? `Player ${r.playerId}`, teamId: players.get(r.playerId)?.teamId ?? null } : null,
      isAlternate: r.playerId ? r.lineKey !== '' : null,
      period: r.period as Period,
      side: r.side as Side,
      point: r.close?.point ?? null,
      price: r.close ? priceOf(r.close.american) : null,
      capturedAt: r.close?.seenAt ?? null,
      missingReason: gap,
      cutoffAt: g.cutoffAt,
      cutoffSource: g.source,
      settled: g.settled,
    };
  });
  return { lines, rows, books, games: gameInfo };
}

/** The league whose key-number model a game uses. */
export async function leagueOf(ctx: Pick<ReadContext, 'loaders'>, game: Game): Promise<League> {
  const league = await ctx.loaders.leagueById.load(game.leagueId);
  return league?.name.toLowerCase() === 'wnba' ? 'WNBA' : 'NBA';
}

/**
 * The market of one game, market type and period (and player, on a prop) at the close, as the
 * listings' MarketView over every real (non-aggregate) book's closing price: its `reference()` is the
 * fair close (the sharp book's de-vigged pair at a line, else the consensus there, else, on game
 * markets only, the nearest line moved with the key-number model). A prop's main and alternate lines
 * are one market, each line its own pair, as on /markets/player_props.
 */
export function closingMarket(
  set: ClosingSet,
  game: Game,
  league: League,
  marketType: StoredMarketType,
  period: string,
  method: DevigMethod,
  playerId = 0,
): MarketView {
  const quotes: ListingQuote[] = [];
  for (const r of set.rows) {
    if (r.gameId !== game.id || r.marketType !== marketType || r.period !== period || r.playerId !== playerId || !r.close) continue;
    if (set.books.get(r.bookId)?.isAggregate) continue;
    if (hasLine(marketType) && r.close.point === null) continue;
    const decimal = americanToDecimal(r.close.american);
    quotes.push({
      gameId: r.gameId,
      bookId: r.bookId,
      marketType: r.marketType,
      period: r.period,
      side: r.side,
      isLive: false,
      outcomeId: null,
      teamId: null,
      point: r.close.point,
      american: r.close.american,
      decimal,
      fractional: decimalToFractional(decimal),
      isAvailable: true,
      lineStatus: 'normal',
      seenAt: r.close.seenAt,
      changedAt: r.close.seenAt,
      playerId: r.playerId,
      lineKey: r.lineKey,
    });
  }
  const books = new Map([...set.books].map(([id, b]) => [id, { id, name: b.name, isAggregate: b.isAggregate, isSharp: b.isSharp, kind: b.kind }]));
  return new MarketView(marketType, { id: game.id, league, homeTeamId: game.homeTeamId, awayTeamId: game.awayTeamId }, quotes, books, method);
}
