import { Prisma } from './__generated__/prisma/client';
import type { PrismaClient, Quote } from './client';
import { findLiveGames } from './movement-repository';
import { boxscoresByGameIds, propQuotesByGameIds, quotesByGameIds } from './odds-repository';

// Reads behind live pushes (src/services/live-streams.ts, the live snapshot): the current rows of what
// one ingest changed, by the keys its bus event carries, and the games being played with their
// quotes and scores. One call per ingest per process, shared by every stream.
//
// Every push is read from ONE database snapshot (readConsistently): a game's status and its score sit
// in two tables and Prisma reads them in two statements, and quotes in a third; read separately, under
// READ COMMITTED, they can straddle an ingest's commit and show a game as no capture had it (status of
// one capture, score of the next: "in progress, down 39" for a game that is over).

/** Longest a push's read may wait for a connection and run; the pool is shared with the API. */
const READ_TIMEOUT_MS = 10_000;

/** The transaction clients of readConsistently. */
const readers = new WeakSet<PrismaClient>();

/**
 * Runs `read` inside one REPEATABLE READ, READ ONLY transaction, so that every statement it sends
 * sees the same committed state. Called with a transaction client already, it just runs `read`.
 */
export function readConsistently<T>(prisma: PrismaClient, read: (db: PrismaClient) => Promise<T>): Promise<T> {
  // Already inside one: the same snapshot (a nested $transaction would be a savepoint, which the
  // embedded store's adapter does not implement). A client without transactions (a test double) reads as it is.
  if (readers.has(prisma) || typeof (prisma as Partial<PrismaClient>).$transaction !== 'function') return read(prisma);
  return prisma.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe('SET TRANSACTION READ ONLY');
      // The transaction client runs every query the repositories send.
      const db = tx as unknown as PrismaClient;
      readers.add(db);
      return read(db);
    },
    { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead, maxWait: READ_TIMEOUT_MS, timeout: READ_TIMEOUT_MS },
  );
}

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

/**
 * The live snapshot's rows, from one database snapshot: the games being played (narrowed to
 * `gameIds`), and their quotes and boxscores, and with `props` their player-prop quotes (read only
 * for a snapshot that shows them).
 */
export function liveSnapshotRows(prisma: PrismaClient, statuses: readonly string[], gameIds?: readonly number[], props = false) {
  return readConsistently(prisma, async (db) => {
    const games = await findLiveGames(db, statuses, gameIds);
    const ids = games.map((g) => g.id);
    if (!ids.length) return { games, quotes: [], boxscores: [], props: [] };
    const [quotes, boxscores] = [await quotesByGameIds(db, ids), await boxscoresByGameIds(db, ids)];
    return { games, quotes, boxscores, props: props ? await propQuotesByGameIds(db, ids) : [] };
  });
}
