import { requirePlan } from '../../auth/viewer';
import { lineMovementOf } from '../../services/movement';
import type { QueryResolvers } from '../__generated__/resolvers-types';

// Line movement (spec 2.8, 4.9): open and current price of every outcome of the games being played
// (src/services/movement.ts).

export const LiveMovementQuery: QueryResolvers = {
  lineMovement: (_root, args, ctx) => {
    if (ctx.viewer) requirePlan(ctx.viewer, 'lineMovement', 'live line movement (/odds/live/movement)');
    return lineMovementOf(ctx, args);
  },
};
