#!/usr/bin/env node
'use strict';
// POST /grade of 10,000 player prop bets in one request (issue 37: goal at most 1 s), timed from this
// separate process against the real server process, on the real data: The Odds API's WNBA props of
// 2023 and ESPN's box scores of the same games (test/fixtures/feeds), ingested as an operator would
// (`odds ingest`, props first). Twice: on PostgreSQL (a fresh database on the local server, as the
// benches of ../shared/bench run the production shape: the goal) and on the embedded store (the demo's
// PGlite, whose `odds serve` runs with V8's size-saving flags, src/cli/v8-flags.ts: slower on a
// request this large, and told so).
//
//   npm run build && node bench/grade-props.js        (PostgreSQL at 127.0.0.1:5432, user postgres)
//
// The bets: every linked player's box-score lines (Player.gameLog through GraphQL), each graded on
// points, rebounds, assists, threes, points + rebounds + assists, blocks + steals, over and under at
// the value +- 0.5 and at the value itself (pushes), and double-doubles, cycled up to 10,000. The
// baseline, measured in the same run on the same server: 10,000 moneyline bets on the same games
// (graded from the stored score, the path grading had before props). Prints median/min/max of 7 of
// each, and the ratio of the medians.
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'odds.js');
const FEEDS = path.join(ROOT, 'test', 'fixtures', 'feeds');
const PROPS = path.join(FEEDS, 'theoddsapi', 'wnba-props-2023-05_2023-07.jsonl.gz');
const ESPN = path.join(FEEDS, 'espn', 'wnba-summary-2023-05_2023-07.jsonl.gz');
const ADMIN = 'bench-admin-key-0123456789abcdef';
const BETS = 10_000;
const RUNS = 7;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Prop bets on one line: each prop at the value -0.5, +0.5 and the value, over and under; a double-double. */
function betsOf(line) {
  const values = {
    points: line.points,
    rebounds: line.rebounds,
    assists: line.assists,
    threes: line.threesMade,
    points_rebounds_assists: line.points + line.rebounds + line.assists,
    blocks_steals: line.blocks + line.steals,
  };
  const out = [];
  for (const [prop_type, value] of Object.entries(values)) {
    for (const at of [value - 0.5, value + 0.5, value]) {
      if (at <= 0) continue;
      for (const side of ['over', 'under']) out.push({ game_id: line.gameId, market_type: 'player_props', prop_type, player_id: line.playerId, side, line: at });
    }
  }
  out.push({ game_id: line.gameId, market_type: 'player_props', prop_type: 'double_double', player_id: line.playerId, side: 'yes' });
  return out;
}

