#!/usr/bin/env node
'use strict';
// REST throughput against a bare node:http baseline, measured in the same run.
//
//   npx tsc -p tsconfig.build.json && node bench/rest.js
//
// For /games (one full day with markets) and /markets/spread (when the route exists), it prints
// requests/second and p99 latency of the service and of a bare node:http server answering the same
// bytes, and their ratio. BENCH_DURATION (seconds, default 10), BENCH_CONNECTIONS (default 50),
// DATABASE_URL (PostgreSQL; default in-memory PGlite).
const http = require('node:http');
const path = require('node:path');
const autocannon = require('autocannon');

const dist = (p) => require(path.join(__dirname, '..', 'dist', p));
const { createApp } = dist('app');
const { loadConfig } = dist('config');
const { openDatabase, MEMORY } = dist('db/client');
const { createKey } = dist('db/account-store');
const { ingestDocuments } = dist('ingest/ingest');
const { seedReferenceData } = dist('ingest/seed');
const { readSources } = dist('ingest/sources');
const { createLocalBus } = dist('events/bus');
const { createLogger } = dist('logger');
const { ROUTES } = dist('rest/routes');

const FEED = path.join(__dirname, '..', 'test', 'fixtures', 'feeds', 'nba-2026-01-24-mixed-status.json');
const DAY = '2026-01-24';
const duration = Number(process.env.BENCH_DURATION || 10);
const connections = Number(process.env.BENCH_CONNECTIONS || 50);

const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
const close = (server) => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections(); });

function run(url, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, headers }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function main() {
  const db = await openDatabase({ dataDir: MEMORY, databaseUrl: process.env.DATABASE_URL || undefined });
  await seedReferenceData(db.prisma);
  await ingestDocuments(readSources(FEED), { db });
  // a budget no benchmark reaches: the rate limiter still runs on every request
  const unlimited = { RATE_LIMIT_STARTER: '1000000', RATE_LIMIT_PRO: '1000000', RATE_LIMIT_ELITE: '1000000' };
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: MEMORY, ...unlimited });
  const bus = createLocalBus();
  const app = createApp({ config, db, bus, logger: createLogger(config), now: () => new Date(`${DAY}T18:00:00Z`) });
  const port = await listen(app.httpServer);
  const { key } = await createKey(db.prisma, { plan: 'elite' });
  const headers = { authorization: `Bearer ${key}` };

  const targets = [`/api/v1/nba/odds/games?date=${DAY}`];
  if (ROUTES.some((r) => r.path === '/markets/spread')) targets.push(`/api/v1/nba/odds/markets/spread?date=${DAY}`);

  const rows = [];
  for (const target of targets) {
    const sample = await fetch(`http://127.0.0.1:${port}${target}`, { headers });
    const bytes = Buffer.from(await sample.arrayBuffer());
    if (sample.status !== 200) {
      console.error(`skipped ${target}: ${sample.status} ${bytes.toString().slice(0, 200)}`);
      continue;
    }
    const bare = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
      res.end(bytes);
    });
    const barePort = await listen(bare);
    const baseline = await run(`http://127.0.0.1:${barePort}/`, {});
    await close(bare);
    const service = await run(`http://127.0.0.1:${port}${target}`, headers);
    if (service.non2xx) throw new Error(`${target}: ${service.non2xx} non-2xx responses`);
    rows.push({
      route: target.replace(/\?.*/, ''),
      bytes: bytes.length,
      'req/s': Math.round(service.requests.average),
      'p99 ms': service.latency.p99,
      'bare req/s': Math.round(baseline.requests.average),
      'bare p99 ms': baseline.latency.p99,
      ratio: Number((service.requests.average / baseline.requests.average).toFixed(3)),
    });
  }
  console.log(`node ${process.version}, ${connections} connections, ${duration}s each, database ${db.kind}`);
  console.table(rows);
  await close(app.httpServer);
  await app.close();
  await bus.close();
  await db.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
