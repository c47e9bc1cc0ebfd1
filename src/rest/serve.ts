import type { IncomingMessage } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import type { Admission } from '../auth/admission';
import type { Auth } from '../auth/authenticate';
import type { DataVersion } from '../events/data-version';
import type { GraphQLContext } from '../graphql';
import type { CacheEvent } from './bounded-cache';
import { createResponseCache, dropExpired, type ResponseCache } from './response-cache';
import { createRestHandler, type RestHandler } from './router';

export interface RestServingDeps {
  schema: GraphQLSchema;
  admit(req: IncomingMessage): Promise<Admission>;
  createContext(auth: Auth): GraphQLContext;
  dataVersion: DataVersion;
  prefix: string;
  /** How long a cached answer is kept at most (REST_CACHE_MS); 0: no response cache. */
  cacheMs: number;
  /** Bytes the response cache holds at most. */
  cacheMaxBytes: number;
  /** Bytes the parsed URLs hold at most. */
  parsedUrlMaxBytes: number;
  onResponseCacheEvent(event: CacheEvent): void;
  onParsedUrlEvent(event: CacheEvent): void;
  /** Reports the response cache's size (metrics), when there is one. */
  watchCacheBytes(bytes: () => number, maxBytes: number): void;
  /** Logs unexpected errors (500); `req` is absent for an in-process call. */
  onError(error: unknown, req?: IncomingMessage): void;
}

export interface RestServing {
  /** The REST handler on node:http (answers a request it serves, false otherwise). */
  handler: RestHandler;
  /** The response cache (GraphQL over GET answers from it too); absent when REST_CACHE_MS is 0. */
  cache: ResponseCache | undefined;
  /** Stops warming and the sweep. */
  close(): void;
}

/** The REST handler with its response cache, warmed and swept as the data version advances. */
export function serveRest(deps: RestServingDeps): RestServing {
  const { dataVersion } = deps;
  const cache =
    deps.cacheMs > 0
      ? createResponseCache({
          maxAgeMs: deps.cacheMs,
          maxBytes: deps.cacheMaxBytes,
          onEvent: deps.onResponseCacheEvent,
        })
      : undefined;
  if (cache) deps.watchCacheBytes(() => cache.calculatedSize, deps.cacheMaxBytes);
  const handler = createRestHandler({
    schema: deps.schema,
    admit: deps.admit,
    createContext: deps.createContext,
    dataVersion: () => dataVersion.current,
    cache,
    prefix: deps.prefix,
    parsedUrlMaxBytes: deps.parsedUrlMaxBytes,
    onParsedUrlEvent: deps.onParsedUrlEvent,
    onError: deps.onError,
  });

  // Precompute per data version: when it advances, the answers polled most recently are computed
  // again at once (after a short pause that gathers a burst of ingests into one round).
  // Answers of past versions are dropped at once (nobody can ask for them again), and expired ones
  // on a slow sweep, so neither waits for LRU eviction.
  let warmTimer: NodeJS.Timeout | undefined;
  const stopWarming = dataVersion.onAdvance((version) => {
    if (cache) dropExpired(cache, version);
    clearTimeout(warmTimer);
    warmTimer = setTimeout(() => void handler.warm(), 10);
  });
  const sweepTimer = cache && setInterval(() => dropExpired(cache, dataVersion.current), 60_000).unref();
  return {
    handler,
    cache,
    close() {
      stopWarming();
      clearTimeout(warmTimer);
      clearInterval(sweepTimer);
    },
  };
}
