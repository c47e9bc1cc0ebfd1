import { once } from 'node:events';
import Redis from 'ioredis';
import { createApp } from './app';
import { loadConfig, type Config } from './config';
import { openDatabase, type Database } from './db/client';
import { startFeeds } from './ingest/feed-runner';
import { feedQuotas } from './ingest/feeds';
import { seedReferenceData } from './ingest/seed';
import { createLocalBus, createRedisBus } from './events/bus';
import { leaveProcess } from './exit';
import { storeDeltas } from './services/change-deltas';
import { createLogger } from './logger';
import { startWebhookWorker } from './webhooks/worker';

/**
 * Longest a shutdown may take after its drain (SHUTDOWN_DRAIN_MS): the connections' grace
 * (SHUTDOWN_GRACE_MS) plus the ingest in progress and closing the stores.
 */
export const SHUTDOWN_DEADLINE_MS = 15_000;

/**
 * `odds serve`: load config, open and migrate the store, create the app, listen, and on SIGTERM or
 * SIGINT shut down in order: answer /readyz 503 at once and keep serving for SHUTDOWN_DRAIN_MS (a
 * load balancer takes the process out of its pool meanwhile), stop accepting, finish requests and
 * the ingest in progress, close sockets (each live client told to reconnect), the bus and the
 * database. `stopped` then resolves with the exit code (0) for the CLI to leave with; a shutdown that
 * fails or outlives its drain plus SHUTDOWN_DEADLINE_MS leaves at once with 1.
 */
export async function serve(options: { simulate: boolean }): Promise<{ port: number; config: Config; db: Database; stopped: Promise<number> }> {
  const config = loadConfig();
  const logger = createLogger(config);
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, command: 'odds serve' });
  await seedReferenceData(db.prisma);
  const bus = config.redisUrl
    ? await createRedisBus(config.redisUrl, (error) => logger.warn({ err: error }, 'redis bus error'))
    : createLocalBus();
  // Rate-limit counters shared by every API process; commands fail fast while Redis is down, and
  // the limiter falls back to counting in this process.
  const rateLimitStore = config.redisUrl ? new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }) : undefined;
  rateLimitStore?.on('error', (error) => logger.warn({ err: error }, 'redis rate-limit store error'));
  // The polled sources' quotas (The Odds API's), seen by their pollers and shown by /readyz and /metrics of this process.
  const quotas = feedQuotas(config);
  const app = createApp({ config, db, bus, logger, rateLimitStore, feedQuotas: quotas });
  app.httpServer.listen(config.port, config.host);
  await once(app.httpServer, 'listening');
  const address = app.httpServer.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ port, host: config.host, database: db.kind, location: db.location, bus: config.redisUrl ? 'redis' : 'in-process' }, `listening on http://localhost:${port}`);
  // Only the ingesting process evaluates and sends webhooks; every process manages them (REST, GraphQL).
  const feeds = startFeeds({
    config,
    db,
    bus,
    logger,
    simulate: options.simulate,
    feedQuotas: quotas,
    afterCommit: (version) => storeDeltas(db.prisma, [version]),
    whileIngesting: () =>
      startWebhookWorker({ db, bus, logger, config: config.webhooks, onAttempt: (outcome) => app.metrics.webhookAttempts.inc({ outcome }) }),
  });

  let stopping = false;
  let stop!: (code: number) => void;
  const stopped = new Promise<number>((resolve) => (stop = resolve));
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down');
    // However the clients and the ingest behave, the process ends (docs/operations.md, "Shutdown").
    const deadline = config.shutdownDrainMs + SHUTDOWN_DEADLINE_MS;
    setTimeout(() => {
      logger.error({ afterMs: deadline }, 'shutdown did not finish in time, exiting');
      leaveProcess(1, 1_000);
    }, deadline).unref();
    // Not ready from now on; requests and live connections are still served while the balancer's
    // health check notices (deploy/haproxy.cfg: two failed checks a second apart).
    app.drain();
    if (config.shutdownDrainMs > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
    const closed = new Promise<void>((resolve) => app.httpServer.close(() => resolve()));
    app.httpServer.closeIdleConnections();
    await feeds.stop();
    await app.close();
    await closed;
    await bus.close();
    rateLimitStore?.disconnect();
    await db.close();
    logger.info('stopped');
    stop(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      shutdown(signal).catch((error) => {
        logger.error({ err: error }, 'shutdown failed');
        leaveProcess(1, 1_000);
      });
    });
  }
  return { port, config, db, stopped };
}
