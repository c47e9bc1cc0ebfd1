import { AppError } from '../../errors';
import { liveFeedOf, notePush, pushIterator, type LiveTick } from '../../events/live-feed';
import type { SubscriptionLiveOddsArgs, SubscriptionResolvers } from '../__generated__/resolvers-types';
import { liveStream, type LiveOddsChange, type LiveStream } from '../../services/live-streams';
import type { GraphQLContext } from '../context';
import { createLoaders } from '../loaders';
import { loadLiveOdds, parseLiveScope, requireLiveOdds } from './LiveOdds';

// Subscription.liveOdds: full snapshots (one at once, then on the feed's interval ticks).
// Subscription.liveOddsChanges: the deltas of the filter's stream (src/services/live-streams.ts): every
// change-log entry, filtered, with its global seq; a resume replays the stored ones.
// A subscription's context lives as long as the subscription, so every snapshot gets fresh
// DataLoaders: those of the tick, shared by all the subscribers of that tick.

type Snapshot = LiveTick | { reason: 'snapshot' };

function feedOf(ctx: GraphQLContext) {
  const feed = liveFeedOf(ctx);
  if (!feed) throw new AppError('UNAVAILABLE', 'live odds are not available on this transport');
  return feed;
}

const CANNOT_REPLAY = 'cannot replay: unknown stream, or the deltas after afterSeq are no longer stored or too many; take a fresh snapshot (liveOdds) and subscribe without stream/afterSeq';

/** The deltas after `afterSeq` replayed from the change log (on any process), then the stream's. */
async function resumed(stream: LiveStream, streamId: string | null | undefined, afterSeq: number | null | undefined): Promise<AsyncIterableIterator<LiveOddsChange>> {
  if (streamId !== stream.id || afterSeq == null) throw new AppError('BAD_REQUEST', CANNOT_REPLAY);
  const first: LiveOddsChange[] = [];
  let push: ((change: LiveOddsChange) => void) | null = null;
  const stop = await stream.resume(afterSeq, (change) => (push ? push(change) : first.push(change)));
  if (!stop) throw new AppError('BAD_REQUEST', CANNOT_REPLAY);
  return pushIterator<LiveOddsChange>((p) => {
    push = p;
    return stop;
  }, { first });
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
      // Listening starts at once (not after a promise): the Socket.IO rooms read their snapshot's
      // position after starting this subscription, and count on every delta after it arriving.
      if (args.afterSeq == null && args.stream == null) return pushIterator<LiveOddsChange>((push) => stream.listen(push));
      return resumed(stream, args.stream, args.afterSeq);
    },
    resolve: (change: LiveOddsChange, _args: unknown, ctx: GraphQLContext) => {
      notePush(ctx, new Date(change.at));
      return change;
    },
  },
};
