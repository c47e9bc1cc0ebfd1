import http from 'node:http';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type NextFunction, type Request, type Response } from 'express';
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError } from 'graphql';
import { pinoHttp } from 'pino-http';
import type { IncomingMessage } from 'node:http';
import { createAuthenticator, type Auth, type KeyChange } from './auth/authenticate';
import { createRateLimiter } from './auth/rate-limit';
import type { Plan } from './auth/viewer';
import type { Config } from './config';
import type { Database } from './db/client';
import { createKeyLookup } from './db/key-store';
import { countAgedQuotes } from './db/listing-repository';
import { localDateOf } from './domain';
import { AppError, ERRORS } from './errors';
import { createContext, type GraphQLContext } from './graphql/context';
import { complexityLimit } from './graphql/limits';
import { buildSchema } from './graphql/schema';
import { attachGraphQLWs } from './transports/graphql-ws';
import type { EventBus } from './events/bus';
import { attachSocketIo } from './transports/socket-io';
import { createLiveFeed } from './events/live-feed';
import { createDataVersion } from './events/data-version';
import type { Logger } from './logger';
import { errorBody } from './rest/envelope';
import { buildOpenApi } from './rest/openapi';
import { createResponseCache } from './rest/response-cache';
import { createRestHandler, type Admission } from './rest/router';
import { createGraphQLGetHandler, createPersistedQueryStore } from './rest/graphql-get';

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
  /** How long a verified key is trusted without the bus saying otherwise (default 60 s). */
  keyCacheTtlMs?: number;
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

  // One authenticator for every transport: verified keys in memory, dropped at once when the bus says
  // a key or account changed (from this process, another one, or the CLI through Redis).
  const authenticator = createAuthenticator({
    lookup: createKeyLookup(deps.db.prisma),
    adminKey: deps.config.adminKey,
    now,
    ...(deps.keyCacheTtlMs !== undefined && { ttlMs: deps.keyCacheTtlMs }),
    onError: (err) => deps.logger.warn({ err }, 'live key check failed'),
  });
  const stopKeyEvents = deps.bus.subscribe('keys', (change) => void authenticator.keyChanged(change));
  // Admin mutations: drop the key here before answering, then tell the other processes.
  const keyChanged = async (change: KeyChange) => {
    await authenticator.keyChanged(change);
    await deps.bus.publish('keys', change);
  };
  const contextFor = (auth: Auth): GraphQLContext => createContext({ auth, db: deps.db, now: now(), timeZone: deps.config.leagueTimeZone, keyChanged });

  // The data version every cached body keys on: ingests (bus) and what the clock decides in a body
  // (the league's "today", quotes ageing into staleness), read at a coarse tick.
  const dataVersion = createDataVersion(deps.bus, {
    clockState: async () => {
      const at = now();
      return `${localDateOf(at, deps.config.leagueTimeZone)}|${await countAgedQuotes(deps.db.prisma, at)}`;
    },
    tickMs: 5000,
    onError: (err) => deps.logger.warn({ err }, 'data version clock check failed'),
  });

  /** Authentication then rate limiting, for REST and GraphQL alike. */
  const admit = async (req: IncomingMessage): Promise<Admission> => {
    const auth = await authenticator.authenticate(req.headers.authorization);
    if (auth.kind !== 'viewer') return { auth, headers: {} };
    const decision = await rateLimiter.consume(auth.viewer);
    if (decision.allowed) return { auth, headers: decision.headers };
    const refused = new AppError('RATE_LIMITED', `${ERRORS.RATE_LIMITED.message}: ${decision.headers['X-RateLimit-Limit']} requests per minute on the ${auth.viewer.plan} plan, retry in ${decision.headers['Retry-After']} s`);
    return { auth, headers: decision.headers, refused };
  };

  // A silent logger gets no request logger at all: pino-http's per-request child and listeners cost
  // measurably on the hot path even when nothing is written.
  const httpLogger =
    deps.logger.level === 'silent'
      ? undefined
      : pinoHttp({ logger: deps.logger, customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info') });
  const restCache = deps.config.restCacheMs > 0 ? createResponseCache({ maxAgeMs: deps.config.restCacheMs }) : undefined;
  const rest = createRestHandler({
    schema,
    admit,
    createContext: contextFor,
    dataVersion: () => dataVersion.current,
    cache: restCache,
    prefix: REST_PREFIX,
    onError: (error, req) => ((req as IncomingMessage & { log?: Logger }).log ?? deps.logger).error({ err: error }, 'REST operation failed'),
  });

  // Precompute per data version: when it advances, the answers polled most recently are computed
  // again at once (after a short pause that gathers a burst of ingests into one round).
  let warmTimer: NodeJS.Timeout | undefined;
  const stopWarming = dataVersion.onAdvance(() => {
    clearTimeout(warmTimer);
    warmTimer = setTimeout(() => void rest.warm(), 10);
  });

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');

  app.get('/healthz', (_req, res) => {
    res.json({ success: true, data: { status: 'ok', database: deps.db.kind } });
  });
  const openapi = JSON.stringify(buildOpenApi(schema));
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.type('application/json').send(openapi);
  });

  // GraphQL over HTTP: bad credentials are not refused here but per field (admin fields need another key).
  const authenticateRequest = async (req: AuthedRequest, res: Response, next: NextFunction) => {
    try {
      const admission = await admit(req);
      req.auth = admission.auth;
      res.set(admission.headers);
      if (admission.refused) {
        res.status(429).json(errorBody(admission.refused));
        return;
      }
      next();
    } catch (error) {
      next(error);
    }
  };
  const authOf = (req: Request): Auth => (req as AuthedRequest).auth ?? { kind: 'none', error: new AppError('UNAUTHENTICATED') };

  // Automatic persisted queries: one store for Apollo (POST registration) and the cached GET path.
  const persistedQueries = createPersistedQueryStore();
  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    persistedQueries: { cache: persistedQueries },
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
  // GraphQL queries over GET (plain or persisted) come from the REST response cache, with ETags.
  const graphqlGet =
    restCache &&
    createGraphQLGetHandler({ schema, rules: [complexityLimit()], cache: restCache, persistedQueries, dataVersion: () => dataVersion.current, createContext: contextFor });
  const graphqlGetFromCache = async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' || !graphqlGet) return next();
    try {
      if (!(await graphqlGet(req, res, req.query as Record<string, unknown>, authOf(req)))) next();
    } catch (error) {
      next(error);
    }
  };
  app.use(
    '/graphql',
    express.json({ limit: '100kb' }),
    authenticateRequest,
    graphqlGetFromCache,
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
    (req.log ?? deps.logger).error({ err: error }, 'request failed');
    res.status(500).json(errorBody(new AppError('INTERNAL')));
  });

  // REST GETs are answered before Express (the hot path); everything else goes to the Express app.
  const httpServer = http.createServer((req, res) => {
    httpLogger?.(req, res);
    if (!rest(req, res)) app(req, res);
  });

  // Live transports on the same server: graphql-ws takes the upgrades of /graphql, Socket.IO serves
  // /live-odds. Both run Subscription.liveOdds off one feed per process (fed by the bus: in-process
  // or Redis). Connected keys are re-checked when the bus says a key changed (and every 500 ms in memory,
  // for expiry dates), so a revocation disconnects within a second.
  const feed = createLiveFeed(deps.bus, { intervalMs: deps.config.livePushIntervalMs });
  const live = { httpServer, schema, db: deps.db, feed, keyLookup: authenticator.lookup, keyWatch: authenticator.keyWatch, timeZone: deps.config.leagueTimeZone, now };
  const graphqlWs = attachGraphQLWs(live);
  const socketIo = attachSocketIo({ ...live, onError: (err) => deps.logger.error({ err }, 'live push failed') });
  return {
    httpServer,
    async close() {
      stopKeyEvents();
      stopWarming();
      clearTimeout(warmTimer);
      dataVersion.close();
      await socketIo.close();
      await graphqlWs.close();
      authenticator.close();
      feed.close();
      await apollo.stop();
    },
  };
}
