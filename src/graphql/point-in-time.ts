import { requirePlan } from '../auth/viewer';
import type { Game as GameRow } from '../db/client';
import { findHistoricalQuotes } from '../db/history-repository';
import { invalidParameter } from './arguments';
import type { GraphQLContext } from './context';
import type { Game } from './mappers';
import { chooseShown } from './quotes';

// Point in time (`asOf` on game, games and marketListing; REST `as_of`): the prices as the service
// knew them at an instant, read from the append-only history. docs/point-in-time.md.

/**
 * Checks an `asOf` argument before anything is read: the plan (Pro, Elite, like the history it is
 * read from) and an instant that is not after the request's clock (the service cannot know prices it
 * has not seen; an instant in the future would also be an answer that changes while it is cached).
 * @throws AppError PLAN_REQUIRED (403) or BAD_REQUEST (400) naming as_of
 */
export function checkAsOf(ctx: GraphQLContext, asOf: Date, what: string): void {
  if (ctx.viewer) requirePlan(ctx.viewer, 'historical', what);
  if (asOf.getTime() > ctx.now.getTime()) {
    throw invalidParameter('as_of', `must not be in the future (now is ${ctx.now.toISOString()}): prices not yet seen are unknown`);
  }
}

/**
 * The games with the prices they showed at `asOf` (one statement for all of them): per book,
 * market, period and side, the last price seen at or before it, the live one from the game's start
 * on when the book had one (as a game being played shows its live prices). The markets of the
 * returned games render these instead of the current quotes; the other fields are the game now.
 */
export async function gamesAsOf(ctx: GraphQLContext, games: readonly GameRow[], asOf: Date): Promise<Game[]> {
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
export function withQuotes(game: GameRow, quotes: Game['quotesAsOf'], at?: Date): Game {
  return { ...game, quotesAsOf: quotes, ...(at && { quotesAt: at }) };
}
