#!/usr/bin/env node
'use strict';
// Cold GET /markets/player_props for the busiest day of the real props captures (issue 22: goal
// under 50 ms), timed from this separate process against the real server process (PGlite).
//
//   npm run build && node bench/props-listing.js
//
// Cold: a request nothing cached (each asks a different page size, so the response cache misses and
// the whole day's listing is computed again, as after a new data version). Prints the first request
// after start (its own line: it also pays the first compile of every query) and median/min/max of 9.
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'odds.js');
const SERIES = path.join(ROOT, 'test', 'fixtures', 'feeds', 'theoddsapi', 'wnba-props-2023-05_2023-07.jsonl.gz');
// The day of the captures with the most games (6) and prop prices.
const DAY = '2023-07-30';
const ADMIN = 'bench-admin-key-0123456789abcdef';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-bench-props-'));
  const port = 20000 + Math.floor(Math.random() * 12000);
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'silent', ADMIN_KEY: ADMIN, NODE_ENV: 'production', DATABASE_URL: '', REDIS_URL: '' };
  execFileSync(process.execPath, [BIN, 'ingest', '--format', 'the-odds-api', SERIES], { env, stdio: 'ignore' });
  const server = spawn(process.execPath, [BIN, 'serve'], { env, stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  try {
    let up = false;
    for (let i = 0; i < 120 && !up; i++) {
      await sleep(500);
      up = await fetch(`${base}/healthz`).then(() => true, () => false);
    }
    if (!up) throw new Error('server did not start');
    const r = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
      body: JSON.stringify({ query: 'mutation { createApiKey(plan: ELITE, name: "bench") { key } }' }),
    });
    const auth = { authorization: `Bearer ${(await r.json()).data.createApiKey.key}` };
    const timed = async (url) => {
      const started = process.hrtime.bigint();
      const res = await fetch(url, { headers: auth });
      const body = await res.json();
      if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      return { ms: Number(process.hrtime.bigint() - started) / 1e6, body };
    };
    const target = `${base}/api/v1/nba/odds/markets/player_props?date=${DAY}`;
    const first = await timed(`${target}&limit=100`);
    const cold = [];
    for (let i = 1; i <= 9; i++) cold.push((await timed(`${target}&limit=${100 + i}`)).ms);
    cold.sort((a, b) => a - b);
    const all = await timed(`${target}&limit=1000`);
    // The floor of this machine now: a small keyed route nothing cached (distinct page sizes).
    const floor = [];
    for (let i = 1; i <= 9; i++) floor.push((await timed(`${base}/api/v1/nba/odds/games?date=2023-07-${10 + i}&include_boxscore=false`)).ms);
    floor.sort((a, b) => a - b);
    console.log(`node ${process.version}, PGlite, real props day ${DAY}: ${all.body.pagination?.total ?? all.body.data.length} entries listed (first page ${first.body.data.length})`);
    console.log(`first request after start: ${first.ms.toFixed(1)} ms`);
    console.log(`cold /markets/player_props (nothing cached): median ${cold[4].toFixed(1)} ms, min ${cold[0].toFixed(1)} ms, max ${cold[8].toFixed(1)} ms (goal < 50 ms)`);
    console.log(`floor, /games of a small day nothing cached: median ${floor[4].toFixed(1)} ms, min ${floor[0].toFixed(1)} ms (load average ${require('node:os').loadavg()[0].toFixed(1)})`);
  } finally {
    server.kill('SIGTERM');
    await sleep(1000);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
