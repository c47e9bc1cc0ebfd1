import { Prisma } from './__generated__/prisma/client';
import type { Game, PrismaClient, Quote } from './client';

/** Narrowing of history and quote reads; an absent or empty list means "any". */
export interface QuoteScope {
  marketTypes?: readonly string[] | undefined;
  bookIds?: readonly number[] | undefined;
  sides?: readonly string[] | undefined;
  periods?: readonly string[] | undefined;
}

/** The first price seen for one outcome. */
export interface OpeningPrice {
  point: number | null;
  american: number;
  isLive: boolean;
  seenAt: Date;
}

/** One outcome of one book with its opening price and its current quote. */
export interface MovementRow {
  gameId: number;
  bookId: number;
  marketType: string;
  period: string;
  side: string;
  open: OpeningPrice;
  current: Quote;
}

const some = <T>(list: readonly T[] | undefined): list is readonly T[] => Array.isArray(list) && list.length > 0;

/** SQL conditions on the key columns of "OddsHistory" / "Quote" for a scope (column names are shared). */
export function scopeConditions(scope: QuoteScope, alias = ''): Prisma.Sql[] {
  const col = (name: string) => Prisma.raw(`${alias ? `${alias}.` : ''}"${name}"`);
  const out: Prisma.Sql[] = [];
  if (some(scope.marketTypes)) out.push(Prisma.sql`${col('marketType')} IN (${Prisma.join(scope.marketTypes)})`);
  if (some(scope.bookIds)) out.push(Prisma.sql`${col('bookId')} IN (${Prisma.join(scope.bookIds)})`);
  if (some(scope.sides)) out.push(Prisma.sql`${col('side')} IN (${Prisma.join(scope.sides)})`);
  if (some(scope.periods)) out.push(Prisma.sql`${col('period')} IN (${Prisma.join(scope.periods)})`);
  return out;
}

/**
 * Games whose status is one of `statuses` (the caller passes the live ones), by start time then id;
 * `gameIds` narrows them (a game that is not being played is not returned, as on /odds/live).
 */
export async function findLiveGames(prisma: PrismaClient, statuses: readonly string[], gameIds?: readonly number[]): Promise<Game[]> {
  return prisma.game.findMany({
    where: { status: { in: [...statuses] }, ...(some(gameIds) ? { id: { in: [...gameIds] } } : {}) },
    orderBy: [{ startTime: 'asc' }, { id: 'asc' }],
  });
}

const outcomeKey = (r: { gameId: number; bookId: number; marketType: string; period: string; side: string }) =>
  `${r.gameId}|${r.bookId}|${r.marketType}|${r.period}|${r.side}`;

/**
 * Opening and current price of every available outcome of `gameIds` within `scope`: one row per
 * game, book, market, period and side. Current is the book's live quote when it has an available
 * one, otherwise its pregame quote; open is the first history row of the outcome (a pregame row
 * before any live one). Rows come in game, book, market, period, side order.
 */
export async function findLineMovement(prisma: PrismaClient, gameIds: readonly number[], scope: QuoteScope = {}): Promise<MovementRow[]> {
  if (!gameIds.length) return [];
  const quotes = await prisma.quote.findMany({
    where: {
      gameId: { in: [...gameIds] },
      isAvailable: true,
      ...(some(scope.marketTypes) ? { marketType: { in: [...scope.marketTypes] } } : {}),
      ...(some(scope.bookIds) ? { bookId: { in: [...scope.bookIds] } } : {}),
      ...(some(scope.sides) ? { side: { in: [...scope.sides] } } : {}),
      ...(some(scope.periods) ? { period: { in: [...scope.periods] } } : {}),
    },
    orderBy: [{ gameId: 'asc' }, { bookId: 'asc' }, { marketType: 'asc' }, { period: 'asc' }, { side: 'asc' }, { isLive: 'asc' }],
  });
  // Live quotes sort after pregame ones, so the last write per key is the one to show.
  const current = new Map<string, Quote>();
  for (const q of quotes) current.set(outcomeKey(q), q);
  if (!current.size) return [];

  const conditions = [Prisma.sql`"gameId" IN (${Prisma.join([...gameIds])})`, ...scopeConditions(scope)];
  // DISTINCT ON keeps the first row of each outcome in the ORDER BY: earliest pregame, then earliest live.
  const opens = await prisma.$queryRaw<Array<{ gameId: number; bookId: number; marketType: string; period: string; side: string; isLive: boolean; point: number | null; american: number; seenAt: Date }>>`
    SELECT DISTINCT ON ("gameId", "bookId", "marketType", "period", "side")
      "gameId", "bookId", "marketType", "period", "side", "isLive", "point", "american", "seenAt"
    FROM "OddsHistory"
    WHERE ${Prisma.join(conditions, ' AND ')}
    ORDER BY "gameId", "bookId", "marketType", "period", "side", "isLive" ASC, "seenAt" ASC, "id" ASC`;
  const openByKey = new Map(opens.map((o) => [outcomeKey(o), o]));

  const rows: MovementRow[] = [];
  for (const [key, q] of current) {
    const o = openByKey.get(key);
    // Every stored quote has a history row; a missing one (history pruned) opens at the current price.
    const open: OpeningPrice = o
      ? { point: o.point, american: Number(o.american), isLive: o.isLive, seenAt: new Date(o.seenAt) }
      : { point: q.point, american: q.american, isLive: q.isLive, seenAt: q.changedAt };
    rows.push({ gameId: q.gameId, bookId: q.bookId, marketType: q.marketType, period: q.period, side: q.side, open, current: q });
  }
  return rows;
}
