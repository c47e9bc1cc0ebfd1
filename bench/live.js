#!/usr/bin/env node
'use strict';
// Live delta latency, bytes and memory with many Socket.IO clients in separate processes, against a
// bare Socket.IO broadcast of the same payload measured in the same run.
//
//   npm run build && node bench/live.js
//
// The server runs in a child process (so its RSS is its own); the clients run in BENCH_WORKERS
// (default 4) other child processes; this process only coordinates. For each of BENCH_INGESTS
// ingests (a new spread line of one live game), it measures the time from the bus publication of
// the ingest's change (after its commit) to the moment the last of BENCH_CLIENTS clients holds an
// `odds_change` carrying the new line; then, with the same number of clients on a bare Socket.IO
// server in the same process as the service, the time from `nsp.emit` of that same delta to the
// last client. It prints p50 and p99 of both, their ratio, bytes per delta and per snapshot, and the
// server's idle memory per connection (RSS and heap after GC, before and after the clients
// connect). BENCH_CLIENTS (default 1000), BENCH_INGESTS (default 20), BENCH_GAMES (live games,
// default 4), DATABASE_URL (PostgreSQL; default in-memory PGlite).
const { fork } = require('node:child_process');
const http = require('node:http');
const path = require('node:path');

const CLIENTS = Number(process.env.BENCH_CLIENTS || 1000);
const INGESTS = Number(process.env.BENCH_INGESTS || 20);
const GAMES = Number(process.env.BENCH_GAMES || 4);
const WORKERS = Math.max(4, Number(process.env.BENCH_WORKERS || 4));
const BOOKS = [15, 68, 69, 71];
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const dist = (p) => require(path.join(__dirname, '..', 'dist', p));

function liveGame(id, home, seen) {
  const markets = {};
  for (const book of BOOKS) {
    const o = (side, odds, value, team) => ({ book_id: book, side, odds, ...(value !== null && { value }), ...(team && { team_id: team }), is_live: true });
    markets[book] = {
      event: {
        spread: [o('home', -110, home, 2000 + id), o('away', -110, -home, 1000 + id)],
        moneyline: [o('home', -150, null, 2000 + id), o('away', 130, null, 1000 + id)],
        total: [o('over', -110, 220.5, null), o('under', -110, 220.5, null)],
      },
    };
  }
  return {
    id,
    league_id: 4,
    status: 'inprogress',
    real_status: 'inprogress',
    start_time: '2026-01-24T00:30:00.000Z',
    away_team_id: 1000 + id,
    home_team_id: 2000 + id,
    teams: [
      { id: 1000 + id, full_name: `Away ${id}`, abbr: `A${id}` },
      { id: 2000 + id, full_name: `Home ${id}`, abbr: `H${id}` },
    ],
    boxscore: { clock: '05:00', period: 2, total_home_points: 50, total_away_points: 48 },
    markets,
    _seen: seen,
  };
}

function capture(seen, homeLine) {
  const games = Array.from({ length: GAMES }, (_, i) => liveGame(i + 1, i === 0 ? homeLine : -3, seen));
  return { name: `bench@${seen}`, fetchedAt: new Date(seen), body: { games } };
}

