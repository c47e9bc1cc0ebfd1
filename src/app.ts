import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import cors, { type CorsOptions } from 'cors';
import express, { type NextFunction, type Request, type Response } from 'express';
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, Kind, NoSchemaIntrospectionCustomRule } from 'graphql';
import type Redis from 'ioredis';
import { pinoHttp } from 'pino-http';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { createAuthenticator, type Auth, type KeyChange } from './auth/authenticate';
import { clientAddress } from './auth/client-address';
import { createConnectionLimiter } from './auth/connection-limit';
import { createRateLimiter } from './auth/rate-limit';
import type { Config } from './config';
import type { Database } from './db/client';
import { probeDatabase } from './db/health';
import { createKeyLookup } from './db/key-store';
import { countFreshQuotes } from './db/listing-repository';
import { localDateOf, MARKET_TYPE_TABLE, MARKET_TYPES } from './domain';
import { AppError, ERRORS, isDatabaseUnavailable } from './errors';
import { createContext, type GraphQLContext, costRefusal, PARSE_OPTIONS, shapeLimitRules, buildSchema } from './graphql';
import { createListingMemo, type ListingMemoEntry } from './services/listing-memo';
import { createLiveCore } from './live/core';
import { attachGraphQLWs } from './live/use/graphql-ws';
import { isSocketIoPath, refuseUpgrade, SHUTDOWN_GRACE_MS, trackConnections } from './live/server';
import type { EventBus } from './events/bus';
import { attachSocketIo } from './live/use/socket-io';
import { buildAsyncApi } from './live/asyncapi';
import { createSseHandler } from './live/use/sse';
import { createLiveFeed } from './events/live-feed';
import { createDataVersion } from './events/data-version';
import type { Logger } from './logger';
import type { FeedQuota } from './ingest/feeds';
import { createMetrics, type Metrics } from './metrics';
import { redactUrl } from './redact';
import { errorBody } from './rest/envelope';
import { buildOpenApi } from './rest/openapi';
import { BoundedCache, type CacheEvent } from './rest/bounded-cache';
import { createResponseCache, dropExpired } from './rest/response-cache';
import { createRestHandler, type Admission } from './rest/router';
import { createGraphQLGetHandler, createPersistedQueryStore } from './rest/graphql-get';
import { refusalOf, sendRefusal } from './rest/request-limits';
import { answerClientError } from './rest/transport-errors';
import { createWebSite, WEB_PAGE_PATHS } from './web/site';

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
  /** How long a verified key is trusted without the bus saying otherwise (default 60 s). */
  keyCacheTtlMs?: number;
  /** The quotas of the sources polled in this process, by format name (/readyz, /metrics): src/ingest/feeds feedQuotas. */
  feedQuotas?: ReadonlyMap<string, FeedQuota>;
}

export interface App {
  httpServer: http.Server;
  /** The app's Prometheus registry and metrics (served at /metrics). */
  metrics: Metrics;
  /**
   * Stops live transports (every client told: graphql-ws 1001, Socket.IO disconnect, SSE `shutdown`
   * event) and timers, then ends the server's connections: idle ones at once, the rest after at most
   * SHUTDOWN_GRACE_MS. Does not close the database or the bus (main.ts owns them).
   */
  close(): Promise<void>;
}

/** The request id of the request being served (Apollo's formatError has no request of its own). */
const requestIds = new AsyncLocalStorage<string>();
/** Whether the /graphql request being served has a usable key (the persisted-query store asks). */
const keyedRequests = new AsyncLocalStorage<boolean>();

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
/** `make`'s value, made on the first call and kept. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | null = null;
  return () => (made ??= { value: make() }).value;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The route pattern a request matched (REST table or Express), for metric labels. */
