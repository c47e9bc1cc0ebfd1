import { americanToDecimal, decimalToFractional } from '../domain';
import { Prisma } from './__generated__/prisma/client';
import type { Game, PrismaClient, Quote } from './client';
import { scopeConditions, type QuoteScope } from './movement-repository';

/**
 * Which state of the history a snapshot shows: the closing line (last pregame price of each outcome
 * seen before the game's start time), or the state at an instant (last price of each outcome seen
 * at or before `at`, live prices included).
 */
export type SnapshotMoment = { kind: 'closing' } | { kind: 'at'; at: Date };

export interface HistoricalPageQuery {
  /** [start, end) bounds on the games' start time (the caller turns local days into instants). */
  start: Date;
  end: Date;
  gameIds?: readonly number[] | undefined;
  scope: QuoteScope;
  moment: SnapshotMoment;
  limit: number;
  offset: number;
}

/**
 * A price from the history, in the shape of a current quote so that the Game/Market resolvers render
 * it unchanged. `changedAt` is the history row's time; `seenAt` too on closing lines, and at an
 * instant the later of it and the game's newest history row then; decimal and fractional are
 * derived from the stored American price; outcome id, team and line status come from the current
 * quote of the same outcome when there is one.
 */
export type HistoricalQuote = Quote;

const some = <T>(list: readonly T[] | undefined): list is readonly T[] => Array.isArray(list) && list.length > 0;

/** Conditions on history rows `h` of game `g` for a moment (closing: pregame rows before the start). */
function momentCondition(moment: SnapshotMoment): Prisma.Sql {
  return moment.kind === 'closing' ? Prisma.sql`h."isLive" = false AND h."seenAt" < g."startTime"` : Prisma.sql`h."seenAt" <= ${moment.at}`;
}

/**
 * One page of the games that start in [start, end) and have at least one price in the history for
 * the moment and scope (a game without one would be a snapshot without markets), ordered by start
 * time then id, with the total count of such games.
 */
export async function findHistoricalGamePage(prisma: PrismaClient, query: HistoricalPageQuery): Promise<{ games: Game[]; total: number }> {
  const gameConditions = [Prisma.sql`g."startTime" >= ${query.start}`, Prisma.sql`g."startTime" < ${query.end}`];
  if (some(query.gameIds)) gameConditions.push(Prisma.sql`g."id" IN (${Prisma.join([...query.gameIds])})`);
  const historyConditions = [Prisma.sql`h."gameId" = g."id"`, momentCondition(query.moment), ...scopeConditions(query.scope, 'h')];
  const where = Prisma.sql`${Prisma.join(gameConditions, ' AND ')}
    AND EXISTS (SELECT 1 FROM "OddsHistory" h WHERE ${Prisma.join(historyConditions, ' AND ')})`;
  const [ids, counted] = await Promise.all([
    prisma.$queryRaw<Array<{ id: number }>>`
      SELECT g."id" FROM "Game" g WHERE ${where}
      ORDER BY g."startTime", g."id" LIMIT ${query.limit} OFFSET ${query.offset}`,
    prisma.$queryRaw<Array<{ total: bigint | number }>>`SELECT COUNT(*) AS total FROM "Game" g WHERE ${where}`,
  ]);
  const total = Number(counted[0]?.total ?? 0);
  if (!ids.length) return { games: [], total };
  const games = await prisma.game.findMany({ where: { id: { in: ids.map((r) => Number(r.id)) } } });
  const order = new Map(ids.map((r, i) => [Number(r.id), i]));
  games.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  return { games, total };
}

/** A game of a snapshot series and when the first price of it within the scope was seen. */
export interface SeriesGame {
  game: Game;
  firstSeenAt: Date;
}

/**
 * Every game that starts in [start, end) and has a price in the history within the scope, ordered
 * by start time then id, with its first such price's time (a series shows a game from then on). One
 * statement: per game, the oldest matching row through the ("gameId", "seenAt") index. The range is
 * at most HISTORICAL_MAX_DAYS of games, so the list is small.
 */
