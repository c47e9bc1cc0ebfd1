import { AppError } from '../../errors';
import { liveFeedOf, notePush } from '../../events/live-feed';
import { oddsStream, parseLastEventId, type OddsStreamItem } from '../../services/odds-stream';
import type { ResolversTypes, SubscriptionResolvers } from '../__generated__/resolvers-types';
import type { GraphQLContext } from '../context';
import { createLoaders } from '../loaders';
import { loadLiveOdds, parseLiveScope, requireLiveOdds } from './LiveOdds';

// Subscription.oddsStream: the resumable odds stream (src/services/odds-stream.ts), which the SSE
// adapter (GET /api/v1/nba/odds/stream) serves; graphql-ws clients may subscribe to it too. Its
// snapshots are Query.liveGames's read (loadLiveOdds), with fresh DataLoaders per snapshot (those of
// the tick, shared by all the subscribers of that tick).

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
      const prisma = ctx.db.prisma;
      return oddsStream(prisma, feed, scope, after, (reason, tick) => {
        ctx.loaders = tick ? tick.shared('loaders', () => createLoaders(prisma)) : createLoaders(prisma);
        ctx.now = tick?.at ?? new Date();
        return loadLiveOdds(ctx, scope, reason, tick ? tick.shared : undefined);
      });
    },
    resolve: (item: OddsStreamItem<ResolversTypes['LiveOdds']>, _args: unknown, ctx: GraphQLContext) => {
      if (item.change) notePush(ctx, new Date(item.change.at));
      return item;
    },
  },
};
