#!/usr/bin/env node
'use strict';
// REST throughput of the real server process against a bare node:http process serving the same
// bytes, with the load generated from this third process (so neither server shares an event loop
// with the load). Agrees with the team's yardstick (shared bench rest-vs-bare): same real day, same
// route, 60 elite keys (fresh per case) created through the admin GraphQL mutation and rotated per request.
//
//   npm run build && node bench/rest.js
//
// For the full day GET /games?date=2026-01-24 (with markets) it reports req/s and p99 of the service
// and of the bare server, and their ratios, for: a plain GET, a conditional GET (If-None-Match: every
// answer a 304), a GET asking for gzip (bare server: the same gzip bytes). Then the cold path: the
// time of a first request that nothing cached (distinct variables, same full-day work), median of 5.
// BENCH_DURATION (seconds, default 10), BENCH_CONNECTIONS (default 50).
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const autocannon = require('autocannon');

const ROOT = path.join(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'odds.js');
const SERIES = path.join(ROOT, 'test', 'fixtures', 'feeds', 'nba-2026-01-24.jsonl.gz');
const DAY = '2026-01-24';
const duration = Number(process.env.BENCH_DURATION || 10);
const connections = Number(process.env.BENCH_CONNECTIONS || 50);
const ADMIN = 'bench-admin-key-0123456789abcdef';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-bench-rest-'));
  const port = 20000 + Math.floor(Math.random() * 12000);
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'silent', ADMIN_KEY: ADMIN, NODE_ENV: 'production', DATABASE_URL: '', REDIS_URL: '' };
  execFileSync(process.execPath, [BIN, 'ingest', SERIES], { env, stdio: 'ignore' });
  const server = spawn(process.execPath, [BIN, 'serve'], { env, stdio: 'ignore' });
  const children = [server];
  const base = `http://127.0.0.1:${port}`;
  try {
    let up = false;
    for (let i = 0; i < 120 && !up; i++) {
      await sleep(500);
      up = await fetch(`${base}/healthz`).then(() => true, () => false);
    }
    if (!up) throw new Error('server did not start');
    // 60 keys per case, as the team's bench rotates, but fresh for each case: the three cases together
    // would otherwise exceed the Elite plan's 1200 requests per minute per key on a fast machine.
    const keys = [];
    for (let i = 0; i < 180; i++) {
      const r = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
        body: JSON.stringify({ query: 'mutation { createApiKey(plan: ELITE, name: "bench") { key } }' }),
      });
      keys.push((await r.json()).data.createApiKey.key);
    }
    const target = `/api/v1/nba/odds/games?date=${DAY}`;
    const auth = { authorization: `Bearer ${keys[0]}` };

    // The cold path: nothing cached for these variables (limit differs, the work is the whole day).
    const cold = [];
    for (let i = 0; i < 5; i++) {
      const started = process.hrtime.bigint();
      const res = await fetch(`${base}${target}&limit=${200 + i}`, { headers: auth });
      await res.arrayBuffer();
      cold.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    cold.sort((a, b) => a - b);

    const sample = await fetch(`${base}${target}`, { headers: auth });
    const bytes = Buffer.from(await sample.arrayBuffer());
    if (sample.status !== 200) throw new Error(`sample ${sample.status}`);
    const etag = sample.headers.get('etag');
    const gzipped = zlib.gzipSync(bytes, { level: 6 });
    const bodyFile = path.join(dataDir, 'body.json');
    fs.writeFileSync(bodyFile, bytes);
    fs.writeFileSync(`${bodyFile}.gz`, gzipped);
    const barePort = port + 1;
    // The bare server: the same bytes (gzip bytes when asked), a 304 when If-None-Match is sent.
    const bareSource = `const fs=require('fs');const b=fs.readFileSync(${JSON.stringify(bodyFile)}),g=fs.readFileSync(${JSON.stringify(`${bodyFile}.gz`)});
require('http').createServer((q,s)=>{if(q.headers['if-none-match']){s.writeHead(304,{etag:${JSON.stringify(etag)}});return s.end()}
const z=(q.headers['accept-encoding']||'').includes('gzip'),x=z?g:b;s.writeHead(200,{'content-type':'application/json; charset=utf-8','content-length':x.length,...(z&&{'content-encoding':'gzip'})});s.end(x)}).listen(${barePort},'127.0.0.1')`;
    const bare = spawn(process.execPath, ['-e', bareSource], { stdio: 'ignore' });
    children.push(bare);
    await sleep(500);

    let k = 0;
    let round = 0;
    const run = (url, headers, rotate) =>
      new Promise((resolve, reject) =>
        autocannon(
          {
            url,
            connections,
            duration,
            requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, ...headers, ...(rotate && { authorization: `Bearer ${keys[60 * round + (k++ % 60)]}` }) } }) }],
          },
          (error, result) => (error ? reject(error) : resolve(result)),
        ),
      );
    const rows = [];
    for (const [name, headers] of [
      ['plain GET', {}],
      ['conditional GET (304)', { 'if-none-match': etag }],
      ['gzip', { 'accept-encoding': 'gzip' }],
    ]) {
      const b = await run(`http://127.0.0.1:${barePort}/`, headers, false);
      const s = await run(`${base}${target}`, headers, true);
      round++;
      const ok = name.startsWith('conditional') ? s['3xx'] : s['2xx'];
      rows.push({
        case: name,
        'svc req/s': Math.round(s.requests.average),
        'svc p99 ms': s.latency.p99,
        'bare req/s': Math.round(b.requests.average),
        'bare p99 ms': b.latency.p99,
        ratio: Number((s.requests.average / b.requests.average).toFixed(3)),
        'p99 x': Number((s.latency.p99 / Math.max(1, b.latency.p99)).toFixed(1)),
        'svc unexpected': s.requests.total - ok,
      });
    }
    console.log(`node ${process.version}, ${connections} connections, ${duration}s per run, PGlite, real day ${DAY}, ${bytes.length} bytes (${gzipped.length} gzip)`);
    console.table(rows);
    console.log(`cold full-day /games (nothing cached): median ${cold[2].toFixed(1)} ms, min ${cold[0].toFixed(1)} ms, max ${cold[4].toFixed(1)} ms`);
    const plain = rows[0];
    console.log(`rest /games: ${plain.ratio}x of bare node:http req/s, p99 ${plain['svc p99 ms']} ms vs ${plain['bare p99 ms']} ms`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