// ---------------------------------------------------------------- server (child process)
async function server() {
  const { Server } = require('socket.io');
  const { createApp } = dist('app');
  const { loadConfig } = dist('config');
  const { openDatabase, MEMORY } = dist('db/client');
  const { createKey } = dist('db/account-store');
  const { ingestDocuments } = dist('ingest/ingest');
  const { storeDeltas } = dist('services/change-deltas');
  const { seedReferenceData } = dist('ingest/seed');
  const { createLocalBus } = dist('events/bus');
  const { createLogger } = dist('logger');

  const db = await openDatabase({ dataDir: MEMORY, databaseUrl: process.env.DATABASE_URL || undefined });
  await seedReferenceData(db.prisma);
  // No interval snapshot during the run: the deltas are what is measured.
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: 'memory://', LIVE_PUSH_INTERVAL_MS: '600000' });
  // The bus as the service has it, with the moment each change is published (after its commit).
  const local = createLocalBus();
  let publishedAt = 0;
  const bus = { ...local, publish: (topic, event) => ((publishedAt = now()), local.publish(topic, event)) };
  const app = createApp({ config, db, bus, logger: createLogger(config) });
  let clock = Date.parse('2026-01-24T01:00:00.000Z');
  const nextSeen = () => new Date((clock += 60_000)).toISOString();
  // As the service ingests: each change's delta decided once, before the bus hears of it.
  const afterCommit = (version) => storeDeltas(db.prisma, [version]);
  await ingestDocuments([capture(nextSeen(), -3)], { db, bus, afterCommit });
  const { key } = await createKey(db.prisma, { plan: 'pro', expiresAt: null });
  await new Promise((r) => app.httpServer.listen(0, '127.0.0.1', r));

  // The baseline: a bare Socket.IO server broadcasting a payload it already has.
  const bareHttp = http.createServer();
  const bare = new Server(bareHttp, { serveClient: false });
  const bareNsp = bare.of('/bare');
  await new Promise((r) => bareHttp.listen(0, '127.0.0.1', r));

  const memory = async () => {
    for (let i = 0; i < 3; i++) {
      global.gc();
      await sleep(200);
    }
    const m = process.memoryUsage();
    return { rss: m.rss, heap: m.heapUsed + m.external };
  };
  process.on('message', async (msg) => {
    if (msg.type === 'memory') {
      process.send({ type: 'memory', ...(await memory()) });
    } else if (msg.type === 'ingest') {
      await ingestDocuments([capture(nextSeen(), msg.line)], { db, bus, afterCommit });
      process.send({ type: 'ingested', t0: publishedAt });
    } else if (msg.type === 'broadcast') {
      const t0 = now();
      bareNsp.emit('odds_change', msg.payload);
      process.send({ type: 'broadcasted', t0 });
    } else if (msg.type === 'stop') {
      bare.close();
      await app.close();
      app.httpServer.closeAllConnections();
      app.httpServer.close();
      await db.close();
      process.exit(0);
    }
  });
  process.send({ type: 'ready', port: app.httpServer.address().port, barePort: bareHttp.address().port, key });
}

// ---------------------------------------------------------------- client worker (child process)
// Holds its share of sockets; for each wanted line, reports when the last of them got an
// odds_change carrying it (and the payload, once).
function worker() {
  const { io } = require('socket.io-client');
  const [url, n, auth] = [process.argv[3], Number(process.argv[4]), JSON.parse(process.argv[5])];
  let wanted = null;
  let seen = new Set();
  let latest = 0;
  let snapshots = 0;
  let snapshotBytes = 0;
  const sockets = [];
  process.on('message', (m) => {
    if (m.type === 'want') {
      wanted = m.line;
      seen = new Set();
      latest = 0;
    } else if (m.type === 'stop') {
      for (const s of sockets) s.close();
      process.exit(0);
    }
  });
  (async () => {
    for (let i = 0; i < n; i++) {
      const s = io(url, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
      // Ready when every socket holds its first snapshot (service) or is connected (bare).
      const ready = () => {
        if (ready.done) return;
        ready.done = true;
        if (++snapshots === n) process.send({ type: 'snapshots', bytes: snapshotBytes });
      };
      s.on('live_odds', (p) => {
        snapshotBytes = Buffer.byteLength(JSON.stringify(p));
        ready();
      });
      s.on('connect', () => {
        if (!auth.apiKey) ready();
      });
      s.on('connect_error', (e) => console.error(`client ${i}: ${e.message}`));
      s.on('odds_change', (d) => {
        if (wanted === null || seen.has(i)) return;
        const home = d.quotes.find((q) => q.game_id === 1 && q.market_type === 'spread' && q.side === 'home' && q.book_id === BOOKS[0]);
        if (!home || home.point !== wanted) return;
        seen.add(i);
        latest = Math.max(latest, now());
        if (seen.size === n) process.send({ type: 'got', line: wanted, last: latest, payload: d, bytes: Buffer.byteLength(JSON.stringify(d)) });
      });
      sockets.push(s);
      // A short pause every 50 connections keeps the handshakes from timing out on small machines.
      if (i % 50 === 49) await sleep(20);
    }
  })();
}

// ---------------------------------------------------------------- coordinator (this process)
const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return +sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)].toFixed(1);
};

