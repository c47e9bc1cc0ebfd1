#!/usr/bin/env node
'use strict';
// Live push latency and memory with many Socket.IO clients on one process, against a bare Socket.IO
// broadcast of the same payload measured in the same run.
//
//   npx tsc -p tsconfig.build.json && node bench/live.js
//
// The server runs in a child process (so its RSS is its own); this process holds the clients. For
// each of BENCH_INGESTS ingests (a price change of one live game), it measures the time from the
// start of the ingest to the moment the last of BENCH_CLIENTS clients has the change, then the
// time from a bare `nsp.emit` of the same payload to the last client receiving it. It prints p50 and
// p99 of both, their ratio, and the server's RSS growth per connection. BENCH_CLIENTS (default
// 1000), BENCH_INGESTS (default 20), BENCH_GAMES (live games, default 4), DATABASE_URL (PostgreSQL;
// default in-memory PGlite).
const { fork } = require('node:child_process');
const http = require('node:http');
const path = require('node:path');

const CLIENTS = Number(process.env.BENCH_CLIENTS || 1000);
const INGESTS = Number(process.env.BENCH_INGESTS || 20);
const GAMES = Number(process.env.BENCH_GAMES || 4);
const BOOKS = [15, 68, 69, 71];

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
  const { seedReferenceData } = dist('ingest/seed');
  const { createLocalBus } = dist('events/bus');
  const { createLogger } = dist('logger');

  const db = await openDatabase({ dataDir: MEMORY, databaseUrl: process.env.DATABASE_URL || undefined });
  await seedReferenceData(db.prisma);
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: 'memory://' });
  const bus = createLocalBus();
  const app = createApp({ config, db, bus, logger: createLogger(config) });
  let clock = Date.parse('2026-01-24T01:00:00.000Z');
  const nextSeen = () => new Date((clock += 60_000)).toISOString();
  await ingestDocuments([capture(nextSeen(), -3)], { db, bus });
  const { key } = await createKey(db.prisma, { plan: 'pro', expiresAt: null });
  await new Promise((r) => app.httpServer.listen(0, '127.0.0.1', r));

  // The baseline: a bare Socket.IO server broadcasting a payload it already has.
  const bareHttp = http.createServer();
  const bare = new Server(bareHttp, { serveClient: false });
  const bareNsp = bare.of('/bare');
  await new Promise((r) => bareHttp.listen(0, '127.0.0.1', r));

  process.on('message', async (msg) => {
    if (msg.type === 'rss') {
      if (global.gc) global.gc();
      process.send({ type: 'rss', rss: process.memoryUsage().rss });
    } else if (msg.type === 'ingest') {
      const t0 = Date.now();
      await ingestDocuments([capture(nextSeen(), msg.line)], { db, bus });
      process.send({ type: 'ingested', t0 });
    } else if (msg.type === 'broadcast') {
      const t0 = Date.now();
      bareNsp.emit('live_odds', msg.payload);
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

// ---------------------------------------------------------------- clients (this process)
const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

async function main() {
  const { io } = require('socket.io-client');
  const child = fork(__filename, ['server'], { execArgv: ['--expose-gc'], stdio: 'inherit' });
  const inbox = [];
  const waiters = [];
  child.on('message', (m) => {
    const i = waiters.findIndex((w) => w.type === m.type);
    if (i >= 0) waiters.splice(i, 1)[0].resolve(m);
    else inbox.push(m);
  });
  const receive = (type) =>
    new Promise((resolve) => {
      const i = inbox.findIndex((m) => m.type === type);
      if (i >= 0) resolve(inbox.splice(i, 1)[0]);
      else waiters.push({ type, resolve });
    });
  const ask = (msg, reply) => {
    child.send(msg);
    return receive(reply);
  };
  const waitUntil = async (what, predicate, ms = 120_000) => {
    const start = Date.now();
    while (!predicate()) {
      if (Date.now() - start > ms) throw new Error(`timed out: ${what}`);
      await new Promise((r) => setTimeout(r, 2));
    }
  };

  const { port, barePort, key } = await receive('ready');
  const rssBefore = (await ask({ type: 'rss' }, 'rss')).rss;

  // Live: CLIENTS sockets on /live-odds, each recording when it saw the changed line.
  let wanted = null;
  const seenAt = new Array(CLIENTS).fill(0);
  let firstPushes = 0;
  let lastPayload = null;
  const sockets = [];
  for (let i = 0; i < CLIENTS; i++) {
    const s = io(`http://127.0.0.1:${port}/live-odds`, { auth: { apiKey: key }, transports: ['websocket'], reconnection: false, forceNew: true });
    let first = true;
    s.on('live_odds', (p) => {
      if (first) {
        first = false;
        firstPushes++;
      }
      if (wanted === null || !p.success) return;
      const home = p.data[0].markets.spread.outcomes.find((o) => o.side === 'home' && o.book_id === BOOKS[0]);
      if (home && home.point === wanted && !seenAt[i]) {
        seenAt[i] = Date.now();
        if (i === 0) lastPayload = p;
      }
    });
    sockets.push(s);
    // A short pause every 100 connections keeps the handshakes from timing out on small machines.
    if (i % 100 === 99) await new Promise((r) => setTimeout(r, 20));
  }
  await waitUntil('every client connected and got its snapshot', () => firstPushes === CLIENTS);
  const rssAfter = (await ask({ type: 'rss' }, 'rss')).rss;

  const live = [];
  for (let n = 0; n < INGESTS; n++) {
    seenAt.fill(0);
    wanted = -4.5 - n; // a new line each time: an unchanged one pushes nothing
    const { t0 } = await ask({ type: 'ingest', line: wanted }, 'ingested');
    await waitUntil('every client got the change', () => seenAt.every((t) => t > 0));
    live.push(Math.max(...seenAt) - t0);
  }
  wanted = null;
  for (const s of sockets) s.close();

  // Baseline: the same number of clients on a bare namespace, the same payload broadcast.
  const bareSeen = new Array(CLIENTS).fill(0);
  let bareConnected = 0;
  const bareSockets = [];
  for (let i = 0; i < CLIENTS; i++) {
    const s = io(`http://127.0.0.1:${barePort}/bare`, { transports: ['websocket'], reconnection: false, forceNew: true });
    s.on('connect', () => bareConnected++);
    s.on('live_odds', () => {
      bareSeen[i] = Date.now();
    });
    bareSockets.push(s);
    if (i % 100 === 99) await new Promise((r) => setTimeout(r, 20));
  }
  await waitUntil('every bare client connected', () => bareConnected === CLIENTS);
  const bare = [];
  for (let n = 0; n < INGESTS; n++) {
    bareSeen.fill(0);
    const { t0 } = await ask({ type: 'broadcast', payload: lastPayload }, 'broadcasted');
    await waitUntil('every bare client got the broadcast', () => bareSeen.every((t) => t > 0));
    bare.push(Math.max(...bareSeen) - t0);
  }
  for (const s of bareSockets) s.close();
  child.send({ type: 'stop' });

  const bytes = Buffer.byteLength(JSON.stringify(lastPayload));
  console.log(`live pushes: ${CLIENTS} Socket.IO clients on /live-odds, ${GAMES} live games x ${BOOKS.length} books, payload ${(bytes / 1024).toFixed(1)} KiB, ${INGESTS} ingests`);
  console.log(`  ingest -> last client   p50 ${pct(live, 50)} ms   p99 ${pct(live, 99)} ms`);
  console.log(`  bare broadcast (same payload, same clients count)   p50 ${pct(bare, 50)} ms   p99 ${pct(bare, 99)} ms`);
  console.log(`  ratio live/bare   p50 ${(pct(live, 50) / Math.max(1, pct(bare, 50))).toFixed(2)}x   p99 ${(pct(live, 99) / Math.max(1, pct(bare, 99))).toFixed(2)}x`);
  console.log(`  server RSS: ${(rssBefore / 2 ** 20).toFixed(1)} MiB before, ${(rssAfter / 2 ** 20).toFixed(1)} MiB with ${CLIENTS} connections -> ${((rssAfter - rssBefore) / CLIENTS / 1024).toFixed(1)} KiB per connection`);
}

if (process.argv[2] === 'server') {
  server().catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