export async function findHistoricalSeriesGames(prisma: PrismaClient, query: Omit<HistoricalPageQuery, 'moment' | 'limit' | 'offset'>): Promise<SeriesGame[]> {
  const gameConditions = [Prisma.sql`g."startTime" >= ${query.start}`, Prisma.sql`g."startTime" < ${query.end}`];
  if (some(query.gameIds)) gameConditions.push(Prisma.sql`g."id" IN (${Prisma.join([...query.gameIds])})`);
  const rows = await prisma.$queryRaw<Array<{ id: number; firstSeenAt: Date }>>`
    SELECT g."id", f."seenAt" AS "firstSeenAt" FROM "Game" g
    CROSS JOIN LATERAL (
      SELECT h."seenAt" FROM "OddsHistory" h
      WHERE ${Prisma.join([Prisma.sql`h."gameId" = g."id"`, ...scopeConditions(query.scope, 'h')], ' AND ')}
      ORDER BY h."gameId", h."seenAt" LIMIT 1
    ) f
    WHERE ${Prisma.join(gameConditions, ' AND ')}
    ORDER BY g."startTime", g."id"`;
  if (!rows.length) return [];
  const games = new Map((await prisma.game.findMany({ where: { id: { in: rows.map((r) => Number(r.id)) } } })).map((g) => [g.id, g]));
  return rows.flatMap((r) => {
    const game = games.get(Number(r.id));
    return game ? [{ game, firstSeenAt: new Date(r.firstSeenAt) }] : [];
  });
}

interface HistoryRow {
  id: bigint;
  gameId: number;
  bookId: number;
  marketType: string;
  period: string;
  side: string;
  isLive: boolean;
  playerId: number;
  lineKey: string;
  point: number | null;
  american: number;
  /** The price as quoted where the source quotes decimals; null when it is derived from american. */
  decimal: number | null;
  source: string | null;
  /** The row's time, or the game's newest change then when later (HistoryRead.gameSeen). */
  seenAt: Date;
  /** The row's time: when the price took this value. */
  changedAt: Date;
  outcomeId: string | null;
  teamId: number | null;
  lineStatus: string | null;
  homeTeamId: number;
  awayTeamId: number;
}

/** A game and an instant: the prices of the game as they stood then (one snapshot of a series). */
export interface GameInstant {
  gameId: number;
  at: Date;
}

/**
 * The prices of `gameIds` as they stood at `moment`: for each game, book, market, period, side and
 * live flag, the last history row of that moment, within `scope`. Ordered by game, book, market,
 * period, side, live flag. A withdrawn price is not in the history, so it shows as its last value.
 */
export async function findHistoricalQuotes(
  prisma: PrismaClient,
  gameIds: readonly number[],
  moment: SnapshotMoment,
  scope: QuoteScope = {},
): Promise<HistoricalQuote[]> {
  if (!gameIds.length) return [];
  if (moment.kind === 'at') return (await findHistoricalQuotesAt(prisma, gameIds.map((gameId) => ({ gameId, at: moment.at })), scope)).flat();
  const source = Prisma.sql`(SELECT g."id" AS "gameId", 1::bigint AS "ord" FROM "Game" g WHERE g."id" IN (${Prisma.join([...gameIds])}))`;
  return (await readHistory(prisma, { source, moment: Prisma.sql`h."isLive" = false AND h."seenAt" < g."startTime"`, pregameOnly: true, scope, count: 1 }))[0]!;
}

/**
 * The prices of each (game, instant) pair as they stood at its instant (as `findHistoricalQuotes` at
 * that moment), in one statement whatever the number of pairs: the result is in the order of `pairs`,
 * one list per pair. The pairs of a series page are bounded by its page size (docs/point-in-time.md).
 */
export async function findHistoricalQuotesAt(prisma: PrismaClient, pairs: readonly GameInstant[], scope: QuoteScope = {}): Promise<HistoricalQuote[][]> {
  if (!pairs.length) return [];
  // Instants travel as ISO text and are read as UTC: the columns are UTC timestamps without zone.
  const source = Prisma.sql`(SELECT v."gameId", v."ord", (v."at"::timestamptz AT TIME ZONE 'UTC') AS "at"
    FROM unnest(${pairs.map((p) => p.gameId)}::int[], ${pairs.map((p) => p.at.toISOString())}::text[]) WITH ORDINALITY AS v("gameId", "at", "ord"))`;
  return readHistory(prisma, { source, moment: Prisma.sql`h."seenAt" <= p."at"`, pregameOnly: false, scope, count: pairs.length, gameSeen: true });
}

interface HistoryRead {
  /** Rows `p` ("gameId", "ord" from 1 to `count`, optionally "at"): one list of prices each. */
  source: Prisma.Sql;
  /** Which history rows of an outcome count (a condition on `h`, `g` and `p`). */
  moment: Prisma.Sql;
  pregameOnly: boolean;
  scope: QuoteScope;
  count: number;
  /**
   * Age prices from the game's newest change then: a quote's `seenAt` becomes the later of its own
   * row's time and the newest row of any outcome of its game, scope or not (as current quotes' age
   * runs from the later of theirs and the game's seenAt, odds-repository readQuotes): the history
   * keeps changes, not each time a price was confirmed, and the feed carrying any change of a game
   * is the nearest thing to having seen it then.
   */
  gameSeen?: boolean;
}

