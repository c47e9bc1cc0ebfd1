import { DEFAULT_DEVIG_METHOD, DEFAULT_LIVE_FILTER, formatAmerican, gameTiming, MIDDLE_MARKET_TYPES, PERCENT_DIGITS, PROBABILITY_DIGITS, roundTo } from '../../domain';
import type { ListingBook, ListingQuote, MiddleEntry } from '../../domain';
import { listingGame, marketViews } from '../../domain';
import { findListingRows } from '../../db/listing-repository';
import type { QueryResolvers } from '../__generated__/resolvers-types';
import { dayOrToday, list } from '../arguments';
import { checkAsOf } from '../point-in-time';
import { ageSeconds } from '../present-listing';
import { chooseShown } from '../quotes';

// Query.middles (schema/signals.graphql; docs/signals.md): the middles of the spread and total
// markets, from the same rows and the same MarketView as the listings (src/domain/listing.ts), so
// a middle's legs are exactly the listings' bettable prices.

export const MiddlesQuery: Pick<QueryResolvers, 'middles'> = {
  middles: async (_root, args, ctx) => {
    const asOf = args.asOf ?? null;
    if (asOf) checkAsOf(ctx, asOf, 'point-in-time middles (as_of)');
    const now = asOf ?? ctx.now;
    const gameIds = list(args.gameId);
    const range = gameIds && !args.date ? {} : dayOrToday(args.date, now, ctx.timeZone);
    const period = args.period ?? 'full_game';
    const live = args.live ?? DEFAULT_LIVE_FILTER;
    const bookIds = args.bookId ? new Set(args.bookId) : null;
    const out: MiddleEntry[] = [];
    let names = new Map<number, string | null>();
    for (const marketType of list(args.marketType) ?? MIDDLE_MARKET_TYPES) {
      const rows = await findListingRows(ctx.db.prisma, { ...range, gameIds, marketType, period }, asOf ?? undefined);
      const books = new Map<number, ListingBook>(rows.books.map((b) => [b.id, b]));
      names = new Map(rows.books.map((b) => [b.id, b.name]));
      // As the listings read them (src/graphql/resolvers/Listing.ts): at an instant, the prices shown then.
      const quotes = asOf ? rows.games.flatMap((g) => chooseShown(rows.quotes.filter((q) => q.gameId === g.id), asOf >= g.startTime)) : rows.quotes;
      const games = rows.games.map((g) => listingGame(g, gameTiming(g, asOf ? { at: asOf, hasLivePrice: quotes.some((q) => q.gameId === g.id && q.isLive) } : undefined)));
      for (const view of marketViews({ marketType, games, quotes, books, devigMethod: DEFAULT_DEVIG_METHOD })) {
        for (const m of view.middles(now)) {
          if ((live === 'pregame' && m.isLive) || (live === 'live' && !m.isLive)) continue;
          if (bookIds && !bookIds.has(m.low.bookId) && !bookIds.has(m.high.bookId)) continue;
          if (args.minEvPer100 != null && m.middle.ev_per_100 < args.minEvPer100) continue;
          out.push(m);
        }
      }
    }
    out.sort((a, b) => b.middle.ev_per_100 - a.middle.ev_per_100 || a.game.id - b.game.id || a.middle.window.low - b.middle.window.low);
    const leg = (q: ListingQuote, stake: number) => ({
      bookId: q.bookId,
      bookName: names.get(q.bookId) ?? null,
      side: q.side,
      point: q.point as number,
      odds: { decimal: q.decimal, american: formatAmerican(q.american), fractional: q.fractional, original: q.american },
      stake: roundTo(stake, PROBABILITY_DIGITS),
      confirmedAt: q.seenAt,
      ageSeconds: ageSeconds(q.seenAt, now),
    });
    return out.map((m) => ({
      gameId: m.game.id,
      marketType: m.marketType,
      period: m.period,
      isLive: m.isLive,
      windowLow: m.middle.window.low,
      windowHigh: m.middle.window.high,
      width: m.middle.width,
      middleProbability: roundTo(m.middle.middle_probability, PROBABILITY_DIGITS),
      pushProbability: roundTo(m.middle.push_probability, PROBABILITY_DIGITS),
      profitIfMiddle: roundTo(m.middle.profit_if_middle, PERCENT_DIGITS),
      profitOtherwise: roundTo(m.middle.profit_otherwise, PERCENT_DIGITS),
      evPer100: roundTo(m.middle.ev_per_100, PERCENT_DIGITS),
      low: leg(m.low, m.middle.stakes[0]),
      high: leg(m.high, m.middle.stakes[1]),
    }));
  },
};
