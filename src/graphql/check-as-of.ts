import { requirePlan } from '../auth/viewer';
import { checkAsOfInstant } from '../services/point-in-time';
import type { GraphQLContext } from './context';

// The plan gate of a point in time, which several resolvers share before they call a service (the
// services know no viewer).

/**
 * Checks an `asOf` argument before anything is read: the plan (Pro, Elite, like the history it is
 * read from) and an instant that is not after the request's clock (src/services/point-in-time.ts).
 * @throws AppError PLAN_REQUIRED (403) or BAD_REQUEST (400) naming as_of
 */
export function checkAsOf(ctx: GraphQLContext, asOf: Date, what: string): void {
  if (ctx.viewer) requirePlan(ctx.viewer, 'historical', what);
  checkAsOfInstant(asOf, ctx.now);
}
