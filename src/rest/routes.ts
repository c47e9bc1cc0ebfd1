import type { Route } from './route';
import { closingRoutes } from './routes/closing';
import { gameRoutes } from './routes/games';
import { listingRoutes } from './routes/listings';
import { liveRoutes } from './routes/live';
import { referenceRoutes } from './routes/reference';

export type { Route } from './route';

/**
 * The route table: every REST route of the service. Each area keeps its routes in
 * src/rest/routes/<area>.ts and adds one line here (see src/rest/README.md).
 */
export const ROUTES: readonly Route[] = [...gameRoutes, ...referenceRoutes, ...listingRoutes, ...liveRoutes, ...closingRoutes];
