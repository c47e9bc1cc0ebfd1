import { consensusAmericanPrices, medianLine } from '../../domain';
import type { PublicBettingRow, QuoteRow } from '../../db/odds-repository';
import type { BettingInfoResolvers, ConsensusRecordResolvers } from '../__generated__/resolvers-types';
import type { GraphQLContext } from '../context';
import type { Game } from '../mappers';
import { booksOf, displayedQuotes, isRealBook } from '../quotes';

// Consensus per game (spec 2.10) and public betting (4.15), both over full-game markets.

async function realQuotes(game: Game, marketType: string, ctx: GraphQLContext): Promise<QuoteRow[]> {
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
async function bettingRows(game: Game, marketType: string, ctx: GraphQLContext): Promise<PublicBettingRow[]> {
  const rows = (await ctx.loaders.publicBettingByGameId.load(game.id)).filter((r) => r.marketType === marketType && r.period === 'full_game');
  const books = await booksOf(ctx, rows);
  const bookIds = [...new Set(rows.map((r) => r.bookId))].sort((a, b) => Number(isRealBook(books, a)) - Number(isRealBook(books, b)) || a - b);
  return rows.filter((r) => r.bookId === bookIds[0]);
}

const teamAbbr = async (id: number, ctx: GraphQLContext) => ({ id, abbr: (await ctx.loaders.teamById.load(id))?.abbr ?? null });

export const ConsensusRecord: ConsensusRecordResolvers = {
  game_id: (r) => r.game.id,
  away_team: (r, _a, ctx) => teamAbbr(r.game.awayTeamId, ctx),
  home_team: (r, _a, ctx) => teamAbbr(r.game.homeTeamId, ctx),
  start_time: (r) => r.game.startTime,
  status: (r) => r.game.status,
  markets: async ({ game }, _a, ctx) => {
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
        consensus_home: american?.home ?? null,
        consensus_away: american?.away ?? null,
        public_betting: {
          home_percentage: side('home')?.ticketsPercent ?? null,
          away_percentage: side('away')?.ticketsPercent ?? null,
          total_bets: betting.find((r) => r.numBets !== null)?.numBets ?? game.numBets ?? null,
        },
      },
      spread: { consensus_line: medianPoint(spread, 'home') },
      total: { consensus_line: medianPoint(total, 'over') },
    };
  },
};

const MARKET_ORDER = ['moneyline', 'spread', 'total'];
const SIDE_ORDER = ['away', 'home', 'over', 'under'];

export const BettingInfo: BettingInfoResolvers = {
  game_id: (r) => r.game.id,
  start_time: (r) => r.game.startTime,
  status: (r) => r.game.status,
  away_team: (r, _a, ctx) => teamAbbr(r.game.awayTeamId, ctx),
  home_team: (r, _a, ctx) => teamAbbr(r.game.homeTeamId, ctx),
  num_bets: (r) => r.game.numBets,
  markets: async ({ game, marketTypes, bookIds }, _a, ctx) => {
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
          market_type: first.marketType,
          period: first.period,
          book_id: first.bookId,
          book_name: books.get(first.bookId)?.name ?? null,
          num_bets: group.find((r) => r.numBets !== null)?.numBets ?? null,
          sides: group
            .sort((a, b) => SIDE_ORDER.indexOf(a.side) - SIDE_ORDER.indexOf(b.side))
            .map((r) => ({ side: r.side, team_id: teamOf(r), tickets_percentage: r.ticketsPercent, money_percentage: r.moneyPercent, num_bets: r.numBets })),
        };
      })
      .sort((a, b) => MARKET_ORDER.indexOf(a.market_type) - MARKET_ORDER.indexOf(b.market_type) || a.period.localeCompare(b.period) || a.book_id - b.book_id);
  },
};
