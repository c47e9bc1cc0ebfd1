import { requirePlan } from '../../auth/viewer';
import { findSignals } from '../../db/signal-repository';
import { AppError } from '../../errors';
import { liveFeedOf, notePush, pushIterator } from '../../events/live-feed';
import type { QueryResolvers, SubscriptionResolvers } from '../__generated__/resolvers-types';
import { dayOrToday, list } from '../arguments';
import type { GraphQLContext } from '../context';

// Query.lineSignals and Subscription.lineSignalEvents (schema/signals.graphql; docs/signals.md): read
// the signals the ingest stored (src/ingest/signals.ts). Nothing is detected here.

type SignalRow = Awaited<ReturnType<typeof findSignals>>[number];

const lineSignalOf = (r: SignalRow) => ({ key: r.key, kind: r.kind, gameId: r.gameId, marketType: r.marketType, period: r.period, side: r.side, at: r.at, detectedAt: r.detectedAt, data: r.data });

// The same plans as line movement: signals are read from the same history.
const requireSignals = (ctx: GraphQLContext, what: string) => {
  if (ctx.viewer) requirePlan(ctx.viewer, 'lineMovement', what);
};

export const SignalsQuery: Pick<QueryResolvers, 'lineSignals'> = {
  lineSignals: async (_root, args, ctx) => {
    requireSignals(ctx, 'line-movement signals (/odds/signals)');
    let gameIds = list(args.gameId);
    if (!gameIds || args.date) {
      const range = dayOrToday(args.date, ctx.now, ctx.timeZone);
      const games = await ctx.db.prisma.game.findMany({
        where: { startTime: { gte: range.from!, lt: range.to! }, ...(gameIds && { id: { in: [...gameIds] } }) },
        select: { id: true },
      });
      gameIds = games.map((g) => g.id);
    }
    const rows = await findSignals(ctx.db.prisma, { gameIds, kinds: list(args.kind), marketTypes: list(args.marketType) });
    return rows.map(lineSignalOf);
  },
};

export const SignalsSubscription: Pick<SubscriptionResolvers, 'lineSignalEvents'> = {
  lineSignalEvents: {
    subscribe: (_root, args, ctx) => {
      requireSignals(ctx, 'line-movement signal events');
      const feed = liveFeedOf(ctx);
      if (!feed) throw new AppError('UNAVAILABLE', 'signal events are not available on this transport');
      const games = args.gameId ? new Set(args.gameId) : null;
      const kinds = args.kind ? new Set<string>(args.kind) : null;
      const markets = args.marketType ? new Set<string>(args.marketType) : null;
      const wanted = (s: { gameId: number; kind: string; marketType: string }) => (!games || games.has(s.gameId)) && (!kinds || kinds.has(s.kind)) && (!markets || markets.has(s.marketType));
      return pushIterator<SignalRow>((push, fail) => {
        // Events are handled in bus order even when their reads overlap.
        let chain = Promise.resolve();
        return feed.onSignals((tick) => {
          if (!tick.signals.some(wanted)) return;
          // The rows of one event are read once per process, whatever the subscribers.
          const rows = tick.shared('rows', () => findSignals(ctx.db.prisma, { keys: tick.signals.map((s) => s.key) }));
          chain = chain.then(async () => {
            const order = new Map(tick.signals.map((s, i) => [s.key, i]));
            for (const row of [...(await rows)].sort((a, b) => order.get(a.key)! - order.get(b.key)!)) if (wanted(row)) push(row);
          }).catch(fail);
        });
      });
    },
    resolve: (row: SignalRow, _args: unknown, ctx: GraphQLContext) => {
      notePush(ctx, row.detectedAt);
      return lineSignalOf(row);
    },
  },
};
