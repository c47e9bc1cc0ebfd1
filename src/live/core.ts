import { randomUUID } from 'node:crypto';
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { ConnectionLimiter } from '../auth/connection-limit';
import { LiveAuthError, verifyLiveKey, type KeyWatch } from '../auth/live-key';
import type { KeyLookup, Viewer } from '../auth/viewer';
import { AppError, ERRORS, isDatabaseUnavailable } from '../errors';
import { attachLiveFeed, type LiveFeed } from '../events/live-feed';
import { createContext, type GraphQLContext } from '../graphql';
import { liveStream, type LiveStream } from '../services/live-streams';
import type { LiveFilter } from './filter';

// The live core: what every push channel (graphql-ws, Socket.IO, SSE) enforces, in one place, so that
// none of them can hold less. Each protocol is an adapter (src/live/use/) that calls these steps at
// its own moments (a handshake, an operation, a write) and says a refusal in its own terms (a close
// code, a connect_error, an HTTP status). docs/live-protocol.md ("Limits") lists them for clients.

/**
 * Largest frame a socket may send, in bytes, before and after authentication: `ws` refuses a longer
 * one from its header (close 1009) without reading or allocating its body. Subscribe payloads and
 * GraphQL documents are a few kB; HTTP's /graphql body limit is 100 kB.
 */
export const MAX_FRAME_BYTES = 64 * 1024;

/** Operations (subscriptions and queries in flight) one graphql-ws connection may hold at once. */
export const MAX_OPERATIONS_PER_CONNECTION = 20;

/** How often the unsent bytes of every socket are looked at (SSE checks at each write). */
export const SLOW_CONSUMER_SWEEP_MS = 500;

/** What a client cut for not reading is told (SSE event, Socket.IO live_odds, graphql-ws close reason). */
export const SLOW_CONSUMER_MESSAGE = 'disconnected: the client did not read its pushes (too many bytes waiting); read faster or subscribe to less, then reconnect';
/** graphql-ws / WebSocket close code of that cut (4000-4999 are the application's). */
export const CLOSE_SLOW_CONSUMER = 4408;

/** What every protocol adapter is built from (each adds its own: the HTTP server, a path, CORS...). */
export interface LiveDeps {
  schema: GraphQLSchema;
  db: Parameters<typeof createContext>[0]['db'];
  feed: LiveFeed;
  /** Key checks, connection slots, rate budget, unsent-bytes cap and error masking (createLiveCore). */
  core: LiveCore;
  timeZone: string;
  now?: () => Date;
  /** Called as each delta leaves for clients, with the feed time of its data (push latency metric). */
  onPush?: (seenAt: Date) => void;
}

/**
 * The GraphQL context of the subscriptions and operations a live connection of `viewer` runs: the
 * request context of HTTP, with the live feed its subscription resolvers read, and `onPush` (the push
 * latency metric of the adapter, when it asks).
 */
export function liveContext(deps: Pick<LiveDeps, 'db' | 'feed' | 'timeZone' | 'now'>, viewer: Viewer, onPush?: (seenAt: Date) => void): GraphQLContext {
  return attachLiveFeed(createContext({ auth: { kind: 'viewer', viewer }, db: deps.db, now: deps.now?.() ?? new Date(), timeZone: deps.timeZone }), deps.feed, onPush);
}

/**
 * The delta stream of `filter` (src/services/live-streams.ts, the one Subscription.liveOddsChanges
 * reads): its id (`global`) and the replay of a reconnect from the stored change log.
 */
export function filterStream(deps: Pick<LiveDeps, 'db' | 'feed'>, filter: LiveFilter): LiveStream {
  return liveStream(deps.feed, deps.db.prisma, { gameId: filter.game_id ?? null, marketType: filter.market_type ?? null, bookId: filter.book_id ?? null });
}

/** What the core needs from the app. */
export interface LiveCoreDeps {
  keyLookup: KeyLookup;
  keyWatch: KeyWatch;
  /** Caps the live connections of a key by plan (every transport shares one). */
  connections: ConnectionLimiter;
  /**
   * Counts one operation of `viewer` in its plan's request budget: the very budget of HTTP (Redis when
   * configured), so what a key spends on a socket shows on HTTP and the other way round.
   */
  charge?: (viewer: Viewer) => Promise<{ headers: Record<string, string>; refused?: AppError }>;
  /** Unsent bytes a connection may hold before it is cut (SSE_MAX_BUFFERED_BYTES). */
  maxBufferedBytes: number;
  /** A connection was cut for not reading (metrics). */
  onSlowConsumer?: (transport: string) => void;
  /** An error hidden from the client behind "internal error (request id ...)" (logs). */
  onError?: (error: unknown, requestId: string) => void;
  now?: () => Date;
}

/** A connection the core watches for unsent bytes. */
export interface TrackedConnection {
  transport: string;
  /** Bytes written for the client and not yet taken by it. */
  buffered(): number;
  /** Ends the connection at once, telling the client `reason` as far as the transport can. */
  cut(reason: string): void;
}

/** Where a graphql-ws client was refused for its key: 4401 key, 4403 account or plan, 4429 too many connections. */
export const closeCodeOf = (error: LiveAuthError) => (error.status === 401 ? 4401 : error.status === 429 ? 4429 : 4403);

