import { z } from 'zod';
import { DEFAULT_LIVE_CONNECTIONS } from './auth/connection-limit';
import { DEFAULT_RATE_LIMITS, type RateBucket } from './auth/rate-limit';
import type { Plan } from './auth/viewer';
import { SECRET_VARIABLES } from './redact';

/**
 * Every setting of the service, read from the environment once and validated. A bad value stops the
 * process with a message naming the variable; the README lists each one with its default.
 */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  readonly feedUrl: string | undefined;
  readonly feedKey: string | undefined;
  readonly feedKeyHeader: string;
  readonly feedIntervalMs: number;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly leagueTimeZone: string;
  readonly adminKey: string | undefined;
  readonly livePushIntervalMs: number;
  /**
   * SHUTDOWN_DRAIN_MS: on SIGTERM, how long `odds serve` keeps serving with /readyz answering 503
   * before it stops accepting, so a load balancer's health check takes it out of the pool first.
   */
  readonly shutdownDrainMs: number;
  /** SSE_HEARTBEAT_MS: period of the odds stream's heartbeat events (GET /odds/stream). */
  readonly sseHeartbeatMs: number;
  /** SSE_MAX_BUFFERED_BYTES: unsent bytes a live connection (SSE, Socket.IO, graphql-ws) may hold for a client that does not read before it is cut. */
  readonly sseMaxBufferedBytes: number;
  readonly simulatorSeed: number;
  readonly simulatorIntervalMs: number;
  /** SIMULATOR_CLOCK: `demo` starts `--simulate` mid-game at any hour, `real` plays the slate at its real hours. */
  readonly simulatorClock: 'demo' | 'real';
  readonly restCacheMs: number;
  /** Bytes each in-memory cache may hold, keys and bookkeeping included (docs/operations.md: memory). */
  readonly cacheBytes: Readonly<CacheBytes>;
  /** DEBUG_ERRORS: GraphQL errors carry stack traces (never in production use). */
  readonly debugErrors: boolean;
  /** GRAPHQL_INTROSPECTION: the schema answers introspection (GraphiQL, codegen, clients); on in every environment unless set false. */
  readonly graphqlIntrospection: boolean;
  /** Requests per minute per key, by plan, for the admin key, and per client address without a key (RATE_LIMIT_*). */
  readonly rateLimits: Readonly<Record<RateBucket, number>>;
  /** Open live connections per key and API process, by plan (LIVE_CONNECTIONS_*). */
  readonly liveConnections: Readonly<Record<Plan, number>>;
  /** CORS_ORIGINS: web origins whose pages may call the API from a browser; empty: CORS off. */
  readonly corsOrigins: readonly string[];
  /** Webhook delivery (docs/webhooks.md): WEBHOOK_* settings. */
  readonly webhooks: Readonly<WebhookConfig>;
  /** The Odds API v4 poller (docs/sources.md): ODDS_API_* settings; undefined without ODDS_API_KEY. */
  readonly oddsApi: Readonly<OddsApiConfig> | undefined;
  /** ESPN's box scores (docs/sources.md, "ESPN"): ESPN_* settings; undefined unless ESPN_POLL is set. */
  readonly espn: Readonly<EspnConfig> | undefined;
}

/** The ESPN summary poller (ESPN_*, docs/sources.md): box scores of final games, fetched politely. */
export interface EspnConfig {
  /** ESPN_BASE_URL: where ESPN's site API answers (tests point it at a local server). */
  baseUrl: string;
  /** ESPN_LEAGUES: league slugs polled (nba, wnba). */
  leagues: readonly string[];
  /** ESPN_INTERVAL_MS: how often the scoreboards of the last days are read for games gone final. */
  intervalMs: number;
  /** ESPN_REQUEST_GAP_MS: the least time between two requests (a polite rate: one a second by default). */
  requestGapMs: number;
  /** ESPN_CORRECTION_DAYS: how many days after a game its summary is fetched again (daily) for stat corrections. */
  correctionDays: number;
  /** ESPN_TIMEOUT_MS: how long a request may take. */
  timeoutMs: number;
}

