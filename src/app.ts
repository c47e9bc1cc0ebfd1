import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import type Redis from 'ioredis';
import express, { type NextFunction, type Request, type Response } from 'express';
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, Kind } from 'graphql';
import { pinoHttp } from 'pino-http';
import { createRateLimiter } from './auth/rate-limit';
import type { Config } from './config';
import type { Database } from './db/client';
import { probeDatabase } from './db/health';
import { createKeyLookup } from './db/key-store';
import { AppError, ERRORS, isDatabaseUnavailable } from './errors';
import { authenticate, createContext, type Auth, type GraphQLContext } from './graphql/context';
import { costRefusal, PARSE_OPTIONS, shapeLimitRules } from './graphql/limits';
import { buildSchema } from './graphql/schema';
import { attachGraphQLWs } from './transports/graphql-ws';
import type { EventBus } from './events/bus';
import { attachSocketIo } from './transports/socket-io';
import { createLiveFeed } from './events/live-feed';
import { createKeyWatch } from './auth/live-key';
import type { Logger } from './logger';
import { createMetrics, type Metrics } from './metrics';
import { redactUrl } from './redact';
import { errorBody } from './rest/envelope';
import { buildOpenApi } from './rest/openapi';
import { createResultCache } from './rest/result-cache';
import { createRestRouter } from './rest/router';
import { answerClientError } from './rest/transport-errors';

/** What the app is built from; main.ts and tests provide them. */
export interface AppDeps {
  config: Config;
  db: Database;
  bus: EventBus;
  logger: Logger;
  /** Clock, for tests (default: the real one). */
  now?: () => Date;
  /** Redis client for rate-limit counters shared by every API process (REDIS_URL); absent: per process. */
  rateLimitStore?: Redis;
}

export interface App {
  httpServer: http.Server;
  /** The app's Prometheus registry and metrics (served at /metrics). */
  metrics: Metrics;
  /** Stops live transports and timers; does not close the database or the bus (main.ts owns them). */
  close(): Promise<void>;
}

/** The request id of the request being served (Apollo's formatError has no request of its own). */
const requestIds = new AsyncLocalStorage<string>();

/** A client's X-Request-Id when it is a sane token, else a fresh UUID. */
function requestIdOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && /^[\w.:-]{1,128}$/.test(value) ? value : randomUUID();
}

/** The masked 500: what failed stays in the logs under the request id the client is given. */
function internalError(requestId: string): AppError {
  return new AppError('INTERNAL', `${ERRORS.INTERNAL.message} (request id ${requestId})`);
}

/** `promise`, or a rejection after `ms`. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Path prefix of the REST routes. */
export const REST_PREFIX = '/api/v1/nba/odds';

type AuthedRequest = Request & { auth?: Auth };

