import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

// The service's Prometheus metrics, in one registry per app (tests run several apps in a process),
// merged with the process's own: prom-client's default metrics (event-loop lag, heap, CPU) start
// monitors that are never stopped, so they are collected once per process, not once per app.

export interface Metrics {
  /** This app's metrics. */
  registry: Registry;
  /** What /metrics serves: this app's metrics and the process's. */
  exposition(): Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route'>;
  /** Response-cache look-ups by outcome (hit, miss). */
  cacheLookups: Counter<'outcome'>;
  /** What each in-memory cache does: hit, miss, evict (left for room), expire (too old, or of a past data version). */
  cacheEvents: Counter<'cache' | 'event'>;
  /** Reports `bytes()` as cache_bytes{cache=name} (and `maxBytes` as cache_max_bytes) at every scrape. */
  watchCacheBytes(name: string, bytes: () => number, maxBytes: number): void;
  /** Open live connections (Socket.IO and graphql-ws). */
  liveConnections: Gauge;
  /** Seconds from a document's fetch to its committed changes reaching this process (the bus event). */
  ingestLag: Histogram;
  /** Quotes that moved, appeared or were withdrawn, as ingests commit them (rate(): quotes per second). */
  quotesChanged: Counter;
  /** Seconds from a document's fetch to its delta leaving for live clients, by transport. */
  pushLatency: Histogram<'transport'>;
  /** Odds streams (SSE) cut because their client stopped reading. */
  slowClientsCut: Counter;
  /** Webhook delivery attempts by outcome: delivered, retry (failed, tried again), failed (given up). */
  webhookAttempts: Counter<'outcome'>;
}

/** Seconds, from a few milliseconds to minutes: data ages (fetch to commit, fetch to push). */
const AGE_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

let processRegistry: Registry | undefined;

/** The process's default metrics, collected from the first call on. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  const cacheSizes = new Map<string, () => number>();
  const cacheBytes = new Gauge({
    name: 'cache_bytes',
    help: 'Bytes an in-memory cache holds (keys, values and bookkeeping, as its bound counts them), by cache',
    labelNames: ['cache'],
    registers: [registry],
    collect() {
      for (const [cache, bytes] of cacheSizes) this.set({ cache }, bytes());
    },
  });
  const cacheMaxBytes = new Gauge({ name: 'cache_max_bytes', help: 'Bound of an in-memory cache in bytes (its configured limit), by cache', labelNames: ['cache'], registers: [registry] });
  return {
    registry,
    exposition: () => Registry.merge([processMetrics(), registry]),
    httpRequests: new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by method, route and status', labelNames: ['method', 'route', 'status'], registers: [registry] }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method and route',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    cacheLookups: new Counter({ name: 'response_cache_lookups_total', help: 'Response cache look-ups, by outcome (hit, miss)', labelNames: ['outcome'], registers: [registry] }),
    cacheEvents: new Counter({
      name: 'cache_events_total',
      help: 'What each in-memory cache did, by cache and event: hit, miss, evict (dropped for room), expire (too old or of a past data version)',
      labelNames: ['cache', 'event'],
      registers: [registry],
    }),
    watchCacheBytes(name, bytes, maxBytes) {
      cacheSizes.set(name, bytes);
      cacheMaxBytes.set({ cache: name }, maxBytes);
      cacheBytes.set({ cache: name }, bytes());
    },
    liveConnections: new Gauge({ name: 'live_connections', help: 'Open live connections (Socket.IO and graphql-ws)', registers: [registry] }),
    ingestLag: new Histogram({
      name: 'ingest_lag_seconds',
      help: "Time from a feed document's fetch to its committed changes reaching this process: the ingest's duration in the ingesting process, plus the Redis hop in the others",
      buckets: AGE_BUCKETS,
      registers: [registry],
    }),
    quotesChanged: new Counter({ name: 'ingest_quotes_changed_total', help: 'Quotes moved, added or withdrawn by committed ingests (rate() gives quotes per second)', registers: [registry] }),
    pushLatency: new Histogram({
      name: 'live_push_latency_seconds',
      help: "Time from a feed document's fetch to its delta leaving for live clients, by transport",
      labelNames: ['transport'],
      buckets: AGE_BUCKETS,
      registers: [registry],
    }),
    slowClientsCut: new Counter({
      name: 'sse_slow_clients_cut_total',
      help: 'Odds streams (SSE) cut because their client let SSE_MAX_BUFFERED_BYTES pile up unread (it resumes with Last-Event-ID)',
      registers: [registry],
    }),
    webhookAttempts: new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts of this process, by outcome: delivered, retry (failed, tried again later), failed (given up after 24 h)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
}
