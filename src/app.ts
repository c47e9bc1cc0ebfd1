import type http from 'node:http';
import type { IncomingMessage } from 'node:http';
import type Redis from 'ioredis';
import { createAdmission } from './auth/admission';
import { createAuthenticator, type Auth, type KeyChange } from './auth/authenticate';
import { createRateLimiter } from './auth/rate-limit';
import type { Config } from './config';
import type { Database } from './db/client';
import { createKeyLookup } from './db/key-store';
import { countFreshQuotes } from './db/listing-repository';
import { localDateOf, MARKET_TYPE_TABLE, MARKET_TYPES } from './domain';
import type { EventBus } from './events/bus';
import { createDataVersion } from './events/data-version';
import { createLiveFeed } from './events/live-feed';
import { createContext, type GraphQLContext, buildSchema } from './graphql';
import { addContractRoutes } from './http/contracts';
import { corsOptionsOf } from './http/cors';
import { addPagesAndFallbacks, createExpressApp } from './http/express';
import { mountGraphQL } from './http/graphql';
import { addHealthRoutes } from './http/health';
import { attachLive } from './http/live';
import { createHttpServer } from './http/server';
import type { FeedQuota } from './ingest/feeds';
import type { Logger } from './logger';
import { createMetrics, type Metrics } from './metrics';
import { BoundedCache, type CacheEvent } from './rest/bounded-cache';
import { serveRest } from './rest/serve';
import { createListingMemo, type ListingMemoEntry } from './services/listing-memo';
import { serveMcpHttp } from './mcp/http';
import type { RestHandler } from './rest/router';
import type { GraphQLSchema } from 'graphql';

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
  /** The executable GraphQL schema every transport runs on. */
  schema: GraphQLSchema;
  /** Runs a REST route in-process for a caller (the MCP tools of `odds mcp` on the local store). */
  callRoute: RestHandler['call'];
  /**
   * Marks the process as shutting down: /readyz answers 503 from now on (a load balancer takes the
   * process out of its pool), while every request and connection is still served. close() follows.
   */
  drain(): void;
  /**
   * Stops live transports (every client told: graphql-ws 1012, Socket.IO disconnect, SSE `shutdown`
   * event) and timers, then ends the server's connections: idle ones at once, the rest after at most
   * SHUTDOWN_GRACE_MS. Does not close the database or the bus (main.ts owns them).
   */
  close(): Promise<void>;
}

/** Path prefix of the REST routes. */
export const REST_PREFIX = '/api/v1/nba/odds';

