import type { PrismaClient, Quote } from './client';

// Reads behind live deltas (src/graphql/live-streams.ts): the current rows of what one ingest
// changed, by the keys its bus event carries. One call per ingest per process, shared by every stream.

/** Status, clock and score of games, by id (unknown ids are absent). */
export async function gameStates(prisma: PrismaClient, ids: readonly number[]) {
  if (!ids.length) return [];
  return prisma.game.findMany({
    where: { id: { in: [...ids] } },
    select: { id: true, status: true, statusDisplay: true, boxscore: { select: { clock: true, period: true, homeScore: true, awayScore: true } } },
  });
}

export type GameState = Awaited<ReturnType<typeof gameStates>>[number];

/**
 * Every quote (live and pregame, available or withdrawn) of the given games, markets and books, in
 * one query: the rows of the (game, market, book) triples plus, at worst, a few rows of other
 * triples of the same games, markets and books, which the caller drops.
 */
export async function quotesOfMarkets(prisma: PrismaClient, keys: ReadonlyArray<{ gameId: number; marketType: string; bookId: number }>): Promise<Quote[]> {
  if (!keys.length) return [];
  const unique = <T>(values: T[]) => [...new Set(values)];
  return prisma.quote.findMany({
    where: {
      gameId: { in: unique(keys.map((k) => k.gameId)) },
      marketType: { in: unique(keys.map((k) => k.marketType)) },
      bookId: { in: unique(keys.map((k) => k.bookId)) },
    },
    orderBy: [{ gameId: 'asc' }, { bookId: 'asc' }, { id: 'asc' }],
  });
}
