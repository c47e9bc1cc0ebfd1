import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { z } from 'zod';
import type { Envelope, JsonSchema } from './envelope';

/**
 * One REST route: a GET path under /api/v1/nba/odds, its parameters, the named GraphQL operation it
 * runs (src/graphql/operations/<operation>.graphql) and the envelope its result goes into. The route
 * holds no logic: parameters become the operation's variables (same names), the operation's
 * resolvers do the work.
 */
export interface Route {
  /** Express-style path relative to /api/v1/nba/odds, e.g. '/games/:game_id'. */
  path: string;
  /** GET (default; HEAD too), or POST, PATCH, DELETE (never cached; POST and PATCH take a JSON body). */
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Status of a successful answer (default 200; 201 for a route that creates). */
  status?: 200 | 201;
  /**
   * The JSON body of a POST route: a zod schema whose output is merged into the variables (it
   * renames and checks; src/rest/body.ts), and its OpenAPI schema.
   */
  body?: { schema: z.ZodType<Record<string, unknown>>; openapi: JsonSchema; description: string; /** Largest body accepted (default MAX_BODY_BYTES, 100 kB). */ maxBytes?: number };
  /** One line for the OpenAPI document. */
  summary: string;
  description?: string;
  /** Path and query parameters (src/rest/params.ts types). Unknown parameters are ignored. */
  params: z.ZodObject<Record<string, z.ZodType>>;
  /** Operation name; the file src/graphql/operations/<operation>.graphql defines it. */
  operation: string;
  /** The route's operationId in the OpenAPI document, when routes share an operation (default: `operation`). */
  operationId?: string;
  /**
   * Parameters of sibling routes that this route has no use for and refuses with a 400 saying why,
   * instead of ignoring them like other unknown parameters (e.g. team_id on /markets/total).
   */
  refuses?: Record<string, string>;
  /** Variables from the parsed parameters, when they differ from the parameters themselves. */
  variables?: (params: Record<string, any>) => Record<string, unknown>;
  envelope: Envelope;
  /** Extra error statuses the route can answer (OpenAPI), e.g. 404 or 403 for plan gates. */
  errors?: number[];
  tags?: string[];
  /**
   * How long clients may reuse an answer without asking again (Cache-Control, docs/http-caching.md):
   * `live` 1 s, `odds` 5 s (an official final game: 1 h), `history` 5 min, `reference` 1 h.
   * Default `odds`. Revalidation with If-None-Match is cheap whatever the class.
   */
  freshness?: Freshness;
  /**
   * The class of an answer given an `as_of` (a point in time, docs/point-in-time.md), when it is
   * longer-lived than `freshness`: such an answer only changes if the history before the instant does.
   */
  asOfFreshness?: Freshness;
  /**
   * A Server-Sent Events stream rather than a JSON answer: served by src/live/use/sse.ts (the REST
   * handler passes it on) and shown as text/event-stream. `document` builds its subscription, since
   * it is not one of the operation files.
   */
  eventStream?: { document: (schema: GraphQLSchema) => DocumentNode };
}

export type Freshness = 'live' | 'odds' | 'history' | 'reference';

const MAX_AGE: Record<Freshness, number> = { live: 1, odds: 5, history: 300, reference: 3600 };

/** Game statuses after which nothing about a game changes any more (ingest/feeds/actionnetwork/status-map.ts). */
const SETTLED = new Set(['closed']);

/**
 * The Cache-Control of a route's 200 body. `private`: answers depend on the caller's key, so shared
 * caches must not keep them.
 */
export function cacheControlOf(route: Route, body: Record<string, unknown>, params: Record<string, unknown> = {}): string {
  if (route.asOfFreshness && params.as_of !== undefined) return `private, max-age=${MAX_AGE[route.asOfFreshness]}`;
  let maxAge = MAX_AGE[route.freshness ?? 'odds'];
  if ((route.freshness ?? 'odds') === 'odds') {
    const data = body.data;
    const games = Array.isArray(data) ? data : data && typeof data === 'object' ? [data] : [];
    const settled = games.length > 0 && games.every((g) => SETTLED.has((g as { status?: unknown }).status as string));
    if (settled) maxAge = MAX_AGE.reference;
  }
  return `private, max-age=${maxAge}`;
}

/** Identity helper that keeps a route table typed. */
export function defineRoutes(routes: Route[]): Route[] {
  return routes;
}
