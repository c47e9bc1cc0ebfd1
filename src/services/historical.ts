import type { Quote } from '../db/client';
import type { QuoteScope } from '../db/movement-repository';
import {
  countPropPrices,
  findHistoricalGamePage,
  findHistoricalQuotes,
  findHistoricalQuotesAt,
  findHistoricalSeriesGames,
  type GameInstant,
  type SnapshotMoment,
} from '../db/history-repository';
import {
  addDays,
  firstInstantFrom,
  INTERVAL_HINT,
  isPropMarket,
  MARKET_TYPES,
  localDateOf,
  localDayRange,
  parseInterval,
  seriesInstants,
  seriesLength,
  STORED_MARKET_TYPES,
  storedMarketTypesOf,
  type LiveMarketType,
} from '../domain';
import { invalidParameter, list, parsePage } from './arguments';
import { withQuotes, type GameAt } from './point-in-time';
import { chooseShown } from './quotes';
import type { ReadContext } from './read-context';

// Historical odds (spec 2.9, 4.10): one snapshot per game from the append-only odds history. The
// plan gate (historical) is the caller's.

/** Widest start_date..end_date range, in days, both ends included (docs/live.md: historical odds). */
export const HISTORICAL_MAX_DAYS = 31;

/** Checks the required, ordered and bounded day range. @throws AppError BAD_REQUEST naming the problem */
export function parseHistoricalRange(startDate: string | null | undefined, endDate: string | null | undefined): { startDate: string; endDate: string } {
  if (!startDate) throw invalidParameter('start_date', 'is required, a day written YYYY-MM-DD');
  if (!endDate) throw invalidParameter('end_date', 'is required, a day written YYYY-MM-DD');
  if (endDate < startDate) throw invalidParameter('end_date', 'must not be before start_date');
  if (addDays(startDate, HISTORICAL_MAX_DAYS - 1) < endDate) {
    throw invalidParameter('end_date', `must be at most ${HISTORICAL_MAX_DAYS} days from start_date to end_date, both included`);
  }
  return { startDate, endDate };
}

/** Most instants a series may have from start_date to end_date (7 days of 5 minutes, 31 days of 2 hours). */
export const SERIES_MAX_INSTANTS = 2016;

/** Largest page of a series: one day of 5-minute snapshots of one game (each is a full game's prices). */
export const SERIES_MAX_LIMIT = 288;

/** One game's prices at an instant or at the close (GraphQL HistoricalSnapshot). */
export interface Snapshot {
  /** The game's league-local day, YYYYMMDD. */
  date: string;
  fetchedAt: Date | null;
  game: GameAt;
}

/**
 * The cost model of a page of snapshots (docs/live.md: historical odds). A snapshot of every book
 * and game market type costs 1; narrowed with book_id to k books it costs k/10 of the book part, with
 * market_type to k of the 3 market types k/3 of it, never less than the fixed part, 0.25 (the
 * point-in-time read of a game at an instant). Measured on the real day 2026-01-24 (PostgreSQL):
 * a full snapshot takes about 6.4 ms of CPU and 30 kB, one book of it about 2.4 ms.
 * Player props (market_type=player_props) are counted apart, by the prices the page's games hold:
 * a game carries 10-30x more prop prices than game prices, so a flat price per snapshot would either
 * refuse every props page or let one through that answers megabytes (docs/player-props.md).
 */
export const SNAPSHOT_FIXED_COST = 0.25;
/** Books a full snapshot is counted for (the real feed quotes 8 to 17 books per game). */
export const BOOKS_PER_SNAPSHOT = 10;
/** Most a page of /historical may cost: about 200 ms of CPU on the real data. */
export const HISTORICAL_MAX_COST = 25;
/**
 * Prop prices that cost as much as one full snapshot of the game markets (1). A first estimate, not
 * yet measured (the machine was shared when it was set): a prop outcome is one history probe and one
 * rendered outcome, about what a game-market outcome of a full snapshot costs. On the real WNBA props
 * captures a game holds 12 to 464 prop prices (docs/player-props.md).
 */
export const PROP_PRICES_PER_COST = 250;

