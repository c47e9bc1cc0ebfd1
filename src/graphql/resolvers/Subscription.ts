import { AppError } from '../../errors';
import { liveFeedOf, notePush, pushIterator, type LiveTick } from '../../events/live-feed';
import type { SubscriptionLiveOddsArgs, SubscriptionResolvers } from '../__generated__/resolvers-types';
import { liveStream, type LiveOddsChange } from '../../services/live-streams';
import type { GraphQLContext } from '../context';
import { createLoaders } from '../loaders';
import { loadLiveOdds, parseLiveScope, requireLiveOdds } from './LiveOdds';

// Subscription.liveOdds: full snapshots (one at once, then on the feed's interval ticks).
// Subscription.liveOddsChanges: the deltas of the filter's stream (src/services/live-streams.ts).
// A subscription's context lives as long as the subscription, so every snapshot gets fresh
// DataLoaders: those of the tick, shared by all the subscribers of that tick.

type Snapshot = LiveTick | { reason: 'snapshot' };

function feedOf(ctx: GraphQLContext) {
  const feed = liveFeedOf(ctx);
  if (!feed) throw new AppError('UNAVAILABLE', 'live odds are not available on this transport');
  return feed;
}

export const Subscription: SubscriptionResolvers = {
  liveOdds: {
    subscribe: (_root, args, ctx) => {
      requireLiveOdds(ctx);
      parseLiveScope(args);
      const feed = feedOf(ctx);
      return pushIterator<Snapshot>((push) => feed.onTick((tick) => tick.reason === 'interval' && push(tick)), { first: [{ reason: 'snapshot' }], latestOnly: true });
    },
    resolve: (item: Snapshot, args: Partial<SubscriptionLiveOddsArgs>, ctx: GraphQLContext) => {
      const scope = parseLiveScope(args);
      if ('shared' in item) {
        ctx.loaders = item.shared('loaders', () => createLoaders(ctx.db.prisma));
        ctx.now = item.at;
        return loadLiveOdds(ctx, scope, 'interval', item.shared);
      }
      ctx.loaders = createLoaders(ctx.db.prisma);
      ctx.now = new Date();
      return loadLiveOdds(ctx, scope, 'snapshot');
    },
  },
  liveOddsChanges: {
    subscribe: (_root, args, ctx) => {
      requireLiveOdds(ctx);
      const scope = parseLiveScope(args);
      const stream = liveStream(feedOf(ctx), ctx.db.prisma, scope);
      let first: LiveOddsChange[] = [];
      if (args.afterSeq != null || args.stream != null) {
        const missed = args.stream === stream.id && args.afterSeq != null ? stream.replay(args.afterSeq) : null;
        if (!missed) throw new AppError('BAD_REQUEST', 'cannot replay: unknown stream or deltas no longer held; take a fresh snapshot (liveOdds) and subscribe without stream/afterSeq');
        first = missed;
      }
      return pushIterator<LiveOddsChange>((push) => stream.listen(push), { first });
    },
    resolve: (change: LiveOddsChange, _args: unknown, ctx: GraphQLContext) => {
      notePush(ctx, new Date(change.at));
      return change;
    },
  },
};
