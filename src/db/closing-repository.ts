import { Prisma } from './__generated__/prisma/client';
import type { PrismaClient } from './client';
import { inThreeMarkets, scopeConditions, type QuoteScope } from './movement-repository';

// Closing lines from the append-only odds history (docs/closing-and-grading.md): per game, the
// moment it went live, and per outcome any book ever quoted, the last pregame price seen before it.

/** When a game was first captured and first had a live price: what its cutoff is computed from. */
export interface GameCaptureFacts {
  gameId: number;
  startTime: Date;
  status: string;
  /** Earliest history row of the game (any book, market, live or not); null when it has none. */
  firstSeenAt: Date | null;
  /** Earliest live price of the game; null when none was captured. */
  firstLiveAt: Date | null;
}

/** One outcome a book quoted (pregame or live) and its last pregame price before `cutoff`, if any. */
export interface ClosingRow {
  gameId: number;
  bookId: number;
  marketType: string;
  period: string;
  side: string;
  /** Player props: the player (0 on game markets) and the alternate line's key ('' on a main line). */
  playerId: number;
  lineKey: string;
  /** Null when the outcome has no pregame price before the cutoff. */
  close: { point: number | null; american: number; seenAt: Date } | null;
}

/** Capture facts of `gameIds` (games that do not exist are absent). */
export async function findGameCaptureFacts(prisma: PrismaClient, gameIds: readonly number[]): Promise<GameCaptureFacts[]> {
  if (!gameIds.length) return [];
  const rows = await prisma.$queryRaw<Array<{ id: number; startTime: Date; status: string; firstSeenAt: Date | null; firstLiveAt: Date | null }>>`
    SELECT g."id", g."startTime", g."status",
      (SELECT MIN(h."seenAt") FROM "OddsHistory" h WHERE h."gameId" = g."id") AS "firstSeenAt",
      (SELECT MIN(h."seenAt") FROM "OddsHistory" h WHERE h."gameId" = g."id" AND h."isLive") AS "firstLiveAt"
    FROM "Game" g WHERE g."id" IN (${Prisma.join([...gameIds])})
    ORDER BY g."startTime", g."id"`;
  const date = (d: Date | string | null) => (d === null ? null : new Date(d));
  return rows.map((r) => ({ gameId: Number(r.id), startTime: new Date(r.startTime), status: r.status, firstSeenAt: date(r.firstSeenAt), firstLiveAt: date(r.firstLiveAt) }));
}

/**
 * For each game of `cutoffs` (game id -> instant), every outcome (book, market, period, side) in its
 * history within `scope`, with the last pregame row seen strictly before the game's cutoff (newest
 * seenAt, then newest id). Ordered by game, book, market, period, side.
 */
export async function findClosingRows(prisma: PrismaClient, cutoffs: ReadonlyMap<number, Date>, scope: QuoteScope = {}): Promise<ClosingRow[]> {
  if (!cutoffs.size) return [];
  const values = Prisma.join([...cutoffs].map(([id, at]) => Prisma.sql`(${id}::int, ${at.toISOString()}::timestamp(3))`));
  const conditions = [Prisma.sql`h."gameId" IN (${Prisma.join([...cutoffs.keys()])})`, ...scopeConditions(inThreeMarkets(scope), 'h')];
  const rows = await prisma.$queryRaw<
    Array<{ gameId: number; bookId: number; marketType: string; period: string; side: string; playerId: number; lineKey: string; point: number | null; american: number | null; seenAt: Date | null }>
  >`
    WITH c("gameId", "cutoff") AS (VALUES ${values}),
    o AS (
      SELECT DISTINCT h."gameId", h."bookId", h."marketType", h."period", h."side", h."playerId", h."lineKey"
      FROM "OddsHistory" h WHERE ${Prisma.join(conditions, ' AND ')}
    )
    SELECT o.*, last."point", last."american", last."seenAt"
    FROM o JOIN c ON c."gameId" = o."gameId"
    LEFT JOIN LATERAL (
      SELECT h."point", h."american", h."seenAt" FROM "OddsHistory" h
      WHERE h."gameId" = o."gameId" AND h."bookId" = o."bookId" AND h."marketType" = o."marketType"
        AND h."period" = o."period" AND h."side" = o."side" AND h."playerId" = o."playerId" AND h."lineKey" = o."lineKey"
        AND h."isLive" = false AND h."seenAt" < c."cutoff"
      ORDER BY h."seenAt" DESC, h."id" DESC LIMIT 1
    ) last ON true
    ORDER BY o."gameId", o."bookId", o."marketType", o."period", o."side", o."playerId", o."lineKey"`;
  return rows.map((r) => ({
    gameId: Number(r.gameId),
    bookId: Number(r.bookId),
    marketType: r.marketType,
    period: r.period,
    side: r.side,
    playerId: Number(r.playerId),
    lineKey: r.lineKey,
    close: r.american === null || r.seenAt === null ? null : { point: r.point === null ? null : Number(r.point), american: Number(r.american), seenAt: new Date(r.seenAt) },
  }));
}