/** What one snapshot costs under `scope`, between SNAPSHOT_FIXED_COST and 1, its prop prices left out (propCost). */
export function snapshotCost(scope: QuoteScope): number {
  const books = scope.bookIds?.length ? Math.min(1, scope.bookIds.length / BOOKS_PER_SNAPSHOT) : 1;
  const gameTypes = scope.marketTypes?.filter((t) => !isPropMarket(t));
  if (gameTypes && !gameTypes.length) return SNAPSHOT_FIXED_COST;
  const markets = gameTypes?.length ? Math.min(1, new Set(gameTypes.filter((t) => (MARKET_TYPES as readonly string[]).includes(t))).size / MARKET_TYPES.length) : 1;
  return SNAPSHOT_FIXED_COST + (1 - SNAPSHOT_FIXED_COST) * books * markets;
}

/** What `prices` prop prices cost (PROP_PRICES_PER_COST of them cost 1). */
export function propCost(prices: number): number {
  return prices / PROP_PRICES_PER_COST;
}

/**
 * Refuses a page of `snapshots` whose cost passes HISTORICAL_MAX_COST, before its prices are read.
 * `propPrices` is the number of prop prices the page's snapshots hold together (0 without props).
 * @throws AppError BAD_REQUEST naming the cost, the budget and the largest limit that fits
 */
export function checkHistoricalCost(snapshots: number, scope: QuoteScope, propPrices = 0): void {
  const each = snapshotCost(scope) + (snapshots ? propCost(propPrices) / snapshots : 0);
  const cost = snapshots * each;
  if (cost <= HISTORICAL_MAX_COST) return;
  const fits = Math.max(1, Math.floor(HISTORICAL_MAX_COST / each));
  throw invalidParameter(
    'limit',
    `this page would hold ${snapshots} snapshots costing ${+cost.toFixed(2)} (${+each.toFixed(3)} each: a snapshot of every book and market type costs 1, ` +
      `fewer books or market types cost less, down to ${SNAPSHOT_FIXED_COST}` +
      (propPrices ? `, and every ${PROP_PRICES_PER_COST} player prop prices 1 more: these hold ${propPrices}` : '') +
      `); at most ${HISTORICAL_MAX_COST} per request: ask for limit=${fits} or fewer (and page with offset), or narrow with book_id or market_type`,
  );
}

/** Market types of a /historical scope: those named (player_props: every prop), else every market type but the props. */
export function historicalMarketTypes(words: readonly string[] | null | undefined): string[] {
  return storedMarketTypesOf(words) ?? STORED_MARKET_TYPES.filter((t) => !isPropMarket(t));
}

/**
 * checkHistoricalCost of a page whose snapshots are of `gameIds` (one id per snapshot), its prop
 * prices counted first: one count per game, times the snapshots it has (none when the scope has no props).
 */
async function checkPageCost(ctx: ReadContext, gameIds: readonly number[], scope: QuoteScope): Promise<void> {
  let propPrices = 0;
  if (scope.marketTypes?.some(isPropMarket) && gameIds.length) {
    const counts = await countPropPrices(ctx.db.prisma, [...new Set(gameIds)], scope);
    propPrices = gameIds.reduce((sum, id) => sum + (counts.get(id) ?? 0), 0);
  }
  checkHistoricalCost(gameIds.length, scope, propPrices);
}

/**
 * A page of the series of snapshots every `interval` (docs/point-in-time.md): per game (start time,
 * id), the instants from its first price on, each one the prices as they stood then. The total counts
 * every (game, instant) pair of the range, the page's pairs are read in one statement.
 */