export function createLiveCore(deps: LiveCoreDeps) {
  const tracked = new Set<TrackedConnection>();
  const sweep = setInterval(() => {
    for (const connection of tracked) {
      if (connection.buffered() <= deps.maxBufferedBytes) continue;
      tracked.delete(connection);
      deps.onSlowConsumer?.(connection.transport);
      connection.cut(SLOW_CONSUMER_MESSAGE);
    }
  }, SLOW_CONSUMER_SWEEP_MS);
  sweep.unref();

  /** The masked error of an unexpected failure: what failed stays in the logs. */
  const internal = (error: unknown, base: GraphQLError): GraphQLFormattedError => {
    if (isDatabaseUnavailable(error)) return { message: ERRORS.UNAVAILABLE.message, ...(base.path && { path: base.path }), extensions: { code: ERRORS.UNAVAILABLE.graphql } };
    // As on HTTP: the client gets an id to quote, the logs have the error under it.
    const requestId = randomUUID();
    deps.onError?.(error, requestId);
    return { message: `${ERRORS.INTERNAL.message} (request id ${requestId})`, ...(base.path && { path: base.path }), extensions: { code: ERRORS.INTERNAL.graphql, requestId } };
  };

  return {
    maxBufferedBytes: deps.maxBufferedBytes,

    /**
     * Checks a key for live odds.
     * @throws LiveAuthError saying which check failed (missing, invalid, revoked, expired, plan)
     */
    authenticate(key: unknown): Promise<Viewer> {
      return verifyLiveKey(deps.keyLookup, key, deps.now?.() ?? new Date());
    },

    /**
     * Takes a connection slot of `viewer`'s key and watches the key: `onRevoked` is called once when
     * it stops passing. Returns what frees both (idempotent).
     * @throws LiveAuthError 'connections' when the key holds its plan's number of connections
     */
    hold(viewer: Viewer, key: string, onRevoked: (error: LiveAuthError) => void): () => void {
      const release = deps.connections.acquire(viewer);
      const unwatch = deps.keyWatch.watch(key.trim(), onRevoked);
      return () => {
        unwatch();
        release();
      };
    },

    /** Charges one operation to the key's plan budget; the refusal (429, RATE_LIMITED) or null. */
    async charge(viewer: Viewer): Promise<AppError | null> {
      if (!deps.charge) return null;
      return (await deps.charge(viewer)).refused ?? null;
    },

    /** The same, with the X-RateLimit headers (SSE answers them). */
    chargeWithHeaders(viewer: Viewer): Promise<{ headers: Record<string, string>; refused?: AppError }> {
      return deps.charge ? deps.charge(viewer) : Promise.resolve({ headers: {} });
    },

    /** Whether `bytes` unsent are more than a connection may hold (SSE checks at each write). */
    overBuffer(bytes: number): boolean {
      return bytes > deps.maxBufferedBytes;
    },

    /** Counts a cut made by the transport itself (SSE, at a write). */
    cutSlow(transport: string): void {
      deps.onSlowConsumer?.(transport);
    },

    /** Watches `connection`'s unsent bytes until the returned function is called. */
    track(connection: TrackedConnection): () => void {
      tracked.add(connection);
      return () => tracked.delete(connection);
    },

    /**
     * GraphQL errors as HTTP's /graphql shows them: an AppError by its message and catalogue code; a
     * refusal of the document (parse, validation, cost) by its message and code; anything else masked
     * as "internal error" (or "unavailable" when the database is down). Never a stack or a file path.
     */
    maskErrors(errors: readonly GraphQLError[]): GraphQLFormattedError[] {
      return errors.map((error) => {
        let original: unknown = error.originalError;
        while (original instanceof GraphQLError && original.originalError) original = original.originalError;
        if (original instanceof AppError) {
          return { message: original.message, ...(error.locations && { locations: error.locations }), ...(error.path && { path: error.path }), extensions: { code: ERRORS[original.code].graphql } };
        }
        if (original !== undefined && !(original instanceof GraphQLError)) return internal(original, error);
        const code =
          typeof error.extensions.code === 'string'
            ? error.extensions.code
            : error.path
              ? ERRORS.INTERNAL.graphql
              : error.message.startsWith('Syntax Error')
                ? 'GRAPHQL_PARSE_FAILED'
                : 'GRAPHQL_VALIDATION_FAILED';
        if (code === ERRORS.INTERNAL.graphql) return internal(error, error);
        const { stacktrace: _stacktrace, ...extensions } = error.extensions;
        return { message: error.message, ...(error.locations && { locations: error.locations }), extensions: { ...extensions, code } };
      });
    },

    close(): void {
      clearInterval(sweep);
      tracked.clear();
    },
  };
}

export type LiveCore = ReturnType<typeof createLiveCore>;

/** A refusal of the key check as an AppError (SSE answers with its status and the catalogue code). */
export function appErrorOf(error: LiveAuthError, missingKeyMessage?: string): AppError {
  if (error.status === 429) return new AppError('RATE_LIMITED', error.message);
  const code = error.status === 401 ? 'UNAUTHENTICATED' : error.reason === 'expired' ? 'SUBSCRIPTION_EXPIRED' : 'PLAN_REQUIRED';
  return new AppError(code, error.reason === 'missing' && missingKeyMessage ? missingKeyMessage : error.message);
}
