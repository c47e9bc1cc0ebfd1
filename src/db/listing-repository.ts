import { PROP_MARKET_TYPES } from '../domain';
import { LIVE_STALE_AFTER_MS, PREGAME_STALE_AFTER_MS } from '../domain/stale';
import { Prisma } from './__generated__/prisma/client';
import type { PrismaClient, Quote, Sportsbook } from './client';
import { findHistoricalQuotes } from './history-repository';
import { readQuotes } from './odds-repository';

// The reads behind the cross-game market listings (spec 4.5-4.7): the games in scope, every
// available quote of one market type and period for them, and the sportsbook flags (aggregate,
// sharp). Three statements, whatever the number of games.

/** Which games and which market a listing covers; absent fields do not filter. */
export interface ListingScope {
  /** start_time >= from (inclusive). */
  from?: Date | undefined;
  /** start_time < to (exclusive). */
  to?: Date | undefined;
  gameIds?: readonly number[] | undefined;
  /** Either team plays (the listing narrows further to the outcomes of these teams). */
  teamIds?: readonly number[] | undefined;
  /** A market type, or `player_props` for every player prop. */
  marketType: string;
  period: string;
}

/** A game in scope with the name of its league (which picks the key-number distribution). */
export interface ListingGameRow {
  id: number;
  leagueId: number;
  leagueName: string;
  homeTeamId: number;
  awayTeamId: number;
  status: string;
  startTime: Date;
}

export interface ListingRows {
  games: ListingGameRow[];
  /**
   * Available quotes of every book, aggregates included (the listing decides what to drop); with
   * `asOf`, the prices of the history then instead, pregame and live rows of each outcome.
   */
  quotes: Quote[];
  books: Sportsbook[];
}

/**
 * The rows a listing is computed from. Quotes are not narrowed by book or side here: the reference
 * probability, consensus and arbitrage of a market need every book's prices.
 */
export async function findListingRows(prisma: PrismaClient, scope: ListingScope, asOf?: Date): Promise<ListingRows> {
  const games = await prisma.game.findMany({
    where: {
      ...((scope.from || scope.to) && { startTime: { ...(scope.from && { gte: scope.from }), ...(scope.to && { lt: scope.to }) } }),
      ...(scope.gameIds && { id: { in: [...scope.gameIds] } }),
      ...(scope.teamIds && { OR: [{ homeTeamId: { in: [...scope.teamIds] } }, { awayTeamId: { in: [...scope.teamIds] } }] }),
    },
    select: { id: true, leagueId: true, homeTeamId: true, awayTeamId: true, status: true, startTime: true, league: { select: { name: true } } },
    orderBy: [{ startTime: 'asc' }, { id: 'asc' }],
  });
  if (games.length === 0) return { games: [], quotes: [], books: [] };
  const [quotes, books] = await Promise.all([
    asOf
      ? findHistoricalQuotes(
          prisma,
          games.map((g) => g.id),
          { kind: 'at', at: asOf },
          { marketTypes: scope.marketType === 'player_props' ? PROP_MARKET_TYPES : [scope.marketType], periods: [scope.period] },
        )
      : readQuotes(
          prisma,
          Prisma.sql`q."gameId" IN (${Prisma.join(games.map((g) => g.id))}) AND ${
            scope.marketType === 'player_props' ? Prisma.sql`q."playerId" <> 0` : Prisma.sql`q."marketType" = ${scope.marketType}`
          } AND q."period" = ${scope.period} AND q."isAvailable"`,
          Prisma.sql`q."gameId", q."bookId", q."id"`,
        ),
    prisma.sportsbook.findMany({ orderBy: { id: 'asc' } }),
  ]);
  return {
    games: games.map((g) => ({ id: g.id, leagueId: g.leagueId, leagueName: g.league.name, homeTeamId: g.homeTeamId, awayTeamId: g.awayTeamId, status: g.status, startTime: g.startTime })),
    quotes,
    books,
  };
}

/**
 * How many available quotes are still fresh at `now` (not yet flagged stale by age, domain/stale.ts:
 * seen within LIVE_STALE_AFTER_MS when live, PREGAME_STALE_AFTER_MS otherwise). Without an ingest this
 * number only shrinks, so a change of it means some stale flag flipped (the data version's clock).
 * A quote's age runs from the later of its own and its game's `seenAt` (as readers report it), and
 * the game's is never earlier than its quotes': only quotes of games seen within the longer limit
 * are read, not every quote ever stored.
 */
export async function countFreshQuotes(prisma: PrismaClient, now: Date): Promise<number> {
  const live = new Date(now.getTime() - LIVE_STALE_AFTER_MS);
  const pregame = new Date(now.getTime() - PREGAME_STALE_AFTER_MS);
  // Columns are UTC timestamps without zone: compare in UTC whatever the session's zone.
  // Per game through the quotes' key index (LATERAL): a join would let the planner scan every quote.
  const rows = await prisma.$queryRaw<Array<{ n: bigint | number | string }>>`SELECT COALESCE(sum(c."n"), 0)::bigint AS "n" FROM "Game" g
    CROSS JOIN LATERAL (SELECT count(*) AS "n" FROM "Quote" q WHERE q."gameId" = g."id" AND q."isAvailable"
      AND GREATEST(q."seenAt", g."seenAt") >= (CASE WHEN q."isLive" THEN ${live}::timestamptz ELSE ${pregame}::timestamptz END AT TIME ZONE 'UTC')) c
    WHERE g."seenAt" >= (${pregame}::timestamptz AT TIME ZONE 'UTC')`;
  return Number(rows[0]?.n ?? 0);
}