/** For each row of `read.source`, the last history row of every outcome of its game that the moment allows. */
async function readHistory(prisma: PrismaClient, read: HistoryRead): Promise<HistoricalQuote[][]> {
  // The outcomes are the current quotes of the games (every history row's outcome has one, created
  // when it was first seen); for each, its last history row of the moment is one index probe
  // (newest first, LIMIT 1). What is read is what is returned, whatever the games' history holds.
  // With gameSeen every outcome of the game is probed, the scope applied after the game's newest
  // change is taken (a filter the window stops the planner from pushing below it).
  const scope = scopeConditions(read.scope, 'r');
  const rows = await prisma.$queryRaw<Array<HistoryRow & { ord: bigint | number }>>`
    SELECT r.* FROM (
      SELECT p."ord", h."id", q."gameId", q."bookId", q."marketType", q."period", q."side", q."isLive", q."playerId", q."lineKey", h."point", h."american", h."decimal", h."source",
        h."seenAt" AS "changedAt", ${read.gameSeen ? Prisma.sql`max(h."seenAt") OVER (PARTITION BY p."ord")` : Prisma.sql`h."seenAt"`} AS "seenAt",
        q."outcomeId", q."teamId", q."lineStatus", g."homeTeamId", g."awayTeamId"
      FROM ${read.source} p
      JOIN "Quote" q ON q."gameId" = p."gameId"
      JOIN "Game" g ON g."id" = q."gameId"
      CROSS JOIN LATERAL (
        SELECT h."id", h."point", h."american", h."decimal", h."source", h."seenAt"
        FROM "OddsHistory" h
        WHERE h."gameId" = q."gameId" AND h."bookId" = q."bookId" AND h."marketType" = q."marketType" AND h."period" = q."period"
          AND h."side" = q."side" AND h."isLive" = q."isLive" AND h."playerId" = q."playerId" AND h."lineKey" = q."lineKey" AND ${read.moment}
        ORDER BY h."seenAt" DESC, h."id" DESC
        LIMIT 1
      ) h
      ${read.pregameOnly ? Prisma.sql`WHERE q."isLive" = false` : Prisma.empty}
    ) r
    ${scope.length ? Prisma.sql`WHERE ${Prisma.join(scope, ' AND ')}` : Prisma.empty}
    ORDER BY r."ord", r."gameId", r."bookId", r."marketType", r."period", r."side", r."isLive", r."playerId", r."lineKey"`;
  const lists: HistoricalQuote[][] = Array.from({ length: read.count }, () => []);
  for (const r of rows) lists[Number(r.ord) - 1]!.push(toQuote(r));
  return lists;
}

/** A history row in the shape of a current quote. */
function toQuote(r: HistoryRow): HistoricalQuote {
  const american = Number(r.american);
  const decimal = r.decimal ?? americanToDecimal(american);
  const seenAt = new Date(r.seenAt);
  const changedAt = new Date(r.changedAt);
  // A side that is a team (home, away) names it; over, under, yes and no name none.
  const teamId = r.teamId ?? (r.side === 'home' ? r.homeTeamId : r.side === 'away' ? r.awayTeamId : null);
  return {
    id: BigInt(r.id),
    gameId: r.gameId,
    bookId: r.bookId,
    marketType: r.marketType,
    period: r.period,
    side: r.side,
    isLive: r.isLive,
    playerId: Number(r.playerId),
    lineKey: r.lineKey,
    outcomeId: r.outcomeId,
    teamId,
    point: r.point,
    american,
    decimal,
    fractional: decimalToFractional(decimal),
    isAvailable: true,
    lineStatus: r.lineStatus ?? 'normal',
    seenAt,
    changedAt,
    // A snapshot has no opening price of its own: the row's price stands in (not served from here).
    openPoint: r.point,
    openAmerican: american,
    openedAt: changedAt,
    source: r.source,
  };
}

/**
 * The player prop prices of each game within `scope` (its prop market types and books): the number
 * of prop outcomes whose history a snapshot probes, pregame and live, counted before any is read so
 * that /historical can refuse a page its cost model does not allow (docs/player-props.md).
 */
export async function countPropPrices(prisma: PrismaClient, gameIds: readonly number[], scope: QuoteScope): Promise<Map<number, number>> {
  if (!gameIds.length) return new Map();
  const conditions = [Prisma.sql`q."gameId" IN (${Prisma.join([...gameIds])})`, Prisma.sql`q."playerId" <> 0`, ...scopeConditions(scope, 'q')];
  const rows = await prisma.$queryRaw<Array<{ gameId: number; n: bigint | number }>>`
    SELECT q."gameId", COUNT(*) AS n FROM "Quote" q WHERE ${Prisma.join(conditions, ' AND ')} GROUP BY q."gameId"`;
  return new Map(rows.map((r) => [Number(r.gameId), Number(r.n)]));
}