function channel(child) {
  const inbox = [];
  const waiters = [];
  child.on('message', (m) => {
    const i = waiters.findIndex((w) => w.type === m.type);
    if (i >= 0) waiters.splice(i, 1)[0].resolve(m);
    else inbox.push(m);
  });
  const receive = (type, ms = 180_000) =>
    new Promise((resolve, reject) => {
      const i = inbox.findIndex((m) => m.type === type);
      if (i >= 0) return resolve(inbox.splice(i, 1)[0]);
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${type}`)), ms);
      waiters.push({ type, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  return { receive, ask: (msg, reply) => (child.send(msg), receive(reply)) };
}

function startWorkers(url, auth) {
  const per = Math.ceil(CLIENTS / WORKERS);
  return Array.from({ length: WORKERS }, () => {
    const child = fork(__filename, ['worker', url, String(per), JSON.stringify(auth)], { stdio: 'inherit' });
    return { child, ...channel(child) };
  });
}

async function main() {
  const srv = fork(__filename, ['server'], { execArgv: ['--expose-gc'], stdio: 'inherit' });
  const server = channel(srv);
  const { port, barePort, key } = await server.receive('ready');
  const before = await server.ask({ type: 'memory' }, 'memory');

  const service = startWorkers(`http://127.0.0.1:${port}/live-odds`, { apiKey: key });
  const snapshotBytes = (await Promise.all(service.map((w) => w.receive('snapshots'))))[0].bytes;
  await sleep(1000);
  const after = await server.ask({ type: 'memory' }, 'memory');

  const live = [];
  let delta = null;
  for (let n = 0; n < INGESTS; n++) {
    const line = -4.5 - n; // a new line each time: an unchanged one pushes nothing
    for (const w of service) w.child.send({ type: 'want', line });
    const got = Promise.all(service.map((w) => w.receive('got', 30_000)));
    const { t0 } = await server.ask({ type: 'ingest', line }, 'ingested');
    const reports = await got;
    live.push(Math.max(...reports.map((r) => r.last)) - t0);
    delta = reports[0];
    await sleep(100);
  }
  for (const w of service) w.child.send({ type: 'stop' });

  // Baseline: as many clients on a bare namespace, the same delta broadcast.
  const bareWorkers = startWorkers(`http://127.0.0.1:${barePort}/bare`, {});
  await Promise.all(bareWorkers.map((w) => w.receive('snapshots')));
  await sleep(1000);
  const bare = [];
  const line = delta.payload.quotes.find((q) => q.game_id === 1 && q.market_type === 'spread' && q.side === 'home' && q.book_id === BOOKS[0]).point;
  for (let n = 0; n < INGESTS; n++) {
    for (const w of bareWorkers) w.child.send({ type: 'want', line });
    const got = Promise.all(bareWorkers.map((w) => w.receive('got', 30_000)));
    const { t0 } = await server.ask({ type: 'broadcast', payload: delta.payload }, 'broadcasted');
    bare.push(Math.max(...(await got).map((r) => r.last)) - t0);
    await sleep(100);
  }
  for (const w of bareWorkers) w.child.send({ type: 'stop' });
  srv.send({ type: 'stop' });

  const perSocket = (a, b) => ((b - a) / CLIENTS / 1024).toFixed(1);
  console.log(`live deltas: ${CLIENTS} Socket.IO clients on /live-odds in ${WORKERS} processes, ${GAMES} live games x ${BOOKS.length} books, ${INGESTS} ingests, node ${process.version}`);
  if (process.env.BENCH_SHOW_DELTA) console.log(JSON.stringify(delta.payload));
  console.log(`  bytes: ${delta.bytes} per delta (odds_change), ${(snapshotBytes / 1024).toFixed(1)} KiB per snapshot (live_odds)`);
  console.log(`  publish -> last client holds the delta   p50 ${pct(live, 50)} ms   p99 ${pct(live, 99)} ms`);
  console.log(`  bare broadcast of the same delta          p50 ${pct(bare, 50)} ms   p99 ${pct(bare, 99)} ms`);
  // RSS after GC swings by megabytes as the allocator returns pages (it printed negative figures);
  // the V8 heap plus external buffers is what the connections hold.
  console.log(`  idle memory per connection (server, V8 heap + external after GC): ${perSocket(before.heap, after.heap)} KiB (RSS ${perSocket(before.rss, after.rss)} KiB, noisy)`);
  console.log(`live: p99 ${(pct(live, 99) / Math.max(0.1, pct(bare, 99))).toFixed(2)}x a bare broadcast of the same bytes (p50 ${(pct(live, 50) / Math.max(0.1, pct(bare, 50))).toFixed(2)}x)`);
  process.exit(0);
}

const role = process.argv[2];
(role === 'server' ? server : role === 'worker' ? async () => worker() : main)().catch((error) => {
  console.error(error);
  process.exit(1);
});
