#!/usr/bin/env node
'use strict';
// Memory per live client under real traffic, through the scale-out shape (issue 39: at most 64 KiB a
// socket). `odds cluster`'s code starts PostgreSQL (a fresh database), Redis, N API processes behind
// HAProxy with deploy/haproxy.cfg; the first part of a real NBA evening is ingested; the baseline is
// the API processes' RSS (from /proc) after that, before any client. Then client processes (never
// this one, never the server's) connect BENCH_SOCKETS Socket.IO clients (five filters in turn: all,
// moneyline, spread, total, player props) and BENCH_SSE SSE streams through the balancer, the rest
// of the evening is ingested in parts by `odds ingest` with the interval snapshots on (every 20 s,
// as in production), and the processes' RSS is sampled every second: the added bytes per client at
// the peak and at the end, against the baseline.
//
//   npm run build && node bench/cluster-memory.js      (haproxy, redis-server, PostgreSQL at 127.0.0.1:5432)
//
// BENCH_SOCKETS (default 1500), BENCH_SSE (default 30), BENCH_API (default 3), BENCH_PARTS (default 6).
const { execFileSync, fork, spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');

const ROOT = path.join(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'odds.js');
const SERIES = path.join(ROOT, 'test', 'fixtures', 'feeds', 'nba-2026-01-24.jsonl.gz');
const SOCKETS = Number(process.env.BENCH_SOCKETS || 1500);
const SSE = Number(process.env.BENCH_SSE || 30);
const API = Number(process.env.BENCH_API || 3);
const PARTS = Number(process.env.BENCH_PARTS || 6);
const CLIENT_PROCESSES = 3;
const KEYS = 10;
const GOAL_KIB = 64;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rssOf = (pid) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
  } catch {
    return NaN;
  }
};
const mb = (bytes) => (bytes / 1048576).toFixed(0);

/** The series in `parts` files of consecutive captures. */
function splitSeries(dir) {
  const lines = zlib.gunzipSync(fs.readFileSync(SERIES)).toString('utf8').split('\n').filter((l) => l.trim());
  const size = Math.ceil(lines.length / PARTS);
  return Array.from({ length: PARTS }, (_, i) => {
    const file = path.join(dir, `part${i + 1}.jsonl.gz`);
    fs.writeFileSync(file, zlib.gzipSync(lines.slice(i * size, (i + 1) * size).join('\n') + '\n'));
    return file;
  });
}

function ingest(env, file) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'ingest', '--quiet', file], { env: { ...env, LOG_LEVEL: 'silent' }, stdio: 'ignore' });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`odds ingest ${file} exited ${code}`))));
  });
}

async function main() {
  const { startCluster } = require(path.join(ROOT, 'dist', 'cli', 'cluster.js'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-bench-cluster-'));
  const parts = splitSeries(dir);
  const cluster = await startCluster({ apiProcesses: API, ingester: false, port: 0, env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'silent' } });
  const clients = [];
  try {
    const keys = Array.from({ length: KEYS }, () =>
      JSON.parse(execFileSync(process.execPath, [BIN, 'keys', 'create', '--plan', 'elite', '--name', 'bench', '--json'], { env: { ...cluster.env, LOG_LEVEL: 'silent' } })).key,
    );
    await ingest(cluster.env, parts[0]);
    await sleep(10_000);
    const pids = cluster.apis.map((a) => a.pid);
    const before = pids.map(rssOf);

    const perProcess = (n, i) => Math.floor(n / CLIENT_PROCESSES) + (i < n % CLIENT_PROCESSES ? 1 : 0);
    const ready = [];
    for (let i = 0; i < CLIENT_PROCESSES; i++) {
      const child = fork(path.join(__dirname, 'cluster-client.js'), {
        env: { ...process.env, URL: cluster.url, KEYS: keys.join(','), SOCKETS: String(perProcess(SOCKETS, i)), SSE_STREAMS: String(perProcess(SSE, i)) },
      });
      clients.push(child);
      ready.push(new Promise((resolve) => child.once('message', (m) => resolve(m.ready))));
    }
    const connected = await Promise.all(ready);
    const sockets = connected.reduce((n, r) => n + r.sockets, 0);
    const streams = connected.reduce((n, r) => n + r.streams, 0);
    const errors = connected.reduce((n, r) => n + r.errors, 0);

    let peak = pids.map(rssOf);
    const sampler = setInterval(() => (peak = pids.map((pid, i) => Math.max(peak[i], rssOf(pid) || 0))), 1000);
    const connectedRss = pids.map(rssOf);
    for (const file of parts.slice(1)) {
      await ingest(cluster.env, file);
      await sleep(5_000);
    }
    await sleep(25_000); // at least one interval snapshot after the last part
    clearInterval(sampler);
    const after = pids.map(rssOf);
    const received = await Promise.all(clients.map((c) => new Promise((resolve) => { c.once('message', (m) => resolve(m.received)); c.send('stop'); })));
    const total = (xs) => xs.reduce((a, b) => a + b, 0);
    const perClient = (xs) => (total(xs) - total(before)) / 1024 / (sockets + streams);
    console.log(`node ${process.version}, ${API} API processes behind HAProxy, PostgreSQL + Redis, ${path.basename(SERIES)} in ${PARTS} parts`);
    console.log(`clients: ${sockets} Socket.IO + ${streams} SSE connected (${errors} errors) from ${CLIENT_PROCESSES} processes; received ${JSON.stringify(received.reduce((a, r) => Object.fromEntries(Object.keys(r).map((k) => [k, (a[k] ?? 0) + r[k]])), {}))}`);
    console.log(`RSS MB per API process: before clients ${before.map(mb).join('/')}, connected ${connectedRss.map(mb).join('/')}, peak ${peak.map(mb).join('/')}, end ${after.map(mb).join('/')}`);
    console.log(`cluster memory: ${perClient(peak).toFixed(1)} KiB per client at the peak, ${perClient(after).toFixed(1)} at the end, ${perClient(connectedRss).toFixed(1)} connected before traffic (goal <= ${GOAL_KIB})`);
  } finally {
    for (const c of clients) c.kill();
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
