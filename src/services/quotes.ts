import type { QuoteRow, SportsbookRow } from '../db/odds-repository';
import { LIVE_STATUSES } from '../domain';
import type { ReadContext } from './read-context';

export type { QuoteRow, SportsbookRow };

// Which stored quotes a game shows. The quotes table keeps a pregame and a live row per book and
// side; a game shows one of them, so that counts, best odds and consensus never mix the two.

/**
 * One quote per book, market, period and side: the live row while the game is being played (when
 * the book has one), the pregame row otherwise, the live row when there is no pregame row.
 */
export function displayedQuotes(status: string, quotes: readonly QuoteRow[]): QuoteRow[] {
  return chooseShown(quotes, LIVE_STATUSES.includes(status));
}

/**
 * One quote per book, market, period and side (and player and alternate line on props): the live one when `preferLive` and the book has one,
 * the pregame one otherwise (the live one when there is no pregame one). Current quotes prefer live
 * while the game is played; a point in time prefers live from the game's start on.
 */
export function chooseShown<Q extends QuoteRow>(quotes: readonly Q[], preferLive: boolean): Q[] {
  const chosen = new Map<string, Q>();
  for (const q of quotes) {
    const key = `${q.bookId}|${q.marketType}|${q.period}|${q.side}|${q.playerId ?? 0}|${q.lineKey ?? ''}`;
    const current = chosen.get(key);
    if (!current || (current.isLive !== q.isLive && q.isLive === preferLive)) chosen.set(key, q);
  }
  return [...chosen.values()];
}

/** The books of `quotes` by id (one batched load; unknown books are absent). */
export async function booksOf(ctx: Pick<ReadContext, 'loaders'>, quotes: readonly { bookId: number }[]): Promise<Map<number, SportsbookRow>> {
  const ids = [...new Set(quotes.map((q) => q.bookId))];
  const books = await ctx.loaders.sportsbookById.loadMany(ids);
  const map = new Map<number, SportsbookRow>();
  for (const b of books) if (b && !(b instanceof Error)) map.set(b.id, b);
  return map;
}

/** A place to bet: not an aggregate (Consensus, Open). A book missing from the table counts as real. */
export function isRealBook(books: ReadonlyMap<number, SportsbookRow>, bookId: number): boolean {
  return !books.get(bookId)?.isAggregate;
}