/** Grades the bets on a server over `store` ('postgresql' or 'embedded'); returns the prop median (ms). */
async function measure(store) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-bench-grade-'));
  const port = 20000 + Math.floor(Math.random() * 12000);
  const db = `odds_bench_grade_${process.pid}`;
  const pg = (...args) => execFileSync(args[0], ['-h', '127.0.0.1', '-U', 'postgres', ...args.slice(1)], { stdio: 'ignore' });
  const databaseUrl = store === 'postgresql' ? `postgresql://postgres@127.0.0.1:5432/${db}` : '';
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'silent', ADMIN_KEY: ADMIN, NODE_ENV: 'production', DATABASE_URL: databaseUrl, REDIS_URL: '' };
  if (databaseUrl) {
    pg('dropdb', '--if-exists', '--force', db);
    pg('createdb', db);
    execFileSync(process.execPath, [BIN, 'migrate'], { env, stdio: 'ignore' });
  }
  execFileSync(process.execPath, [BIN, 'ingest', PROPS], { env, stdio: 'ignore' });
  execFileSync(process.execPath, [BIN, 'ingest', ESPN], { env, stdio: 'ignore' });
  const server = spawn(process.execPath, [BIN, 'serve'], { env, stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  try {
    let up = false;
    for (let i = 0; i < 120 && !up; i++) {
      await sleep(500);
      up = await fetch(`${base}/healthz`).then(() => true, () => false);
    }
    if (!up) throw new Error('server did not start');
    const graphql = async (query, key) => {
      const r = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify({ query }) });
      const body = await r.json();
      if (body.errors) throw new Error(JSON.stringify(body.errors).slice(0, 300));
      return body.data;
    };
    const key = (await graphql('mutation { createApiKey(plan: ELITE, name: "bench") { key } }', ADMIN)).createApiKey.key;
    // Pages of players small enough for the query cost budget (a player has at most ~30 games here).
    const lines = new Map();
    for (let offset = 0; ; offset += 200) {
      const page = await graphql(
        `{ players(leagueId: 5, limit: 200, offset: ${offset}) { items { gameLog(limit: 50) { items { gameId playerId didNotPlay points rebounds assists threesMade blocks steals } } } } }`,
        key,
      );
      for (const p of page.players.items) for (const l of p.gameLog.items) if (!l.didNotPlay && l.points !== null) lines.set(`${l.gameId}|${l.playerId}`, l);
      if (page.players.items.length < 200) break;
    }
    const all = [...lines.values()].flatMap(betsOf);
    if (all.length < 1000) throw new Error(`only ${all.length} bets: were the box scores ingested?`);
    const props = Array.from({ length: BETS }, (_, i) => all[i % all.length]);
    const games = [...new Set([...lines.values()].map((l) => l.gameId))];
    const moneylines = Array.from({ length: BETS }, (_, i) => ({ game_id: games[i % games.length], market_type: 'moneyline', side: i % 2 ? 'home' : 'away' }));

    const timed = async (bets) => {
      const body = JSON.stringify({ bets });
      const started = process.hrtime.bigint();
      const res = await fetch(`${base}/api/v1/nba/odds/grade`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body });
      const answer = await res.json();
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (res.status !== 200 || answer.data.length !== bets.length) throw new Error(`${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
      return { ms, answer };
    };
    // One of each first: it pays the first compile of every statement.
    const first = await timed(props);
    await timed(moneylines);
    const results = {};
    for (const g of first.answer.data) results[g.result ?? g.result_missing_reason] = (results[g.result ?? g.result_missing_reason] ?? 0) + 1;
    const propMs = [];
    const gameMs = [];
    for (let i = 0; i < RUNS; i++) {
      propMs.push((await timed(props)).ms);
      gameMs.push((await timed(moneylines)).ms);
    }
    propMs.sort((a, b) => a - b);
    gameMs.sort((a, b) => a - b);
    const median = (xs) => xs[Math.floor(xs.length / 2)];
    console.log(`== ${store === 'postgresql' ? 'PostgreSQL' : 'embedded store (PGlite)'}`);
    console.log(`node ${process.version}, real WNBA props + ESPN box scores: ${lines.size} box lines, ${all.length} distinct prop bets cycled to ${BETS}; results ${JSON.stringify(results)}`);
    console.log(`first request after start: ${first.ms.toFixed(1)} ms`);
    console.log(`POST /grade, ${BETS} prop bets: median ${median(propMs).toFixed(1)} ms, min ${propMs[0].toFixed(1)} ms, max ${propMs.at(-1).toFixed(1)} ms`);
    console.log(`baseline, POST /grade, ${BETS} moneyline bets: median ${median(gameMs).toFixed(1)} ms, min ${gameMs[0].toFixed(1)} ms, max ${gameMs.at(-1).toFixed(1)} ms`);
    console.log(`ratio props / moneylines (medians): ${(median(propMs) / median(gameMs)).toFixed(2)} (load average ${os.loadavg()[0].toFixed(1)})`);
    return median(propMs);
  } finally {
    server.kill('SIGTERM');
    if (server.exitCode === null && server.signalCode === null) await new Promise((resolve) => server.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (databaseUrl) pg('dropdb', '--if-exists', '--force', db);
  }
}

async function main() {
  const postgres = await measure('postgresql');
  const embedded = await measure('embedded');
  console.log(`grade props: 10,000 prop bets in ${postgres.toFixed(0)} ms on PostgreSQL (goal <= 1000 ms), ${embedded.toFixed(0)} ms on the embedded store`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