/** Wires every module onto one HTTP server. Never listens: main.ts and tests do. */
export function createApp(deps: AppDeps): App {
  const now = deps.now ?? (() => new Date());
  const schema = buildSchema();
  const metrics = createMetrics();
  const rateLimiter = createRateLimiter({ limits: deps.config.rateLimits, redis: deps.rateLimitStore });
  const contextFor = (auth: Auth): GraphQLContext => createContext({ auth, db: deps.db, now: now(), timeZone: deps.config.leagueTimeZone });

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(
    pinoHttp({
      logger: deps.logger,
      genReqId: (req, res) => {
        const id = requestIdOf(req.headers['x-request-id']);
        res.setHeader('X-Request-Id', id);
        return id;
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
      // Headers are redacted by the logger; a key a client put in the query string is masked here
      // (the parsed query would repeat it, and the URL already shows it).
      serializers: { req: (req: { url: string; query?: unknown }) => Object.assign(req, { url: redactUrl(req.url), query: undefined }) },
    }),
  );

  // Every step of a request, Apollo's formatError included, can name its request id.
  app.use((req, _res, next) => requestIds.run(String(req.id), next));

  // Request rate and latency per route (the route pattern, not the URL, so labels stay few).
  app.use((req, res, next) => {
    const end = metrics.httpDuration.startTimer();
    res.once('finish', () => {
      const route = req.route ? `${req.baseUrl}${req.route.path as string}` : req.baseUrl || 'unmatched';
      end({ method: req.method, route });
      metrics.httpRequests.inc({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  });

  // Liveness: the process answers. Touches nothing, so a slow database never gets it restarted.
  app.get('/healthz', (_req, res) => {
    res.json({ success: true, data: { status: 'ok' } });
  });
  // Readiness: the database answers (and Redis, when configured); reports how fresh the data is.
  app.get('/readyz', async (_req, res) => {
    const [database, redis] = await Promise.allSettled([
      probeDatabase(deps.db.prisma),
      deps.rateLimitStore ? withTimeout(deps.rateLimitStore.ping(), 1000) : Promise.resolve('not configured'),
    ]);
    const ready = database.status === 'fulfilled' && redis.status === 'fulfilled';
    const latest = database.status === 'fulfilled' ? database.value.latestPriceAt : null;
    res.status(ready ? 200 : 503).json({
      success: ready,
      data: {
        status: ready ? 'ready' : 'not ready',
        database: { kind: deps.db.kind, ok: database.status === 'fulfilled' },
        redis: deps.rateLimitStore ? { ok: redis.status === 'fulfilled' } : { ok: true, configured: false },
        feed: { latest_price_at: latest?.toISOString() ?? null, age_seconds: latest ? Math.round((now().getTime() - latest.getTime()) / 1000) : null },
      },
    });
  });
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  const openapi = JSON.stringify(buildOpenApi(schema));
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.type('application/json').send(openapi);
  });

  // How each surface answers a refusal: REST in the spec's envelope, /graphql in GraphQL's errors[].
  const sendRest = (res: Response, error: AppError) => res.status(error.status).json(errorBody(error));
  const sendGraphQL = (res: Response, error: AppError) =>
    res.status(error.status).json({ errors: [{ message: error.message, extensions: { code: ERRORS[error.code].graphql } }] });

  /** Transport errors (body parser: 400, 413) as themselves, anything else as a masked 500 whose request id is in the logs. */
  const handleErrors = (send: typeof sendRest) => (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: number }).status;
    if (status === 413) return send(res, new AppError('PAYLOAD_TOO_LARGE'));
    if (status && status >= 400 && status < 500) return send(res, new AppError('MALFORMED_REQUEST', `${ERRORS.MALFORMED_REQUEST.message}: ${(error as Error).message}`));
    if (isDatabaseUnavailable(error)) return send(res.set('Retry-After', '1'), new AppError('UNAVAILABLE'));
    req.log.error({ err: error }, 'request failed');
    return send(res, internalError(String(req.id)));
  };

  // Authentication then rate limiting, for REST and GraphQL alike. Bad credentials are not refused
  // here: REST answers 401/403 in its envelope, GraphQL per field (admin fields need another key).
  // API keys draw on their plan's budget, the admin key on its own.
  const authenticateRequest = (send: typeof sendRest) => async (req: AuthedRequest, res: Response, next: NextFunction) => {
    try {
      req.auth = await authenticate({ db: deps.db, adminKey: deps.config.adminKey }, req.headers.authorization, now());
      const counted = req.auth.kind === 'viewer' ? { bucket: req.auth.viewer.plan, id: req.auth.viewer.keyId } : req.auth.kind === 'admin' ? { bucket: 'admin' as const, id: 'admin' } : undefined;
      if (counted) {
        const decision = await rateLimiter.consume(counted.bucket, counted.id);
        res.set(decision.headers);
        if (!decision.allowed) {
          const who = counted.bucket === 'admin' ? 'for the admin key' : `on the ${counted.bucket} plan`;
          send(res, new AppError('RATE_LIMITED', `${ERRORS.RATE_LIMITED.message}: ${decision.headers['X-RateLimit-Limit']} requests per minute ${who}, retry in ${decision.headers['Retry-After']} s`));
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
    authenticateRequest(sendRest),
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
    validationRules: shapeLimitRules(),
    parseOptions: PARSE_OPTIONS,
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      // The cost budget depends on the caller's plan and the operation's variables (list limits).
      {
        async requestDidStart() {
          return {
            async didResolveOperation({ document, operation, operationName, request, contextValue }) {
              const refusal = costRefusal(schema, document, { operationName, variables: request.variables, plan: contextValue.viewer?.plan });
              if (refusal) throw refusal;
              // An audit line per admin operation: what was done, never the key that did it.
              if (contextValue.auth.kind === 'admin' && operation) {
                const fields = operation.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : []));
                deps.logger.info({ admin: true, operation: operation.operation, fields }, 'admin action');
              }
            },
          };
        },
      },
    ],
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
      if (formatted.extensions?.code === 'INTERNAL_SERVER_ERROR' && isDatabaseUnavailable(original)) {
        return { message: ERRORS.UNAVAILABLE.message, locations: formatted.locations, path: formatted.path, extensions: { code: ERRORS.UNAVAILABLE.graphql } };
      }
      if (formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') {
        const requestId = requestIds.getStore() ?? randomUUID();
        deps.logger.error({ err: original, reqId: requestId }, 'GraphQL resolver failed');
        return { message: internalError(requestId).message, locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR', requestId } };
      }
      // Validation and input errors keep their message and code; their stack stays here.
      const { stacktrace: _stacktrace, ...extensions } = formatted.extensions ?? {};
      return { ...formatted, extensions };
    },
    logger: deps.logger,
    includeStacktraceInErrorResponses: deps.config.debugErrors,
  });
  apollo.startInBackgroundHandlingStartupErrorsByLoggingAndFailingAllRequests();
  app.use(
    '/graphql',
    express.json({ limit: '100kb' }),
    authenticateRequest(sendGraphQL),
    expressMiddleware(apollo, { context: async ({ req }) => contextFor(authOf(req)) }),
    // Bad JSON and bodies over the limit answer in GraphQL's shape on /graphql.
    handleErrors(sendGraphQL),
  );

  app.use((_req, res) => {
    res.status(404).json(errorBody(new AppError('ROUTE_NOT_FOUND')));
  });
  // Malformed JSON, oversized bodies and anything unexpected: the same envelope, never an HTML page.
  app.use(handleErrors(sendRest));
  const httpServer = http.createServer(app);
  httpServer.on('clientError', answerClientError);

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
    metrics,
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
