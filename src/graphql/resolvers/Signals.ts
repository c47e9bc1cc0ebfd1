import { requirePlan } from '../../auth/viewer';
import { findSignals } from '../../db/signal-store';
import type { QueryResolvers } from '../__generated__/resolvers-types';
import { dayOrToday, list } from '../arguments';

// Query.lineSignals (schema/signals.graphql; docs/signals.md): reads the signals the ingest stored
// (src/db/signal-store.ts). Nothing is detected here.

export const SignalsQuery: Pick<QueryResolvers, 'lineSignals'> = {
  lineSignals: async (_root, args, ctx) => {
    // The same plans as line movement: signals are read from the same history.
    if (ctx.viewer) requirePlan(ctx.viewer, 'lineMovement', 'line-movement signals (/odds/signals)');
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
    return rows.map((r) => ({ kind: r.kind, gameId: r.gameId, marketType: r.marketType, period: r.period, side: r.side, at: r.at, detectedAt: r.detectedAt, data: r.data }));
  },
};