/** Wires every module onto one HTTP server. Never listens: main.ts and tests do. */
export function createApp(deps: AppDeps): App {
  const { config, db, bus, logger } = deps;
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
  const rateLimiter = createRateLimiter({ limits: config.rateLimits, redis: deps.rateLimitStore });

  // One authenticator for every transport: verified keys in memory, dropped at once when the bus says
  // a key or account changed (from this process, another one, or the CLI through Redis).
  const authenticator = createAuthenticator({
    lookup: createKeyLookup(db.prisma),
    adminKey: config.adminKey,
    now,
    ...(deps.keyCacheTtlMs !== undefined && { ttlMs: deps.keyCacheTtlMs }),
    onCacheEvent: cacheEvents('api_keys'),
    onError: (err) => logger.warn({ err }, 'live key check failed'),
  });
  const stopKeyEvents = bus.subscribe('keys', (change) => void authenticator.keyChanged(change));
  // Ingest figures as this process hears of each commit (from itself, another process or the CLI).
  const stopIngestMetrics = bus.subscribe('odds', (event) => {
    if (event.missed) return;
    metrics.ingestLag.observe(Math.max(0, (Date.now() - Date.parse(event.at)) / 1000));
    metrics.quotesChanged.inc(event.quotes ?? 0);
  });
  // Admin mutations: drop the key here before answering, then tell the other processes.
  const keyChanged = async (change: KeyChange) => {
    await authenticator.keyChanged(change);
    await bus.publish('keys', change);
  };
  const contextFor = (auth: Auth): GraphQLContext => createContext({ auth, db, now: now(), timeZone: config.leagueTimeZone, keyChanged, allowPrivateWebhookTargets: config.webhooks.allowPrivateTargets, listingMemo });

  // The data version every cached body keys on: ingests (bus) and what the clock decides in a body
  // (the league's "today", quotes ageing into staleness), read at a coarse tick.
  const dataVersion = createDataVersion(bus, {
    clockState: async () => {
      const at = now();
      return `${localDateOf(at, config.leagueTimeZone)}|${await countFreshQuotes(db.prisma, at)}`;
    },
    tickMs: 5000,
    onError: (err) => logger.warn({ err }, 'data version clock check failed'),
  });
  // The listing rows read under the current data version, shared by the pages of one listing;
  // bounded in bytes like every other cache (LISTING_ROWS_MAX_BYTES).
  const { cacheBytes } = config;
  const listingRows = new BoundedCache<ListingMemoEntry>({ maxBytes: cacheBytes.listingRows, sizeOf: (entry) => entry.bytes, onEvent: cacheEvents('listing_rows') });
  metrics.watchCacheBytes('listing_rows', () => listingRows.calculatedSize, cacheBytes.listingRows);
  const listingMemo = createListingMemo(() => dataVersion.current, listingRows);
  const { admit, charge } = createAdmission({ authenticator, rateLimiter });

  const lookupHits = metrics.cacheLookups.labels({ outcome: 'hit' });
  const lookupMisses = metrics.cacheLookups.labels({ outcome: 'miss' });
  const rest = serveRest({
    schema, admit, createContext: contextFor, dataVersion, prefix: REST_PREFIX,
    cacheMs: config.restCacheMs, cacheMaxBytes: cacheBytes.responses, parsedUrlMaxBytes: cacheBytes.parsedUrls,
    onResponseCacheEvent: cacheEvents('responses', { hit: () => lookupHits.inc(), miss: () => lookupMisses.inc() }),
    onParsedUrlEvent: cacheEvents('parsed_urls'),
    watchCacheBytes: (bytes, maxBytes) => metrics.watchCacheBytes('responses', bytes, maxBytes),
    onError: (error, req) => ((req as (IncomingMessage & { log?: Logger }) | undefined)?.log ?? logger).error({ err: error }, 'REST operation failed'),
  });

  // MCP at /mcp: tools that run the REST routes in-process, admitted as REST requests are.
  const mcp = serveMcpHttp({ schema, admit, call: rest.handler.call, onError: (error, req) => ((req as IncomingMessage & { log?: Logger }).log ?? logger).error({ err: error }, 'MCP tool failed') });

  const app = createExpressApp();
  let draining = false;
  addHealthRoutes(app, { db, redis: deps.rateLimitStore, metrics, now, feedQuotas: deps.feedQuotas, draining: () => draining });
  addContractRoutes(app, { schema, livePushIntervalMs: config.livePushIntervalMs });
  const graphql = mountGraphQL(app, {
    schema, admit, createContext: contextFor, cache: rest.cache, dataVersion: () => dataVersion.current,
    introspection: config.graphqlIntrospection, debugErrors: config.debugErrors, persistedQueryMaxBytes: cacheBytes.persistedQueries,
    onPersistedQueryEvent: cacheEvents('persisted_queries'), onDocumentEvent: cacheEvents('graphql_documents'), logger,
  });
  // The board is told the game markets from the market table, so it never spells them itself.
  const boardMarkets = MARKET_TYPES.map((type) => ({ type, label: MARKET_TYPE_TABLE[type].label, sides: MARKET_TYPE_TABLE[type].sides, line: MARKET_TYPE_TABLE[type].line }));
  addPagesAndFallbacks(app, { logger, today: () => localDateOf(now(), config.leagueTimeZone), boardMarkets });

  const corsOptions = corsOptionsOf(config.corsOrigins);
  const server = createHttpServer({
    metrics, logger, corsOptions,
    handle: (req, res) => {
      if (!live.sse.handle(req, res) && !rest.handler(req, res) && !mcp.handle(req, res)) app(req, res);
    },
  });
  const feed = createLiveFeed(bus, { intervalMs: config.livePushIntervalMs });
  const live = attachLive({ httpServer: server.httpServer, schema, db, feed, authenticator, charge, config, corsOptions, prefix: REST_PREFIX, now, metrics, logger });
  return {
    httpServer: server.httpServer,
    metrics,
    schema,
    callRoute: rest.handler.call,
    drain() {
      draining = true;
    },
    async close() {
      draining = true;
      stopKeyEvents();
      stopIngestMetrics();
      rest.close();
      dataVersion.close();
      await live.close();
      authenticator.close();
      feed.close();
      await graphql.close();
      await server.close();
    },
  };
}