/** The Odds API poller (ODDS_API_*, docs/sources.md). */
export interface OddsApiConfig {
  key: string;
  /** ODDS_API_BASE_URL: where the API answers (tests point it at a local server). */
  baseUrl: string;
  /** ODDS_API_SPORTS: sport keys polled. */
  sports: readonly string[];
  /** ODDS_API_REGIONS: bookmaker regions (us, us2, uk, eu, au); ignored when bookmakers are given. */
  regions: readonly string[];
  /** ODDS_API_MARKETS: market keys asked for (each costs one credit per region). */
  markets: readonly string[];
  /** ODDS_API_BOOKMAKERS: bookmaker keys instead of regions (every 10 cost like one region). */
  bookmakers: readonly string[];
  /** ODDS_API_ODDS_FORMAT: american or decimal (decimals are stored exactly as quoted). */
  oddsFormat: 'american' | 'decimal';
  /** ODDS_API_PREGAME_INTERVAL_MS: poll period of a sport none of whose games is being played. */
  pregameIntervalMs: number;
  /** ODDS_API_LIVE_INTERVAL_MS: poll period while one of its games is being played. */
  liveIntervalMs: number;
  /** ODDS_API_DAILY_BUDGET: credits the poller may spend per UTC day; it slows down to stay within. */
  dailyBudget: number;
  /** ODDS_API_TIMEOUT_MS: how long a request may take. */
  timeoutMs: number;
  /**
   * ODDS_API_PROP_MARKETS: player prop market keys asked of the event-odds endpoint, one request per
   * game on the props schedule (docs/player-props.md); empty (the default): props are not polled.
   */
  propMarkets: readonly string[];
  /** ODDS_API_PROPS_DAILY_BUDGET: the part of the daily budget props may spend (default half of it). */
  propsDailyBudget: number;
}

/** Byte bounds of the in-memory caches. */
export interface CacheBytes {
  /** REST_CACHE_MAX_BYTES: serialized REST and GraphQL-over-GET answers with their compressed forms. */
  responses: number;
  /** PARSED_URLS_MAX_BYTES: REST URLs with their parsed parameters. */
  parsedUrls: number;
  /** PERSISTED_QUERIES_MAX_BYTES: automatic persisted queries (registered by keyed requests only), and as much for the parsed GraphQL documents of GET and of Apollo (source text counted). */
  persistedQueries: number;
  /** LISTING_ROWS_MAX_BYTES: the rows of the cross-game listings read under the current data version (services/listing-memo.ts). */
  listingRows: number;
}

/** How the ingesting process evaluates and sends webhooks (WEBHOOK_*). */
export interface WebhookConfig {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: webhooks may target private and loopback addresses (tests, local demo). */
  allowPrivateTargets: boolean;
  /** WEBHOOK_RETRY_BASE_MS: the first retry waits up to this; each next one up to twice the last. */
  retryBaseMs: number;
  /** WEBHOOK_RETRY_MAX_MS: the longest wait between two attempts. */
  retryMaxMs: number;
  /** WEBHOOK_RETRY_WINDOW_MS: how long after an event is stored it is still tried (24 h). */
  retryWindowMs: number;
  /** WEBHOOK_TIMEOUT_MS: how long an attempt waits for the receiver's answer. */
  timeoutMs: number;
  /** WEBHOOK_POLL_MS: how often the sender looks for new changes and due deliveries. */
  pollMs: number;
}


const timeZone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'must be an IANA time zone such as America/New_York');

