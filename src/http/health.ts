import type { Express } from 'express';
import type Redis from 'ioredis';
import type { Database } from '../db/client';
import { probeDatabase } from '../db/health';
import type { Metrics } from '../metrics';

export interface HealthDeps {
  db: Database;
  /** The Redis client readiness pings, when REDIS_URL is set. */
  redis?: Redis | undefined;
  metrics: Metrics;
  now: () => Date;
  /** The quotas of the sources polled in this process, by format name (src/ingest/feeds feedQuotas). */
  feedQuotas?: ReadonlyMap<string, { snapshot(): unknown }> | undefined;
  /** True once the process is shutting down: /readyz answers 503 so a load balancer stops sending it requests. */
  draining?: () => boolean;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** /healthz, /readyz and /metrics on `app`. */
export function addHealthRoutes(app: Express, deps: HealthDeps): void {
  // Liveness: the process answers. Touches nothing, so a slow database never gets it restarted.
  app.get('/healthz', (_req, res) => {
    res.json({ success: true, data: { status: 'ok' } });
  });
  // Readiness: the database answers (and Redis, when configured); reports how fresh the data is.
  app.get('/readyz', async (_req, res) => {
    // A process shutting down is not ready, whatever its stores say: the balancer takes it out of
    // its pool while it still finishes what it was given (docs/operations.md, "Shutdown").
    if (deps.draining?.()) {
      res.status(503).json({ success: false, data: { status: 'draining' } });
      return;
    }
    const [database, redis] = await Promise.allSettled([
      probeDatabase(deps.db.prisma),
      deps.redis ? withTimeout(deps.redis.ping(), 1000) : Promise.resolve('not configured'),
    ]);
    const ready = database.status === 'fulfilled' && redis.status === 'fulfilled';
    const latest = database.status === 'fulfilled' ? database.value.latestPriceAt : null;
    res.status(ready ? 200 : 503).json({
      success: ready,
      data: {
        status: ready ? 'ready' : 'not ready',
        database: { kind: deps.db.kind, ok: database.status === 'fulfilled' },
        redis: deps.redis ? { ok: redis.status === 'fulfilled' } : { ok: true, configured: false },
        feed: { latest_price_at: latest?.toISOString() ?? null, age_seconds: latest ? Math.round((deps.now().getTime() - latest.getTime()) / 1000) : null },
        // The quota is news, not a readiness condition: a spent budget slows polling, it does not stop serving.
        ...(deps.feedQuotas?.size && { sources: Object.fromEntries([...deps.feedQuotas].map(([name, quota]) => [name, quota.snapshot()])) }),
      },
    });
  });
  app.get('/metrics', async (_req, res) => {
    const exposition = deps.metrics.exposition();
    res.type(exposition.contentType).send(await exposition.metrics());
  });
}
