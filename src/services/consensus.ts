import { compareCodePoints, consensusAmericanPrices, MARKET_TYPES, medianLine } from '../domain';
import type { Game } from '../db/client';
import type { PublicBettingRow, QuoteRow } from '../db/odds-repository';
import { booksOf, displayedQuotes, isRealBook } from './quotes';
import type { ReadContext } from './read-context';

// Consensus per game (spec 2.10) and public betting (4.15), both over full-game markets, read
// through the request's loaders.

type Reads = Pick<ReadContext, 'loaders'>;

async function realQuotes(game: Game, marketType: string, ctx: Reads): Promise<QuoteRow[]> {
  const quotes = displayedQuotes(game.status, await ctx.loaders.quotesByGameId.load(game.id)).filter(
    (q) => q.marketType === marketType && q.period === 'full_game' && q.isAvailable,
  );
  const books = await booksOf(ctx, quotes);
  return quotes.filter((q) => isRealBook(books, q.bookId));
}

/** Median point of one side across books, or null without points. */
function medianPoint(quotes: readonly QuoteRow[], side: string): number | null {
  const points = quotes.flatMap((q) => (q.side === side && q.point !== null ? [q.point] : []));
  return points.length ? medianLine(points) : null;
}

/**
 * The public betting rows of one market to show: the aggregate (Consensus) book's when it has them,
 * since it summarises all books, else those of the lowest book id that has any.
 */
async function bettingRows(game: Game, marketType: string, ctx: Reads): Promise<PublicBettingRow[]> {
  const rows = (await ctx.loaders.publicBettingByGameId.load(game.id)).filter((r) => r.marketType === marketType && r.period === 'full_game');
  const books = await booksOf(ctx, rows);
  const bookIds = [...new Set(rows.map((r) => r.bookId))].sort((a, b) => Number(isRealBook(books, a)) - Number(isRealBook(books, b)) || a - b);
  return rows.filter((r) => r.bookId === bookIds[0]);
}

/** The consensus of one game's markets: moneyline prices, spread and total lines, public betting. */
export async function consensusMarkets(ctx: Reads, game: Game) {
  const [moneyline, spread, total, betting] = await Promise.all([
    realQuotes(game, 'moneyline', ctx),
    realQuotes(game, 'spread', ctx),
    realQuotes(game, 'total', ctx),
    bettingRows(game, 'moneyline', ctx),
  ]);
  const prices = {
    home: moneyline.filter((q) => q.side === 'home').map((q) => q.decimal),
    away: moneyline.filter((q) => q.side === 'away').map((q) => q.decimal),
  };
  const american = prices.home.length && prices.away.length ? consensusAmericanPrices(prices) : null;
  const side = (s: string) => betting.find((r) => r.side === s);
  return {
    moneyline: {
      consensusHome: american?.home ?? null,
      consensusAway: american?.away ?? null,
      publicBetting: {
        homePercentage: side('home')?.ticketsPercent ?? null,
        awayPercentage: side('away')?.ticketsPercent ?? null,
        totalBets: betting.find((r) => r.numBets !== null)?.numBets ?? game.numBets ?? null,
      },
    },
    spread: { consensusLine: medianPoint(spread, 'home') },
    total: { consensusLine: medianPoint(total, 'over') },
  };
}

const MARKET_ORDER: readonly string[] = MARKET_TYPES;
const SIDE_ORDER = ['away', 'home', 'over', 'under'];

/** One game's public betting per market, period and book (narrowed to `marketTypes`, `bookIds` when given). */
export async function bettingMarkets(ctx: Reads, game: Game, marketTypes?: readonly string[], bookIds?: readonly number[]) {
  const rows = (await ctx.loaders.publicBettingByGameId.load(game.id)).filter(
    (r) => (!marketTypes || marketTypes.includes(r.marketType)) && (!bookIds || bookIds.includes(r.bookId)),
  );
  const books = await booksOf(ctx, rows);
  const groups = new Map<string, PublicBettingRow[]>();
  for (const r of rows) {
    const key = `${r.marketType}|${r.period}|${r.bookId}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const quotes = await ctx.loaders.quotesByGameId.load(game.id);
  const teamOf = (r: PublicBettingRow) => quotes.find((q) => q.marketType === r.marketType && q.side === r.side && q.teamId !== null)?.teamId ??
    (r.side === 'home' ? game.homeTeamId : r.side === 'away' ? game.awayTeamId : null);
  return [...groups.values()]
    .map((group) => {
      const first = group[0]!;
      return {
        marketType: first.marketType,
        period: first.period,
        bookId: first.bookId,
        bookName: books.get(first.bookId)?.name ?? null,
        numBets: group.find((r) => r.numBets !== null)?.numBets ?? null,
        sides: group
          .sort((a, b) => SIDE_ORDER.indexOf(a.side) - SIDE_ORDER.indexOf(b.side))
          .map((r) => ({ side: r.side, teamId: teamOf(r), ticketsPercentage: r.ticketsPercent, moneyPercentage: r.moneyPercent, numBets: r.numBets })),
      };
    })
    .sort((a, b) => MARKET_ORDER.indexOf(a.marketType) - MARKET_ORDER.indexOf(b.marketType) || compareCodePoints(a.period, b.period) || a.bookId - b.bookId);
}