const url = (protocols: string[]) =>
  z.string().refine((value) => {
    try {
      return protocols.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, `must be a URL (${protocols.join(' or ')})`);

/** A comma-separated list of web origins (scheme://host[:port], nothing after), as browsers send them. */
const origins = z
  .string()
  .transform((value) => value.split(',').map((o) => o.trim()).filter(Boolean))
  .refine((list) => list.every((o) => /^https?:\/\/[^/?#\s]+$/.test(o) && URL.canParse(o)), 'must be origins such as https://app.example.com,http://localhost:5173 (scheme, host and port only)');

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** A comma-separated list of words matching `word`. */
const list = (word: RegExp, example: string) =>
  z
    .string()
    .transform((value) => value.split(',').map((w) => w.trim()).filter(Boolean))
    .refine((words) => words.every((w) => word.test(w)), `must be a comma-separated list of ${example}`);

const schema = z.object({
  PORT: int(0, 65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  REDIS_URL: url(['redis:', 'rediss:']).optional(),
  FEED_URL: url(['http:', 'https:', 'file:']).optional(),
  FEED_KEY: z.string().min(1).optional(),
  FEED_KEY_HEADER: z.string().min(1).default('x-api-key'),
  FEED_INTERVAL_MS: int(1000, 3_600_000).default(15_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LEAGUE_TIME_ZONE: timeZone.default('America/New_York'),
  ADMIN_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  LIVE_PUSH_INTERVAL_MS: int(100, 600_000).default(20_000),
  SHUTDOWN_DRAIN_MS: int(0, 60_000).default(0),
  SSE_HEARTBEAT_MS: int(100, 600_000).default(15_000),
  SSE_MAX_BUFFERED_BYTES: int(16_384, 1_073_741_824).default(8 * 1_048_576),
  SIMULATOR_SEED: int(0, 2 ** 31 - 1).default(42),
  SIMULATOR_INTERVAL_MS: int(200, 600_000).default(5_000),
  SIMULATOR_CLOCK: z.enum(['demo', 'real']).default('demo'),
  REST_CACHE_MS: int(0, 3_600_000).default(300_000),
  REST_CACHE_MAX_BYTES: int(65_536, 2 ** 40).default(32 * 1_048_576),
  PARSED_URLS_MAX_BYTES: int(65_536, 2 ** 40).default(4 * 1_048_576),
  PERSISTED_QUERIES_MAX_BYTES: int(65_536, 2 ** 40).default(4 * 1_048_576),
  LISTING_ROWS_MAX_BYTES: int(65_536, 2 ** 40).default(32 * 1_048_576),
  DEBUG_ERRORS: z.enum(['true', 'false', '1', '0']).default('false'),
  GRAPHQL_INTROSPECTION: z.enum(['true', 'false', '1', '0']).default('true'),
  RATE_LIMIT_STARTER: int(1, 1_000_000).default(DEFAULT_RATE_LIMITS.starter),
  RATE_LIMIT_PRO: int(1, 1_000_000).default(DEFAULT_RATE_LIMITS.pro),
  RATE_LIMIT_ELITE: int(1, 1_000_000).default(DEFAULT_RATE_LIMITS.elite),
  RATE_LIMIT_ADMIN: int(1, 1_000_000).default(DEFAULT_RATE_LIMITS.admin),
  RATE_LIMIT_ANONYMOUS: int(1, 1_000_000).default(DEFAULT_RATE_LIMITS.anonymous),
  LIVE_CONNECTIONS_STARTER: int(1, 1_000_000).default(DEFAULT_LIVE_CONNECTIONS.starter),
  LIVE_CONNECTIONS_PRO: int(1, 1_000_000).default(DEFAULT_LIVE_CONNECTIONS.pro),
  LIVE_CONNECTIONS_ELITE: int(1, 1_000_000).default(DEFAULT_LIVE_CONNECTIONS.elite),
  CORS_ORIGINS: origins.default([]),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false', '1', '0']).default('false'),
  WEBHOOK_RETRY_BASE_MS: int(10, 3_600_000).default(5_000),
  WEBHOOK_RETRY_MAX_MS: int(10, 86_400_000).default(3_600_000),
  WEBHOOK_RETRY_WINDOW_MS: int(1000, 7 * 86_400_000).default(86_400_000),
  WEBHOOK_TIMEOUT_MS: int(100, 120_000).default(10_000),
  WEBHOOK_POLL_MS: int(20, 60_000).default(1_000),
  ODDS_API_KEY: z.string().min(1).optional(),
  ESPN_POLL: z.enum(['0', '1', 'true', 'false']).optional(),
  ESPN_BASE_URL: url(['http:', 'https:']).default('https://site.api.espn.com'),
  ESPN_LEAGUES: list(/^(nba|wnba)$/, 'league slugs: nba,wnba').default(['nba', 'wnba']),
  ESPN_INTERVAL_MS: int(60_000, 86_400_000).default(900_000),
  ESPN_REQUEST_GAP_MS: int(200, 60_000).default(1_000),
  ESPN_CORRECTION_DAYS: int(0, 14).default(3),
  ESPN_TIMEOUT_MS: int(1000, 120_000).default(15_000),
  ODDS_API_BASE_URL: url(['http:', 'https:']).default('https://api.the-odds-api.com'),
  ODDS_API_SPORTS: list(/^[a-z0-9_]+$/, 'sport keys such as basketball_nba,basketball_wnba').default(['basketball_nba', 'basketball_wnba']),
  ODDS_API_REGIONS: list(/^[a-z0-9_]+$/, 'regions such as us,us2,uk,eu,au').default(['us']),
  ODDS_API_MARKETS: list(/^[a-z0-9_]+$/, 'market keys such as h2h,spreads,totals').default(['h2h', 'spreads', 'totals']),
  ODDS_API_BOOKMAKERS: list(/^[a-z0-9_]+$/, 'bookmaker keys such as pinnacle,betfair_ex_eu').default([]),
  ODDS_API_ODDS_FORMAT: z.enum(['american', 'decimal']).default('american'),
  ODDS_API_PREGAME_INTERVAL_MS: int(10_000, 86_400_000).default(900_000),
  ODDS_API_LIVE_INTERVAL_MS: int(5_000, 3_600_000).default(120_000),
  ODDS_API_DAILY_BUDGET: int(1, 10_000_000).default(600),
  ODDS_API_TIMEOUT_MS: int(1000, 120_000).default(15_000),
  ODDS_API_PROP_MARKETS: list(/^player_[a-z0-9_]+$/, 'player prop market keys such as player_points,player_rebounds').default([]),
  ODDS_API_PROPS_DAILY_BUDGET: int(0, 10_000_000).optional(),
});

export class ConfigError extends Error {}

/** Validates `env` (default process.env) into a frozen Config; throws ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as shells and .env files commonly leave them.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      // A secret is named, never shown (a bad DATABASE_URL would otherwise print its password).
      const shown = SECRET_VARIABLES.has(name) ? '' : `=${JSON.stringify(env[name])}`;
      return `${name}${shown}: ${issue.message}`;
    });
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    feedUrl: e.FEED_URL,
    feedKey: e.FEED_KEY,
    feedKeyHeader: e.FEED_KEY_HEADER,
    feedIntervalMs: e.FEED_INTERVAL_MS,
    logLevel: e.LOG_LEVEL,
    leagueTimeZone: e.LEAGUE_TIME_ZONE,
    adminKey: e.ADMIN_KEY,
    livePushIntervalMs: e.LIVE_PUSH_INTERVAL_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    sseHeartbeatMs: e.SSE_HEARTBEAT_MS,
    sseMaxBufferedBytes: e.SSE_MAX_BUFFERED_BYTES,
    simulatorSeed: e.SIMULATOR_SEED,
    simulatorIntervalMs: e.SIMULATOR_INTERVAL_MS,
    simulatorClock: e.SIMULATOR_CLOCK,
    restCacheMs: e.REST_CACHE_MS,
    cacheBytes: Object.freeze({ responses: e.REST_CACHE_MAX_BYTES, parsedUrls: e.PARSED_URLS_MAX_BYTES, persistedQueries: e.PERSISTED_QUERIES_MAX_BYTES, listingRows: e.LISTING_ROWS_MAX_BYTES }),
    debugErrors: e.DEBUG_ERRORS === 'true' || e.DEBUG_ERRORS === '1',
    graphqlIntrospection: e.GRAPHQL_INTROSPECTION === 'true' || e.GRAPHQL_INTROSPECTION === '1',
    liveConnections: Object.freeze({ starter: e.LIVE_CONNECTIONS_STARTER, pro: e.LIVE_CONNECTIONS_PRO, elite: e.LIVE_CONNECTIONS_ELITE }),
    corsOrigins: Object.freeze([...e.CORS_ORIGINS]),
    webhooks: Object.freeze({
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true' || e.WEBHOOK_ALLOW_PRIVATE_TARGETS === '1',
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      retryMaxMs: e.WEBHOOK_RETRY_MAX_MS,
      retryWindowMs: e.WEBHOOK_RETRY_WINDOW_MS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      pollMs: e.WEBHOOK_POLL_MS,
    }),
    oddsApi: e.ODDS_API_KEY
      ? Object.freeze({
          key: e.ODDS_API_KEY,
          baseUrl: e.ODDS_API_BASE_URL,
          sports: e.ODDS_API_SPORTS,
          regions: e.ODDS_API_REGIONS,
          markets: e.ODDS_API_MARKETS,
          bookmakers: e.ODDS_API_BOOKMAKERS,
          oddsFormat: e.ODDS_API_ODDS_FORMAT,
          pregameIntervalMs: e.ODDS_API_PREGAME_INTERVAL_MS,
          liveIntervalMs: e.ODDS_API_LIVE_INTERVAL_MS,
          dailyBudget: e.ODDS_API_DAILY_BUDGET,
          timeoutMs: e.ODDS_API_TIMEOUT_MS,
          propMarkets: e.ODDS_API_PROP_MARKETS,
          propsDailyBudget: Math.min(e.ODDS_API_DAILY_BUDGET, e.ODDS_API_PROPS_DAILY_BUDGET ?? Math.floor(e.ODDS_API_DAILY_BUDGET / 2)),
        })
      : undefined,
    espn: e.ESPN_POLL === '1' || e.ESPN_POLL === 'true'
      ? Object.freeze({ baseUrl: e.ESPN_BASE_URL, leagues: e.ESPN_LEAGUES, intervalMs: e.ESPN_INTERVAL_MS, requestGapMs: e.ESPN_REQUEST_GAP_MS, correctionDays: e.ESPN_CORRECTION_DAYS, timeoutMs: e.ESPN_TIMEOUT_MS })
      : undefined,
    rateLimits: Object.freeze({ starter: e.RATE_LIMIT_STARTER, pro: e.RATE_LIMIT_PRO, elite: e.RATE_LIMIT_ELITE, admin: e.RATE_LIMIT_ADMIN, anonymous: e.RATE_LIMIT_ANONYMOUS }),
  });
}
