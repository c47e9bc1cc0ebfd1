#!/usr/bin/env node
// Ingest throughput: the real ingest of a recorded series (read, normalise, diff against memory, one
// statement and one transaction per capture) against the work no ingest can avoid, measured in the
// same run: reading the series (gunzip + JSON.parse of every capture) plus a plain multi-row INSERT
// (500 rows a statement) of as many rows as the history the ingest kept. A ratio of 1 would mean
// the ingest costs no more than that. PGlite always; PostgreSQL when BENCH_DATABASE_URL (or
// TEST_DATABASE_URL) is set.
//   npm run build && node bench/ingest.js [series.jsonl.gz]
const path = require('node:path');
const { Client } = require('pg');
const { openDatabase, MEMORY } = require('../dist/db/client');
const { ingestDocuments } = require('../dist/ingest/ingest');
const fs = require('node:fs');
const zlib = require('node:zlib');
const { seedReferenceData } = require('../dist/ingest/seed');
const { readSources } = require('../dist/ingest/sources');

const series = process.argv[2] ?? path.join(__dirname, '..', 'test', 'fixtures', 'feeds', 'nba-2026-04-29-playoffs.jsonl.gz');
const pgUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;

async function freshPostgres() {
  const name = `odds_bench_${process.pid}`;
  const admin = new Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ dataDir: MEMORY, databaseUrl: url.toString() });
  return {
    db,
    async drop() {
      await db.close();
      const c = new Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

const sqlValue = (v) => (v === null || v === undefined ? 'NULL' : typeof v === 'number' ? String(v) : typeof v === 'boolean' ? String(v) : `'${String(v).replace(/'/g, "''")}'`);

async function measure(label, open) {
  const { db, drop } = await open();
  await seedReferenceData(db.prisma);
  const started = process.hrtime.bigint();
  const summary = await ingestDocuments(readSources(series), { db });
  const ingestSeconds = Number(process.hrtime.bigint() - started) / 1e9;

  // Baseline part 1: read the series.
  const readStarted = process.hrtime.bigint();
  for (const line of zlib.gunzipSync(fs.readFileSync(series)).toString('utf8').trim().split('\n')) JSON.parse(line);
  const readSeconds = Number(process.hrtime.bigint() - readStarted) / 1e9;
  // Baseline part 2: as many rows as the history kept, plain multi-row INSERTs through the same client.
  await db.prisma.$executeRawUnsafe(
    'CREATE TABLE bench_history (id bigserial primary key, game_id int, book_id int, market text, side text, period text, line float8, odds int, is_live bool, at timestamptz)',
  );
  const insertStarted = process.hrtime.bigint();
  for (let done = 0; done < summary.historyRows; done += 500) {
    const values = [];
    for (let i = 0; i < Math.min(500, summary.historyRows - done); i++) {
      values.push(`(${[1000 + (i % 12), 15 + (i % 9), 'spread', i % 2 ? 'home' : 'away', 'event', (i % 20) - 9.5, -110 + (i % 7), i % 3 === 0].map(sqlValue).join(',')},now())`);
    }
    await db.prisma.$executeRawUnsafe(`INSERT INTO bench_history (game_id, book_id, market, side, period, line, odds, is_live, at) VALUES ${values.join(',')}`);
  }
  const baselineSeconds = readSeconds + Number(process.hrtime.bigint() - insertStarted) / 1e9;
  await drop();

  console.log(
    `${label.padEnd(10)} ingest: ${summary.documents} documents, ${summary.historyRows} history rows, ${summary.quotesChanged} quote changes in ${ingestSeconds.toFixed(2)} s ` +
      `(${((ingestSeconds * 1000) / summary.documents).toFixed(1)} ms/capture) | read + insert: ${baselineSeconds.toFixed(2)} s | ratio ${(baselineSeconds / ingestSeconds).toFixed(3)} (goal >= 0.5)`,
  );
}

(async () => {
  console.log(`series: ${path.basename(series)}`);
  await measure('PGlite', async () => {
    const db = await openDatabase({ dataDir: MEMORY });
    return { db, drop: () => db.close() };
  });
  if (pgUrl) await measure('PostgreSQL', freshPostgres);
  else console.log('PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL');
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
