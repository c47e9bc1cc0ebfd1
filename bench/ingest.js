#!/usr/bin/env node
// Ingest throughput, measured as ../shared/bench/ingest-vs-insert.mjs measures it, on the embedded
// store (PGlite under a fresh DATA_DIR) and on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL):
// `odds ingest` of a recorded series into a fresh store, minus the time of a one-capture ingest (process
// start, migrations check, first queries), against the work no ingest can avoid, measured in the same
// run: reading the series (gunzip + JSON.parse of every capture) plus a plain multi-row INSERT (500
// rows a statement, each in its own transaction) of as many rows as the history the ingest reports
// ("N history rows": one row per price move). Writing more rows than that does not make it easier.
// Like the shared benchmark, BENCH_ROUNDS rounds (default 2) per store, the best ratio kept.
//   npm run build && node bench/ingest.js [series.jsonl.gz]
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { PGlite } = require('@electric-sql/pglite');
const { Client } = require('pg');

const ROOT = path.join(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'odds.js');
const series = path.resolve(process.argv[2] ?? path.join(ROOT, 'test', 'fixtures', 'feeds', 'nba-2026-01-24.jsonl.gz'));
const pgUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-bench-ingest-'));
const lines = zlib.gunzipSync(fs.readFileSync(series)).toString('utf8').trim().split('\n');
const one = path.join(tmp, 'one.jsonl.gz');
fs.writeFileSync(one, zlib.gzipSync(`${lines[0]}\n`));

const timed = (f) => {
  const t = performance.now();
  const out = f();
  return { ms: performance.now() - t, out };
};

/** The baseline's table and rows: the shared benchmark's, value for value. */
const BASELINE_TABLE =
  'create table bench_quote (id bigserial primary key, game_id int, book_id int, market text, side text, period text, line numeric, odds int, is_live boolean, at timestamptz)';
function* batches(rows) {
  for (let done = 0; done < rows; done += 500) {
    const n = Math.min(500, rows - done);
    const values = [];
    const args = [];
    for (let i = 0; i < n; i++) {
      const b = args.length;
      values.push(`($${b + 1},$${b + 2},$${b + 3},$${b + 4},$${b + 5},$${b + 6},$${b + 7},$${b + 8},$${b + 9})`);
      args.push(1000 + (i % 12), 15 + (i % 9), 'spread', i % 2 ? 'home' : 'away', 'event', (i % 20) - 10 + 0.5, -110 + (i % 7), i % 3 === 0, new Date());
    }
    yield [`insert into bench_quote (game_id, book_id, market, side, period, line, odds, is_live, at) values ${values.join(',')}`, args];
  }
}

/** Rounds per store, the best ratio reported: the shared benchmark runs two and keeps the best. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS) || 2);

/** One store: `fresh()` empties it and returns the environment of `odds`; `insert(rows)` times the baseline's INSERTs. */
async function measure(label, store) {
  const odds = (env, ...args) => execFileSync(process.execPath, [BIN, ...args], { cwd: ROOT, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  let best = null;
  for (let round = 1; round <= ROUNDS; round++) {
    let env = await store.fresh();
    odds(env, 'migrate');
    const boot = timed(() => odds(env, 'ingest', one)).ms;
    env = await store.fresh();
    odds(env, 'migrate');
    const { ms: total, out } = timed(() => odds(env, 'ingest', series));
    const rows = Number((/(\d+) history rows/.exec(out) ?? [])[1]);
    const ingestMs = Math.max(1, total - boot);

    const read = timed(() => {
      for (const line of zlib.gunzipSync(fs.readFileSync(series)).toString('utf8').trim().split('\n')) JSON.parse(line);
    }).ms;
    const insert = await store.insert(rows);
    const baseline = read + insert;
    const ratio = baseline / ingestMs;
    console.log(
      `${label.padEnd(10)} round ${round}: ${lines.length} captures, ${rows} history rows: ingest ${ingestMs.toFixed(0)} ms (${(ingestMs / lines.length).toFixed(1)} ms/capture) | ` +
        `read ${read.toFixed(0)} + insert ${insert.toFixed(0)} = ${baseline.toFixed(0)} ms | ratio ${ratio.toFixed(3)}`,
    );
    if (!best || ratio > best) best = ratio;
  }
  console.log(`${label.padEnd(10)} best of ${ROUNDS}: ratio ${best.toFixed(3)} (goal >= 0.5)`);
}

const embedded = {
  dir: '',
  async fresh() {
    this.dir = fs.mkdtempSync(path.join(tmp, 'store-'));
    const env = { ...process.env, DATA_DIR: this.dir, LOG_LEVEL: 'silent', NODE_ENV: 'production' };
    delete env.DATABASE_URL;
    return env;
  },
  async insert(rows) {
    const db = await PGlite.create(path.join(this.dir, 'pglite'));
    await db.exec(BASELINE_TABLE);
    const t = performance.now();
    for (const [sql, args] of batches(rows)) await db.transaction((tx) => tx.query(sql, args));
    const ms = performance.now() - t;
    await db.close();
    return ms;
  },
};

const postgres = {
  url: '',
  async admin(sql) {
    const c = new Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(sql);
    await c.end();
  },
  async fresh() {
    const name = `odds_bench_${process.pid}`;
    await this.admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await this.admin(`CREATE DATABASE ${name}`);
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    this.url = url.toString();
    return { ...process.env, DATABASE_URL: this.url, LOG_LEVEL: 'silent', NODE_ENV: 'production' };
  },
  async insert(rows) {
    const c = new Client({ connectionString: this.url });
    await c.connect();
    // The same durability as the ingest's capture statements (synchronous_commit off), as the shared
    // benchmark gives its baseline: a disk with slow fsync must not slow the baseline alone.
    await c.query('SET synchronous_commit = off');
    await c.query(BASELINE_TABLE);
    const t = performance.now();
    for (const [sql, args] of batches(rows)) {
      await c.query('begin');
      await c.query(sql, args);
      await c.query('commit');
    }
    const ms = performance.now() - t;
    await c.end();
    await this.admin(`DROP DATABASE IF EXISTS ${new URL(this.url).pathname.slice(1)} WITH (FORCE)`);
    return ms;
  },
};

(async () => {
  console.log(`node ${process.version}, series ${path.basename(series)} (${lines.length} captures)`);
  await measure('PGlite', embedded);
  if (pgUrl) await measure('PostgreSQL', postgres);
  else console.log('PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL');
  fs.rmSync(tmp, { recursive: true, force: true });
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
