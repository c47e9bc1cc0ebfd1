import type { z } from 'zod';
import type { Envelope } from './envelope';

/**
 * One REST route: a GET path under /api/v1/nba/odds, its parameters, the named GraphQL operation it
 * runs (src/graphql/operations/<operation>.graphql) and the envelope its result goes into. The route
 * holds no logic: parameters become the operation's variables (same names), the operation's
 * resolvers do the work.
 */
export interface Route {
  /** Express-style path relative to /api/v1/nba/odds, e.g. '/games/:game_id'. */
  path: string;
  /** One line for the OpenAPI document. */
  summary: string;
  description?: string;
  /** Path and query parameters (src/rest/params.ts types). Unknown parameters are ignored. */
  params: z.ZodObject<Record<string, z.ZodType>>;
  /** Operation name; the file src/graphql/operations/<operation>.graphql defines it. */
  operation: string;
  /** Variables from the parsed parameters, when they differ from the parameters themselves. */
  variables?: (params: Record<string, any>) => Record<string, unknown>;
  envelope: Envelope;
  /** Extra error statuses the route can answer (OpenAPI), e.g. 404 or 403 for plan gates. */
  errors?: number[];
  tags?: string[];
}

/** Identity helper that keeps a route table typed. */
export function defineRoutes(routes: Route[]): Route[] {
  return routes;
}
