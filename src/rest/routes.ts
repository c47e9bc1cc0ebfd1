import type { Route } from './route';
import { closingRoutes } from './routes/closing';
import { gameRoutes } from './routes/games';
import { listingRoutes } from './routes/listings';
import { liveRoutes } from './routes/live';
import { middleRoutes } from './routes/middles';
import { referenceRoutes } from './routes/reference';
import { webhookRoutes } from './routes/webhooks';

export type { Route } from './route';

/**
 * The route table: every REST route of the service. Each area keeps its routes in
 * src/rest/routes/<area>.ts and adds one line here (see src/rest/README.md).
 */
export const ROUTES: readonly Route[] = [...area('games', gameRoutes), ...area('reference', referenceRoutes), ...listingRoutes, ...middleRoutes, ...liveRoutes, ...closingRoutes, ...area('webhooks', webhookRoutes)];

/** Routes of an area under its OpenAPI tag (unless a route names its own). */
function area(tag: string, routes: readonly Route[]): Route[] {
  return routes.map((route) => ({ tags: [tag], ...route }));
}