function routeOf(req: IncomingMessage): string {
  const r = req as IncomingMessage & { routePattern?: string; route?: { path?: string }; baseUrl?: string };
  if (r.routePattern) return r.routePattern;
  if (r.route?.path) return `${r.baseUrl ?? ''}${r.route.path}`;
  return r.baseUrl || 'unmatched';
}

/** Path prefix of the REST routes. */
export const REST_PREFIX = '/api/v1/nba/odds';

type AuthedRequest = Request & { auth?: Auth };

/** Wires every module onto one HTTP server. Never listens: main.ts and tests do. */
export function createApp(deps: AppDeps): App {
  const now = deps.now ?? (() => new Date());
  const schema = buildSchema();
  const metrics = createMetrics();
  // Counters bound to their labels once: a look-up is on the hot path of every request.
  const cacheEvents = (cache: string, also?: Partial<Record<CacheEvent, () => void>>) => {
    const bound = Object.fromEntries((['hit', 'miss', 'evict', 'expire'] as const).map((event) => [event, metrics.cacheEvents.labels({ cache, event })]));
    return (event: CacheEvent) => {
      bound[event]!.inc();
      also?.[event]?.();
    };
  };
  for (const quota of deps.feedQuotas?.values() ?? []) quota.registerMetrics(metrics.registry);
  const rateLimiter = createRateLimiter({ limits: deps.config.rateLimits, redis: deps.rateLimitStore });

  // One authenticator for every transport: verified keys in memory, dropped at once when the bus says
  // a key or account changed (from this process, another one, or the CLI through Redis).
  const authenticator = createAuthenticator({
    lookup: createKeyLookup(deps.db.prisma),
    adminKey: deps.config.adminKey,
    now,
    ...(deps.keyCacheTtlMs !== undefined && { ttlMs: deps.keyCacheTtlMs }),
    onCacheEvent: cacheEvents('api_keys'),
    onError: (err) => deps.logger.warn({ err }, 'live key check failed'),
  });
  const stopKeyEvents = deps.bus.subscribe('keys', (change) => void authenticator.keyChanged(change));
  // Ingest figures as this process hears of each commit (from itself, another process or the CLI).
  const stopIngestMetrics = deps.bus.subscribe('odds', (event) => {
    if (event.missed) return;
    metrics.ingestLag.observe(Math.max(0, (Date.now() - Date.parse(event.at)) / 1000));
    metrics.quotesChanged.inc(event.quotes ?? 0);
  });
  // Admin mutations: drop the key here before answering, then tell the other processes.
  const keyChanged = async (change: KeyChange) => {
    await authenticator.keyChanged(change);
    await deps.bus.publish('keys', change);
  };
  const contextFor = (auth: Auth): GraphQLContext => createContext({ auth, db: deps.db, now: now(), timeZone: deps.config.leagueTimeZone, keyChanged, allowPrivateWebhookTargets: deps.config.webhooks.allowPrivateTargets, listingMemo });

  // The data version every cached body keys on: ingests (bus) and what the clock decides in a body
  // (the league's "today", quotes ageing into staleness), read at a coarse tick.
  const dataVersion = createDataVersion(deps.bus, {
    clockState: async () => {
      const at = now();
      return `${localDateOf(at, deps.config.leagueTimeZone)}|${await countFreshQuotes(deps.db.prisma, at)}`;
    },
    tickMs: 5000,
    onError: (err) => deps.logger.warn({ err }, 'data version clock check failed'),
  });
  // The listing rows read under the current data version, shared by the pages of one listing;
  // bounded in bytes like every other cache (LISTING_ROWS_MAX_BYTES).
  const listingRows = new BoundedCache<ListingMemoEntry>({
    maxBytes: deps.config.cacheBytes.listingRows,
    sizeOf: (entry) => entry.bytes,
    onEvent: cacheEvents('listing_rows'),
  });
  metrics.watchCacheBytes('listing_rows', () => listingRows.calculatedSize, deps.config.cacheBytes.listingRows);
  const listingMemo = createListingMemo(() => dataVersion.current, listingRows);

  /**
   * Authentication then rate limiting, for REST and GraphQL alike. API keys draw on their plan's
   * budget, the admin key on its own, requests without a usable key on their client address's
   * (they are refused later, per route or per field, but their parsing and answers still cost).
   */
  const admit = async (req: IncomingMessage): Promise<Admission> => {
    const auth = await authenticator.authenticate(req.headers.authorization);
    const counted =
      auth.kind === 'viewer'
        ? { bucket: auth.viewer.plan, id: auth.viewer.keyId }
        : auth.kind === 'admin'
          ? { bucket: 'admin' as const, id: 'admin' }
          : { bucket: 'anonymous' as const, id: clientAddress(req.socket.remoteAddress) };
    const decision = await rateLimiter.consume(counted.bucket, counted.id);
    // A keyless request's budget is the address's, not a key's: its figures are told only in the 429.
    if (decision.allowed) return { auth, headers: counted.bucket === 'anonymous' ? {} : decision.headers };
    const who = counted.bucket === 'admin' ? 'for the admin key' : counted.bucket === 'anonymous' ? 'without an API key from one address' : `on the ${counted.bucket} plan`;
    const refused = new AppError('RATE_LIMITED', `${ERRORS.RATE_LIMITED.message}: ${decision.headers['X-RateLimit-Limit']} requests per minute ${who}, retry in ${decision.headers['Retry-After']} s`);
    return { auth, headers: decision.headers, refused };
  };

  // A silent logger gets no request logger at all: pino-http's per-request child and listeners cost
  // measurably on the hot path even when nothing is written.
  const httpLogger =
    deps.logger.level === 'silent'
      ? undefined
      : pinoHttp({
          logger: deps.logger,
          genReqId: (req) => (req as IncomingMessage & { id: string }).id,
          customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
          // Headers are redacted by the logger; a key a client put in the query string is masked here
          // (the parsed query would repeat it, and the URL already shows it).
          serializers: { req: (req: { url: string; query?: unknown }) => Object.assign(req, { url: redactUrl(req.url), query: undefined }) },
        });
  const { cacheBytes } = deps.config;
  const lookupHits = metrics.cacheLookups.labels({ outcome: 'hit' });
  const lookupMisses = metrics.cacheLookups.labels({ outcome: 'miss' });
  const restCache =
    deps.config.restCacheMs > 0
      ? createResponseCache({
          maxAgeMs: deps.config.restCacheMs,
          maxBytes: cacheBytes.responses,
          onEvent: cacheEvents('responses', { hit: () => lookupHits.inc(), miss: () => lookupMisses.inc() }),
        })
      : undefined;
  if (restCache) metrics.watchCacheBytes('responses', () => restCache.calculatedSize, cacheBytes.responses);
  const rest = createRestHandler({
    schema,
    admit,
    createContext: contextFor,
    dataVersion: () => dataVersion.current,
    cache: restCache,
    prefix: REST_PREFIX,
    parsedUrlMaxBytes: cacheBytes.parsedUrls,
    onParsedUrlEvent: cacheEvents('parsed_urls'),
    onError: (error, req) => ((req as IncomingMessage & { log?: Logger }).log ?? deps.logger).error({ err: error }, 'REST operation failed'),
  });

  // Precompute per data version: when it advances, the answers polled most recently are computed
  // again at once (after a short pause that gathers a burst of ingests into one round).
  // Answers of past versions are dropped at once (nobody can ask for them again), and expired ones
  // on a slow sweep, so neither waits for LRU eviction.
  let warmTimer: NodeJS.Timeout | undefined;
  const stopWarming = dataVersion.onAdvance((version) => {
    if (restCache) dropExpired(restCache, version);
    clearTimeout(warmTimer);
    warmTimer = setTimeout(() => void rest.warm(), 10);
  });
  const sweepTimer = restCache && setInterval(() => dropExpired(restCache, dataVersion.current), 60_000).unref();

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');

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
        // The quota is news, not a readiness condition: a spent budget slows polling, it does not stop serving.
        ...(deps.feedQuotas?.size && { sources: Object.fromEntries([...deps.feedQuotas].map(([name, quota]) => [name, quota.snapshot()])) }),
      },
    });
  });
  app.get('/metrics', async (_req, res) => {
    const exposition = metrics.exposition();
    res.type(exposition.contentType).send(await exposition.metrics());
  });
  // Both contracts are built on their first request, not at start: a process nobody asks for them
  // (most API processes) never holds them (about 0.5 MB of text and the garbage of building it).
  const openapi = once(() => JSON.stringify(buildOpenApi(schema)));
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.type('application/json').send(openapi());
  });
  // The live channel's contract (Socket.IO /live-odds), like the OpenAPI document readable without a key.
  const asyncapi = once(() => JSON.stringify(buildAsyncApi(schema, { pushIntervalMs: deps.config.livePushIntervalMs })));
  app.get('/api/v1/asyncapi.json', (_req, res) => {
    res.type('application/json').send(asyncapi());
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
    (req.log ?? deps.logger).error({ err: error, reqId: req.id }, 'request failed');
    return send(res, internalError(String(req.id)));
  };

  // GraphQL over HTTP: bad credentials are not refused here but per field (admin fields need another key).
  const authenticateRequest = async (req: AuthedRequest, res: Response, next: NextFunction) => {
    try {
      const admission = await admit(req);
      req.auth = admission.auth;
      res.set(admission.headers);
      if (admission.refused) {
        sendGraphQL(res, admission.refused);
        return;
      }
      keyedRequests.run(admission.auth.kind !== 'none', next);
    } catch (error) {
      next(error);
    }
  };
  const authOf = (req: Request): Auth => (req as AuthedRequest).auth ?? { kind: 'none', error: new AppError('UNAUTHENTICATED') };

  // Automatic persisted queries: one store for Apollo (POST registration) and the cached GET path.
  // Bounded in bytes; only requests with a usable key register queries (a keyless one's is run, not kept).
  const persistedQueries = createPersistedQueryStore({
    maxBytes: cacheBytes.persistedQueries,
    mayStore: () => keyedRequests.getStore() === true,
    onEvent: cacheEvents('persisted_queries'),
  });
  // Introspection is a setting (GRAPHQL_INTROSPECTION, on by default), never NODE_ENV's: Apollo would
  // turn it off under NODE_ENV=production and break GraphiQL, codegen and client tools there. Off, it
  // is refused on POST (Apollo's own rule) and on the cached GET path (the same rule of graphql-js).
  const introspectionRules = deps.config.graphqlIntrospection ? [] : [NoSchemaIntrospectionCustomRule];
  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    introspection: deps.config.graphqlIntrospection,
    persistedQueries: { cache: persistedQueries },
    // A GET carrying Authorization was preflighted (a browser cannot send that header cross-site
    // without asking), so it is no CSRF risk: a keyed GET is answered, plan refusals included
    // (FORBIDDEN), instead of Apollo's CSRF BAD_REQUEST. Apollo's own two headers still count.
    csrfPrevention: { requestHeaders: ['authorization', 'x-apollo-operation-name', 'apollo-require-preflight'] },
    validationRules: shapeLimitRules(),
    parseOptions: PARSE_OPTIONS,
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      // The cost budget depends on the caller's plan and the operation's variables (list limits).
      {
        async requestDidStart() {
          return {
            async didResolveOperation({ document, operation, operationName, request, contextValue }) {
              if (operation?.operation === 'subscription') {
                throw new GraphQLError('subscriptions run over WebSocket: connect with graphql-ws to /graphql (or Socket.IO to /live-odds)', {
                  extensions: { code: ERRORS.MALFORMED_REQUEST.graphql, http: { status: 400 } },
                });
              }
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
  // GraphQL queries over GET (plain or persisted) come from the REST response cache, with ETags.
  const graphqlGet =
    restCache &&
    createGraphQLGetHandler({
      schema,
      rules: [...shapeLimitRules(), ...introspectionRules],
      cache: restCache,
      persistedQueries,
      documentMaxBytes: cacheBytes.persistedQueries,
      onDocumentEvent: cacheEvents('graphql_documents'),
      dataVersion: () => dataVersion.current,
      createContext: contextFor,
    });
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
    // Bad JSON and bodies over the limit answer in GraphQL's shape on /graphql.
    handleErrors(sendGraphQL),
  );

  // The live board at / and the docs at /docs: public pages; the data they show is fetched with the user's key.
  // The board is told the game markets from the market table, so it never spells them itself.
  const boardMarkets = MARKET_TYPES.map((type) => ({ type, label: MARKET_TYPE_TABLE[type].label, sides: MARKET_TYPE_TABLE[type].sides, line: MARKET_TYPE_TABLE[type].line }));
  app.use(createWebSite({ today: () => localDateOf(now(), deps.config.leagueTimeZone), boardMarkets }));

  // Other methods on the GET-only pages and endpoints: 405 with Allow, not the catch-all 404.
  app.all(['/healthz', '/readyz', '/metrics', '/api/v1/openapi.json', '/api/v1/asyncapi.json', ...WEB_PAGE_PATHS], (req, res, next) => {
    // a GET here is one the page did not answer (an unknown guide): the 404 below
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    sendRest(res.set('Allow', 'GET, HEAD'), new AppError('METHOD_NOT_ALLOWED', `${ERRORS.METHOD_NOT_ALLOWED.message}: ${req.method} ${req.path} takes GET, HEAD`));
  });
  app.use((_req, res) => {
    res.status(404).json(errorBody(new AppError('ROUTE_NOT_FOUND')));
  });
  // Malformed JSON, oversized bodies and anything unexpected: the same envelope, never an HTML page.
  app.use(handleErrors(sendRest));

  // CORS, when CORS_ORIGINS lists origins: pages of those origins may call REST and /graphql from a
  // browser (preflights answered here, 204); others get no Access-Control-Allow-Origin, so their
  // browser refuses the answer. Socket.IO's long-polling gets the same list (its own option).
  const corsOptions: CorsOptions | undefined = deps.config.corsOrigins.length
    ? {
        origin: [...deps.config.corsOrigins],
        allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'If-None-Match'],
        exposedHeaders: ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'ETag'],
        maxAge: 600,
      }
    : undefined;
  const corsHeaders = corsOptions && cors(corsOptions);

  // REST GETs are answered before Express (the hot path); everything else goes to the Express app.
  // Every request gets an id (the client's X-Request-Id when sane), echoed, logged, and known to every
  // step after (Apollo's formatError included); and counts in the request metrics by route pattern.
  const httpServer = http.createServer({ requireHostHeader: false }, (req, res) => {
    const id = requestIdOf(req.headers['x-request-id']);
    (req as IncomingMessage & { id: string }).id = id;
    res.setHeader('X-Request-Id', id);
    const end = metrics.httpDuration.startTimer();
    res.once('finish', () => {
      const route = routeOf(req);
      end({ method: req.method ?? 'GET', route });
      metrics.httpRequests.inc({ method: req.method ?? 'GET', route, status: String(res.statusCode) });
    });
    httpLogger?.(req, res);
    const refused = refusalOf(req);
    if (refused) return sendRefusal(req, res, refused);
    const handle = () =>
      requestIds.run(id, () => {
        if (!sse.handle(req, res) && !rest(req, res)) app(req, res);
      });
    if (corsHeaders) corsHeaders(req as Request, res as Response, handle);
    else handle();
  });
  // Requests Node's parser refuses (URL over 16 kB: 431, malformed: 400) get the error envelope too.
  httpServer.on('clientError', answerClientError);

  // Live transports on the same server: graphql-ws takes the upgrades of /graphql, Socket.IO serves
  // /live-odds. Both run Subscription.liveOdds off one feed per process (fed by the bus: in-process
  // or Redis). Connected keys are re-checked when the bus says a key changed (and every 500 ms in memory,
  // for expiry dates), so a revocation disconnects within a second.
  const feed = createLiveFeed(deps.bus, { intervalMs: deps.config.livePushIntervalMs });
  const connections = createConnectionLimiter(deps.config.liveConnections, (open) => metrics.liveConnections.set(open));
  // One core for the three transports: key checks and revocation, connection slots, the plan's request
  // budget for every operation (the HTTP one, so a key's budget is the same whichever way it is
  // spent), frame and unsent-bytes caps, errors masked as on HTTP (src/live/core.ts).
  const core = createLiveCore({
    keyLookup: authenticator.lookup,
    keyWatch: authenticator.keyWatch,
    connections,
    now,
    maxBufferedBytes: deps.config.sseMaxBufferedBytes,
    onSlowConsumer: () => metrics.slowClientsCut.inc(),
    onError: (err, reqId) => deps.logger.error({ err, reqId }, 'live operation failed'),
    charge: async (viewer) => {
      const decision = await rateLimiter.consume(viewer.plan, viewer.keyId);
      if (decision.allowed) return { headers: decision.headers };
      const message = `${ERRORS.RATE_LIMITED.message}: ${decision.headers['X-RateLimit-Limit']} requests per minute on the ${viewer.plan} plan, retry in ${decision.headers['Retry-After']} s`;
      return { headers: decision.headers, refused: new AppError('RATE_LIMITED', message) };
    },
  });
  const live = { httpServer, schema, db: deps.db, feed, core, timeZone: deps.config.leagueTimeZone, now };
  const pushed = (transport: string) => (seenAt: Date) => metrics.pushLatency.observe({ transport }, Math.max(0, (Date.now() - seenAt.getTime()) / 1000));
  const graphqlWs = attachGraphQLWs({ ...live, onPush: pushed('graphql-ws') });
  const socketIo = attachSocketIo({ ...live, ...(corsOptions && { cors: corsOptions }), onPush: pushed('socket.io'), onError: (err) => deps.logger.error({ err }, 'live push failed') });
  // The resumable odds stream (SSE): the same core; each connection attempt counts as a request.
  const sse = createSseHandler({ ...live, prefix: REST_PREFIX, heartbeatMs: deps.config.sseHeartbeatMs, onPush: pushed('sse'), onError: (err) => deps.logger.error({ err }, 'odds stream failed') });
  // Upgrades on a path no transport serves are refused at once (they would otherwise sit outside
  // every HTTP timeout, and hold a shutdown). Listeners run in order: graphql-ws and Socket.IO first.
  httpServer.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    if (graphqlWs.handles(req) || isSocketIoPath(req)) return;
    refuseUpgrade(socket);
  });
  const connectionsOpen = trackConnections(httpServer);
  return {
    httpServer,
    metrics,
    async close() {
      stopKeyEvents();
      stopIngestMetrics();
      stopWarming();
      clearTimeout(warmTimer);
      clearInterval(sweepTimer);
      dataVersion.close();
      sse.close();
      await socketIo.close();
      await graphqlWs.close();
      core.close();
      authenticator.close();
      feed.close();
      await apollo.stop();
      // Idle keep-alive sockets go now; requests in flight get SHUTDOWN_GRACE_MS; then whatever is
      // left (a half-open socket, one in CLOSE-WAIT) is destroyed, so a shutdown always ends.
      httpServer.closeIdleConnections();
      await connectionsOpen.drain(SHUTDOWN_GRACE_MS);
    },
  };
}
