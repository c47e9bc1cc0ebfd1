import { formatAmerican, PERCENT_DIGITS, PROBABILITY_DIGITS, roundTo } from '../../domain';
import type { ListingQuote } from '../../domain';
import { findMiddles } from '../../services/listings';
import type { QueryResolvers } from '../__generated__/resolvers-types';
import { checkAsOf } from '../check-as-of';
import { ageSeconds } from '../present-listing';

// Query.middles (schema/signals.graphql; docs/signals.md): the middles of the spread and total
// markets (src/services/listings.ts findMiddles), rounded for presentation here.

export const MiddlesQuery: Pick<QueryResolvers, 'middles'> = {
  middles: async (_root, args, ctx) => {
    if (args.asOf) checkAsOf(ctx, args.asOf, 'point-in-time middles (as_of)');
    const { middles, bookNames, now } = await findMiddles(ctx, args);
    const leg = (q: ListingQuote, stake: number) => ({
      bookId: q.bookId,
      bookName: bookNames.get(q.bookId) ?? null,
      side: q.side,
      point: q.point as number,
      odds: { decimal: q.decimal, american: formatAmerican(q.american), fractional: q.fractional, original: q.american },
      stake: roundTo(stake, PROBABILITY_DIGITS),
      confirmedAt: q.seenAt,
      ageSeconds: ageSeconds(q.seenAt, now),
    });
    return middles.map((m) => ({
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
