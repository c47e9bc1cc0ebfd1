import type { Game as GameRow, Quote } from '../db/client';
import { findHistoricalQuotes } from '../db/history-repository';
import { invalidParameter } from './arguments';
import { chooseShown } from './quotes';
import type { ReadContext } from './read-context';

// Point in time (`asOf` on game, games and marketListing; REST `as_of`): the prices as the service
// knew them at an instant, read from the append-only history. docs/point-in-time.md.

/**
 * A game row; `quotesAsOf`, when set, are the prices its markets show instead of the current quotes
 * (a point in time or a historical snapshot), one per book, market, period and side.
 * The model of GraphQL's Game (src/graphql/mappers.ts).
 */
export type GameAt = GameRow & { quotesAsOf?: Quote[] | undefined; quotesAt?: Date | undefined };

/**
 * Checks an `asOf` instant before anything is read: not after the request's clock (the service cannot
 * know prices it has not seen; an instant in the future would also be an answer that changes while it
 * is cached). The plan gate (Pro, Elite, like the history it is read from) is the caller's.
 * @throws AppError BAD_REQUEST (400) naming as_of
 */
export function checkAsOfInstant(asOf: Date, now: Date): void {
  if (asOf.getTime() > now.getTime()) {
    throw invalidParameter('as_of', `must not be in the future (now is ${now.toISOString()}): prices not yet seen are unknown`);
  }
}

/**
 * The games with the prices they showed at `asOf` (one statement for all of them): per book,
 * market, period and side, the last price seen at or before it, the live one from the game's start
 * on when the book had one (as a game being played shows its live prices). The markets of the
 * returned games render these instead of the current quotes; the other fields are the game now.
 */
export async function gamesAsOf(ctx: Pick<ReadContext, 'db'>, games: readonly GameRow[], asOf: Date): Promise<GameAt[]> {
  const quotes = await findHistoricalQuotes(
    ctx.db.prisma,
    games.map((g) => g.id),
    { kind: 'at', at: asOf },
  );
  const byGame = new Map<number, typeof quotes>(games.map((g) => [g.id, []]));
  for (const q of quotes) byGame.get(q.gameId)?.push(q);
  return games.map((g) => withQuotes(g, chooseShown(byGame.get(g.id) ?? [], asOf >= g.startTime), asOf));
}

/**
 * The game whose markets show `quotes` (already one per book, market, period and side), as they
 * stood at `at` when they are the prices of an instant (not of a closing snapshot).
 */
export function withQuotes(game: GameRow, quotes: GameAt['quotesAsOf'], at?: Date): GameAt {
  return { ...game, quotesAsOf: quotes, ...(at && { quotesAt: at }) };
}
