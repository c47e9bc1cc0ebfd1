import http from 'node:http';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type NextFunction, type Request, type Response } from 'express';
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError } from 'graphql';
import { pinoHttp } from 'pino-http';
import { createRateLimiter } from './auth/rate-limit';
import type { Plan } from './auth/viewer';
import type { Config } from './config';
import type { Database } from './db/client';
import { createKeyLookup } from './db/key-store';
import { AppError, ERRORS } from './errors';
import { authenticate, createContext, type Auth, type GraphQLContext } from './graphql/context';
import { complexityLimit } from './graphql/limits';
import { buildSchema } from './graphql/schema';
import { attachGraphQLWs } from './transports/graphql-ws';
import type { EventBus } from './events/bus';
import { attachSocketIo } from './transports/socket-io';
import { createLiveFeed } from './events/live-feed';
import { createKeyWatch } from './auth/live-key';
import type { Logger } from './logger';
import { errorBody } from './rest/envelope';
import { buildOpenApi } from './rest/openapi';
import { createResultCache } from './rest/result-cache';
import { createRestRouter } from './rest/router';

/** What the app is built from; main.ts and tests provide them. */
export interface AppDeps {
  config: Config;
  db: Database;
  bus: EventBus;
  logger: Logger;
  /** Clock, for tests (default: the real one). */
  now?: () => Date;
  /** Requests per minute by plan (default RATE_LIMITS); benchmarks raise them. */
  rateLimits?: Readonly<Record<Plan, number>>;
}

export interface App {
  httpServer: http.Server;
  /** Stops live transports and timers; does not close the database or the bus (main.ts owns them). */
  close(): Promise<void>;
}

/** Path prefix of the REST routes. */
export const REST_PREFIX = '/api/v1/nba/odds';

type AuthedRequest = Request & { auth?: Auth };

/** Wires every module onto one HTTP server. Never listens: main.ts and tests do. */
export function createApp(deps: AppDeps): App {
  const now = deps.now ?? (() => new Date());
  const schema = buildSchema();
  const rateLimiter = createRateLimiter(deps.rateLimits);
  const contextFor = (auth: Auth): GraphQLContext => createContext({ auth, db: deps.db, now: now(), timeZone: deps.config.leagueTimeZone });

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(pinoHttp({ logger: deps.logger, customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info') }));

  app.get('/healthz', (_req, res) => {
    res.json({ success: true, data: { status: 'ok', database: deps.db.kind } });
  });
  const openapi = JSON.stringify(buildOpenApi(schema));
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.type('application/json').send(openapi);
  });

  // Authentication then rate limiting, for REST and GraphQL alike. Bad credentials are not refused
  // here: REST answers 401/403 in its envelope, GraphQL per field (admin fields need another key).
  const authenticateRequest = async (req: AuthedRequest, res: Response, next: NextFunction) => {
    try {
      req.auth = await authenticate({ db: deps.db, adminKey: deps.config.adminKey }, req.headers.authorization, now());
      if (req.auth.kind === 'viewer') {
        const decision = await rateLimiter.consume(req.auth.viewer);
        res.set(decision.headers);
        if (!decision.allowed) {
          const error = new AppError('RATE_LIMITED', `${ERRORS.RATE_LIMITED.message}: ${decision.headers['X-RateLimit-Limit']} requests per minute on the ${req.auth.viewer.plan} plan, retry in ${decision.headers['Retry-After']} s`);
          if (req.path.startsWith('/graphql')) {
            res.status(429).json({ errors: [{ message: error.message, extensions: { code: ERRORS.RATE_LIMITED.graphql } }] });
          } else {
            res.status(429).json(errorBody(error));
          }
          return;
        }
      }
      next();
    } catch (error) {
      next(error);
    }
  };
  const authOf = (req: Request): Auth => (req as AuthedRequest).auth ?? { kind: 'none', error: new AppError('UNAUTHENTICATED') };

  // Every ingest, in this process or another (Redis bus), makes cached REST results old.
  const restCache = createResultCache(deps.config.restCacheMs);
  const stopCacheClearing = deps.bus.subscribe('odds', () => restCache.clear());

  app.use(
    REST_PREFIX,
    authenticateRequest,
    createRestRouter({
      schema,
      authOf,
      createContext: contextFor,
      cache: restCache,
      onError: (error, req) => req.log.error({ err: error }, 'REST operation failed'),
    }),
  );

  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    validationRules: [complexityLimit()],
    plugins: [ApolloServerPluginLandingPageDisabled()],
    // AppErrors carry their catalogue code; anything else is hidden behind INTERNAL_SERVER_ERROR.
    formatError(formatted, error) {
      const original = unwrapResolverError(error);
      if (original instanceof AppError) {
        return { ...formatted, message: original.message, extensions: { ...formatted.extensions, code: ERRORS[original.code].graphql } };
      }
      // Apollo relabels every validation error; keep the depth/cost rule's own code.
      const cause = error instanceof GraphQLError ? error.originalError : undefined;
      if (cause instanceof GraphQLError && cause.extensions.code === ERRORS.QUERY_TOO_COMPLEX.graphql) {
        return { ...formatted, extensions: { ...formatted.extensions, code: ERRORS.QUERY_TOO_COMPLEX.graphql } };
      }
      if (formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') {
        deps.logger.error({ err: original }, 'GraphQL resolver failed');
        return { message: ERRORS.INTERNAL.message, locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
      }
      return formatted;
    },
    logger: deps.logger,
  });
  apollo.startInBackgroundHandlingStartupErrorsByLoggingAndFailingAllRequests();
  app.use(
    '/graphql',
    express.json({ limit: '100kb' }),
    authenticateRequest,
    expressMiddleware(apollo, { context: async ({ req }) => contextFor(authOf(req)) }),
  );

  app.use((_req, res) => {
    res.status(404).json(errorBody(new AppError('ROUTE_NOT_FOUND')));
  });
  // Malformed JSON bodies and anything unexpected: the same envelope, never an HTML page.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: number }).status;
    if (status && status >= 400 && status < 500) {
      res.status(status).json(errorBody(new AppError('BAD_REQUEST', `invalid request: ${(error as Error).message}`)));
      return;
    }
    req.log.error({ err: error }, 'request failed');
    res.status(500).json(errorBody(new AppError('INTERNAL')));
  });

  const httpServer = http.createServer(app);

  // Live transports on the same server: graphql-ws takes the upgrades of /graphql, Socket.IO serves
  // /live-odds. Both run the live subscriptions off one feed per process (fed by the bus: in-process
  // or Redis), and both re-check connected keys so a revocation disconnects within seconds.
  const feed = createLiveFeed(deps.bus, { intervalMs: deps.config.livePushIntervalMs });
  const keyLookup = createKeyLookup(deps.db.prisma);
  const keyWatch = createKeyWatch(keyLookup, { now, onError: (err) => deps.logger.warn({ err }, 'live key check failed') });
  const live = { httpServer, schema, db: deps.db, feed, keyLookup, keyWatch, timeZone: deps.config.leagueTimeZone, now };
  const graphqlWs = attachGraphQLWs(live);
  const socketIo = attachSocketIo({ ...live, onError: (err) => deps.logger.error({ err }, 'live push failed') });
  return {
    httpServer,
    async close() {
      stopCacheClearing();
      await socketIo.close();
      await graphqlWs.close();
      keyWatch.close();
      feed.close();
      await apollo.stop();
    },
  };
}
