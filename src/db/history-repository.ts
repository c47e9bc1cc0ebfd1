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
 * it unchanged. `seenAt` and `changedAt` are the history row's time; decimal and fractional are
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

interface HistoryRow {
  id: bigint;
  gameId: number;
  bookId: number;
  marketType: string;
  period: string;
  side: string;
  isLive: boolean;
  point: number | null;
  american: number;
  seenAt: Date;
  outcomeId: string | null;
  teamId: number | null;
  lineStatus: string | null;
  homeTeamId: number;
  awayTeamId: number;
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
  // The outcomes are the current quotes of the games (every history row's outcome has one, created
  // when it was first seen); for each, its last history row of the moment is one index probe
  // (newest first, LIMIT 1). What is read is what is returned, whatever the games' history holds.
  const conditions = [Prisma.sql`q."gameId" IN (${Prisma.join([...gameIds])})`, ...scopeConditions(scope, 'q')];
  if (moment.kind === 'closing') conditions.push(Prisma.sql`q."isLive" = false`);
  const rows = await prisma.$queryRaw<HistoryRow[]>`
    SELECT h."id", q."gameId", q."bookId", q."marketType", q."period", q."side", q."isLive", h."point", h."american", h."seenAt",
      q."outcomeId", q."teamId", q."lineStatus", g."homeTeamId", g."awayTeamId"
    FROM "Quote" q
    JOIN "Game" g ON g."id" = q."gameId"
    CROSS JOIN LATERAL (
      SELECT h."id", h."point", h."american", h."seenAt"
      FROM "OddsHistory" h
      WHERE h."gameId" = q."gameId" AND h."bookId" = q."bookId" AND h."marketType" = q."marketType" AND h."period" = q."period"
        AND h."side" = q."side" AND h."isLive" = q."isLive" AND ${momentCondition(moment)}
      ORDER BY h."seenAt" DESC, h."id" DESC
      LIMIT 1
    ) h
    WHERE ${Prisma.join(conditions, ' AND ')}
    ORDER BY q."gameId", q."bookId", q."marketType", q."period", q."side", q."isLive"`;
  return rows.map((r) => {
    const american = Number(r.american);
    const decimal = americanToDecimal(american);
    const seenAt = new Date(r.seenAt);
    const teamId = r.teamId ?? (r.marketType === 'total' ? null : r.side === 'home' ? r.homeTeamId : r.awayTeamId);
    return {
      id: BigInt(r.id),
      gameId: r.gameId,
      bookId: r.bookId,
      marketType: r.marketType,
      period: r.period,
      side: r.side,
      isLive: r.isLive,
      outcomeId: r.outcomeId,
      teamId,
      point: r.point,
      american,
      decimal,
      fractional: decimalToFractional(decimal),
      isAvailable: true,
      lineStatus: r.lineStatus ?? 'normal',
      seenAt,
      changedAt: seenAt,
      // A snapshot has no opening price of its own: the row's price stands in (not served from here).
      openPoint: r.point,
      openAmerican: american,
      openedAt: seenAt,
    };
  });
}
