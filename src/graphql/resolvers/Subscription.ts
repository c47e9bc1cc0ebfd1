import { AppError } from '../../errors';
import { liveFeedOf, liveTicks, type LiveTick } from '../../events/live-feed';
import type { SubscriptionLiveOddsArgs, SubscriptionResolvers } from '../__generated__/resolvers-types';
import type { GraphQLContext } from '../context';
import { createLoaders } from '../loaders';
import { loadLiveOdds, parseLiveScope, requireLiveOdds } from './LiveOdds';

// Subscription.liveOdds: the ticks of the process's live feed (src/events/live-feed.ts) that concern the
// subscriber's scope, each resolved into a full live snapshot. The context of a subscription lives as
// long as the subscription, so every push gets fresh DataLoaders: those of the tick, shared by all the
// subscribers of that tick (one SQL read per push, whatever the number of clients).

type Item = LiveTick | { reason: 'snapshot' };

export const Subscription: SubscriptionResolvers = {
  liveOdds: {
    subscribe: (_root, args, ctx) => {
      requireLiveOdds(ctx);
      const scope = parseLiveScope(args);
      const feed = liveFeedOf(ctx);
      if (!feed) throw new AppError('UNAVAILABLE', 'live odds are not available on this transport');
      return liveTicks(feed, scope);
    },
    resolve: (item: Item, args: Partial<SubscriptionLiveOddsArgs>, ctx: GraphQLContext) => {
      const scope = parseLiveScope(args);
      if ('shared' in item) {
        ctx.loaders = item.shared('loaders', () => createLoaders(ctx.db.prisma));
        ctx.now = item.at;
        return loadLiveOdds(ctx, scope, item.reason, item.shared);
      }
      ctx.loaders = createLoaders(ctx.db.prisma);
      ctx.now = new Date();
      return loadLiveOdds(ctx, scope, 'snapshot');
    },
  },
};
