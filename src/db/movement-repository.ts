import { Prisma } from './__generated__/prisma/client';
import type { Game, PrismaClient, Quote } from './client';
import { readQuotes } from './odds-repository';
import { LOST_GAME_AFTER_MS, MARKET_TYPES } from '../domain';

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
  /** Player props: the player (0 on game markets) and the alternate line's key ('' on a main line). */
  playerId: number;
  lineKey: string;
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
 * `scope` with its market types defaulting to the three markets: the listings of outcomes across
 * markets (line movement, closing lines) do not carry the core team-score markets (team totals are
 * served in a game's markets object, docs/api.md).
 */
export function inThreeMarkets(scope: QuoteScope): QuoteScope {
  return some(scope.marketTypes) ? scope : { ...scope, marketTypes: MARKET_TYPES };
}

/**
 * Games whose status is one of `statuses` (the caller passes the live ones), by start time then id;
 * `gameIds` narrows them (a game that is not being played is not returned, as on /odds/live).
 * Bounded by time: only games a feed document carried within LOST_GAME_AFTER_MS of the newest
 * document written (the ingest marks the others once that long has passed), read through the
 * (status, startTime) index.
 */
export async function findLiveGames(prisma: PrismaClient, statuses: readonly string[], gameIds?: readonly number[]): Promise<Game[]> {
  if (!statuses.length) return [];
  const conditions = [
    Prisma.sql`g."status" IN (${Prisma.join([...statuses])})`,
    Prisma.sql`g."seenAt" >= COALESCE((SELECT s."feedTime" FROM "IngestState" s WHERE s."id" = 1), g."seenAt") - ${LOST_GAME_AFTER_MS} * interval '1 millisecond'`,
  ];
  if (some(gameIds)) conditions.push(Prisma.sql`g."id" IN (${Prisma.join([...gameIds])})`);
  const ids = await prisma.$queryRaw<Array<{ id: number }>>`
    SELECT g."id" FROM "Game" g WHERE ${Prisma.join(conditions, ' AND ')} ORDER BY g."startTime", g."id"`;
  if (!ids.length) return [];
  const games = await prisma.game.findMany({ where: { id: { in: ids.map((r) => Number(r.id)) } } });
  const order = new Map(ids.map((r, i) => [Number(r.id), i]));
  return games.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}

// A prop's outcome is also keyed by its player and line: each alternate line moves on its own.
const outcomeKey = (r: { gameId: number; bookId: number; marketType: string; period: string; side: string; playerId: number; lineKey: string }) =>
  `${r.gameId}|${r.bookId}|${r.marketType}|${r.period}|${r.side}|${r.playerId}|${r.lineKey}`;

/**
 * Opening and current price of every available outcome of `gameIds` within `scope`: one row per
 * game, book, market, period and side (and, on player props, player and line: `scope` names the prop
 * market types; without market types the three markets only). Current is the book's live quote when it has an available
 * one, otherwise its pregame quote; open is the opening price stored on the quote when it was first
 * seen (the pregame one when the outcome has both). One read of the current quotes, no history.
 */
export async function findLineMovement(prisma: PrismaClient, gameIds: readonly number[], scope: QuoteScope = {}): Promise<MovementRow[]> {
  if (!gameIds.length) return [];
  const quotes = await readQuotes(
    prisma,
    Prisma.join([Prisma.sql`q."gameId" IN (${Prisma.join([...gameIds])})`, ...scopeConditions(inThreeMarkets(scope), 'q')], ' AND '),
    Prisma.sql`q."gameId", q."bookId", q."marketType", q."period", q."side", q."isLive"`,
  );
  // Pregame quotes sort before live ones: the first row of a key opens it, the last available one is current.
  const open = new Map<string, OpeningPrice>();
  const current = new Map<string, Quote>();
  for (const q of quotes) {
    const key = outcomeKey(q);
    if (!open.has(key)) open.set(key, { point: q.openPoint, american: q.openAmerican, isLive: q.isLive, seenAt: q.openedAt });
    if (q.isAvailable) current.set(key, q);
  }
  const rows: MovementRow[] = [];
  for (const [key, q] of current) {
    rows.push({
      gameId: q.gameId,
      bookId: q.bookId,
      marketType: q.marketType,
      period: q.period,
      side: q.side,
      playerId: q.playerId,
      lineKey: q.lineKey,
      open: open.get(key)!,
      current: q,
    });
  }
  return rows;
}
