import { Router, type Request, type Response } from 'express';
import { execute, GraphQLError, type DocumentNode, type GraphQLSchema } from 'graphql';
import { AppError, ERRORS, isDatabaseUnavailable } from '../errors';
import type { Auth, GraphQLContext } from '../graphql/context';
import { errorBody } from './envelope';
import { loadOperations } from '../graphql/operations';
import type { Route } from './route';
import type { ResultCache } from './result-cache';
import { ROUTES } from './routes';

export interface RestDeps {
  schema: GraphQLSchema;
  /** A GraphQL context for an authenticated request (the same one /graphql uses). */
  createContext(auth: Auth): GraphQLContext;
  /** The request's Auth, set by the app's authentication middleware. */
  authOf(req: Request): Auth;
  /** Logs unexpected errors (500). */
  onError(error: unknown, req: Request): void;
  routes?: readonly Route[];
  /** Results served again until the next ingest (see result-cache.ts); none when absent. */
  cache?: ResultCache;
}

/** The AppError a GraphQL execution error stands for; anything unexpected is INTERNAL. */
export function appErrorOf(error: GraphQLError): AppError {
  const original = error.originalError;
  if (original instanceof AppError) return original;
  if (isDatabaseUnavailable(original)) return new AppError('UNAVAILABLE');
  if (original && original.name !== 'GraphQLError') return new AppError('INTERNAL');
  // Coercion of a variable or argument (e.g. a Date scalar) is the client's mistake.
  return new AppError('BAD_REQUEST', error.message);
}

/** First issue of a zod error as "invalid parameter <name>: <what is allowed>". */
function paramError(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): AppError {
  const issue = issues[0]!;
  return new AppError('BAD_REQUEST', `invalid parameter ${String(issue.path[0])}: ${issue.message}`);
}

type Outcome = { body: string } | { error: AppError; cause: unknown };

/**
 * The REST adapter: one GET handler per route of the table. Each one checks the caller, parses the
 * parameters, runs the route's GraphQL operation in-process on the shared schema and writes the
 * envelope. No business logic lives here.
 */
export function createRestRouter(deps: RestDeps): Router {
  const operations: Map<string, DocumentNode> = loadOperations(deps.schema);
  const router = Router();
  const inFlight = new Map<string, Promise<Outcome>>();

  /** Runs a route's operation and shapes the envelope: the part of a request that can be shared. */
  async function runOperation(document: DocumentNode, route: Route, variables: Record<string, unknown>, params: Record<string, unknown>, auth: Auth): Promise<Outcome> {
    const result = await execute({ schema: deps.schema, document, variableValues: variables, contextValue: deps.createContext(auth) });
    if (result.errors?.length) return { error: appErrorOf(result.errors[0]!), cause: result.errors[0]!.originalError ?? result.errors[0] };
    return { body: JSON.stringify(route.envelope.body(result.data as Record<string, unknown>, params)) };
  }

  for (const route of deps.routes ?? ROUTES) {
    const document = operations.get(route.operation);
    if (!document) throw new Error(`route ${route.path}: no operation file src/graphql/operations/${route.operation}.graphql`);
    router.get(route.path, async (req: Request, res: Response) => {
      const fail = (error: AppError) => res.status(error.status).json(errorBody(error));
      try {
        const auth = deps.authOf(req);
        if (auth.kind === 'none') return fail(auth.error);
        const parsed = route.params.safeParse({ ...(req.query as Record<string, unknown>), ...req.params });
        if (!parsed.success) return fail(paramError(parsed.error.issues));
        const params = parsed.data as Record<string, unknown>;
        const variables = route.variables ? route.variables(params) : params;
        // Plan is part of the key: plan gates are the only way two callers can see different results.
        const cacheKey = deps.cache && `${route.operation}|${auth.kind === 'viewer' ? auth.viewer.plan : auth.kind}|${JSON.stringify(variables)}`;
        const cached = cacheKey ? deps.cache!.get(cacheKey) : undefined;
        if (cached !== undefined) return res.type('application/json').send(cached);
        // Identical requests arriving together share one execution instead of each running it.
        // Keyed by cache version too: a request after an ingest never joins a run that began before it.
        const version = deps.cache?.version;
        const flightKey = cacheKey && `${version}|${cacheKey}`;
        const pending = flightKey ? inFlight.get(flightKey) : undefined;
        const run = pending ?? runOperation(document, route, variables, params, auth);
        if (cacheKey && flightKey && !pending) {
          inFlight.set(flightKey, run);
          void run.then(
            (outcome) => {
              inFlight.delete(flightKey);
              if ('body' in outcome && deps.cache!.version === version) deps.cache!.set(cacheKey, outcome.body);
            },
            () => inFlight.delete(flightKey),
          );
        }
        const outcome = await run;
        if ('error' in outcome) {
          if (outcome.error.code === 'INTERNAL') deps.onError(outcome.cause, req);
          return fail(outcome.error);
        }
        return res.type('application/json').send(outcome.body);
      } catch (error) {
        if (error instanceof AppError) return fail(error);
        if (isDatabaseUnavailable(error)) return fail(new AppError('UNAVAILABLE'));
        deps.onError(error, req);
        return fail(new AppError('INTERNAL', ERRORS.INTERNAL.message));
      }
    });
  }
  return router;
}
