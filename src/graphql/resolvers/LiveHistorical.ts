import { requirePlan } from '../../auth/viewer';
import { historicalOdds } from '../../services/historical';
import type { QueryResolvers } from '../__generated__/resolvers-types';

// Historical odds (spec 2.9, 4.10): one snapshot per game from the append-only odds history
// (src/services/historical.ts).

export const LiveHistoricalQuery: QueryResolvers = {
  historicalOdds: async (_root, args, ctx) => {
    if (ctx.viewer) requirePlan(ctx.viewer, 'historical', 'historical odds (/odds/historical)');
    return historicalOdds(ctx, args);
  },
};