async function historicalSeries(
  ctx: ReadContext,
  args: { interval: string; at?: Date | null | undefined; gameId?: readonly number[] | null | undefined },
  range: { start: Date; end: Date },
  scope: QuoteScope,
  page: { limit: number; offset: number },
): Promise<{ total: number; items: Snapshot[] }> {
  const step = parseInterval(args.interval);
  if (step === null) throw invalidParameter('interval', INTERVAL_HINT);
  if (args.at) throw invalidParameter('at', 'not allowed with interval (the series has its own instants)');
  if (page.limit > SERIES_MAX_LIMIT) throw invalidParameter('limit', `must be an integer from 1 to ${SERIES_MAX_LIMIT} with interval`);
  const count = seriesLength(range.start, range.end, step);
  if (count > SERIES_MAX_INSTANTS) {
    throw invalidParameter('interval', `gives ${count} instants from start_date to end_date; at most ${SERIES_MAX_INSTANTS} (a longer interval or fewer days)`);
  }
  // Instants after the request's clock are left out: the prices of then are not known yet.
  const instants = seriesInstants(range.start, new Date(Math.min(range.end.getTime(), ctx.now.getTime() + 1)), step);
  const games = await findHistoricalSeriesGames(ctx.db.prisma, { ...range, gameIds: list(args.gameId), scope });

  let total = 0;
  const pairs: Array<GameInstant & { game: (typeof games)[number]['game'] }> = [];
  for (const { game, firstSeenAt } of games) {
    const first = firstInstantFrom(instants, firstSeenAt);
    // This game's pairs are total .. total + (instants.length - first) - 1 in the whole series.
    const from = Math.max(first, first + page.offset - total);
    const to = Math.min(instants.length, first + page.offset + page.limit - total);
    for (let i = from; i < to; i++) pairs.push({ gameId: game.id, at: instants[i]!, game });
    total += instants.length - first;
  }
  await checkPageCost(ctx, pairs.map((p) => p.gameId), scope);
  const lists = await findHistoricalQuotesAt(ctx.db.prisma, pairs, scope);
  const items = pairs.map(({ game, at }, i): Snapshot => ({
    date: localDateOf(game.startTime, ctx.timeZone).replaceAll('-', ''),
    fetchedAt: at,
    game: withQuotes(game, chooseShown(lists[i] ?? [], at >= game.startTime), at),
  }));
  return { total, items };
}

/** What Query.historicalOdds is asked for. */
export interface HistoricalQuery {
  startDate?: string | null | undefined;
  endDate?: string | null | undefined;
  gameId?: readonly number[] | null | undefined;
  marketType?: readonly LiveMarketType[] | null | undefined;
  bookId?: readonly number[] | null | undefined;
  at?: Date | null | undefined;
  interval?: string | null | undefined;
  limit?: number | null | undefined;
  offset?: number | null | undefined;
}

/**
 * A page of snapshots of the games of start_date..end_date: at `at`, at the close, or a series every
 * `interval`. @throws AppError BAD_REQUEST (range, interval, page, cost)
 */
export async function historicalOdds(ctx: ReadContext, args: HistoricalQuery): Promise<{ total: number; limit: number; offset: number; items: Snapshot[] }> {
  const { startDate, endDate } = parseHistoricalRange(args.startDate, args.endDate);
  const page = parsePage(args.limit, args.offset);
  const scope = { marketTypes: historicalMarketTypes(list(args.marketType)), bookIds: list(args.bookId) };
  const moment: SnapshotMoment = args.at ? { kind: 'at', at: args.at } : { kind: 'closing' };
  const { start, end } = localDayRange(startDate, endDate, ctx.timeZone);
  if (args.interval != null) {
    const series = await historicalSeries(ctx, { interval: args.interval, at: args.at, gameId: args.gameId }, { start, end }, scope, page);
    return { ...series, limit: page.limit, offset: page.offset };
  }

  const { games, total } = await findHistoricalGamePage(ctx.db.prisma, { start, end, gameIds: list(args.gameId), scope, moment, ...page });
  await checkPageCost(ctx, games.map((g) => g.id), scope);
  const quotes = await findHistoricalQuotes(
    ctx.db.prisma,
    games.map((g) => g.id),
    moment,
    scope,
  );
  const byGame = new Map<number, Quote[]>(games.map((g) => [g.id, []]));
  for (const q of quotes) byGame.get(q.gameId)?.push(q);

  const items: Snapshot[] = games.map((game) => {
    const preferLive = moment.kind === 'at' && moment.at >= game.startTime;
    const shown = chooseShown(byGame.get(game.id) ?? [], preferLive);
    const newest = shown.reduce<Date | null>((acc, q) => (!acc || q.seenAt > acc ? q.seenAt : acc), null);
    return {
      date: localDateOf(game.startTime, ctx.timeZone).replaceAll('-', ''),
      fetchedAt: moment.kind === 'at' ? moment.at : newest,
      game: withQuotes(game, shown, moment.kind === 'at' ? moment.at : undefined),
    };
  });
  return { total, limit: page.limit, offset: page.offset, items };
}
