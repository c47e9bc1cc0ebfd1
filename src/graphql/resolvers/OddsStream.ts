import { AppError } from '../../errors';
import { liveFeedOf, notePush } from '../../events/live-feed';
import type { SubscriptionResolvers } from '../__generated__/resolvers-types';
import type { GraphQLContext } from '../context';
import { oddsStream, parseLastEventId, type OddsStreamItem } from '../odds-stream';
import { parseLiveScope, requireLiveOdds } from './LiveOdds';

// Subscription.oddsStream: the resumable odds stream (src/graphql/odds-stream.ts), which the SSE
// transport (GET /api/v1/nba/odds/stream) serves; graphql-ws clients may subscribe to it too.

export const OddsStreamSubscription: Pick<SubscriptionResolvers, 'oddsStream'> = {
  oddsStream: {
    subscribe: (_root, args, ctx) => {
      requireLiveOdds(ctx);
      const scope = parseLiveScope(args);
      let after: number | null;
      try {
        after = parseLastEventId(args.lastEventId);
      } catch (error) {
        throw new AppError('BAD_REQUEST', (error as Error).message);
      }
      const feed = liveFeedOf(ctx);
      if (!feed) throw new AppError('UNAVAILABLE', 'the odds stream is not available on this transport');
      return oddsStream(ctx, feed, scope, after);
    },
    resolve: (item: OddsStreamItem, _args: unknown, ctx: GraphQLContext) => {
      if (item.change) notePush(ctx, new Date(item.change.at));
      return item;
    },
  },
};
