import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

// The service's Prometheus metrics, in one registry per app (tests run several apps in a process).
// prom-client's default metrics include event-loop lag, heap and CPU.

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route'>;
  /** Response-cache look-ups by outcome (hit, miss). */
  cacheLookups: Counter<'outcome'>;
  /** Open live connections (Socket.IO and graphql-ws). */
  liveConnections: Gauge;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequests: new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by method, route and status', labelNames: ['method', 'route', 'status'], registers: [registry] }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method and route',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    cacheLookups: new Counter({ name: 'response_cache_lookups_total', help: 'Response cache look-ups, by outcome (hit, miss)', labelNames: ['outcome'], registers: [registry] }),
    liveConnections: new Gauge({ name: 'live_connections', help: 'Open live connections (Socket.IO and graphql-ws)', registers: [registry] }),
  };
}
