#!/usr/bin/env node
// Ingest throughput: quote changes written per second by the real ingest (normalise, diff against the
// stored quotes, write changes and history in one transaction per document) while replaying a
// recorded series, against a plain multi-row INSERT of the same number of quote rows through the same
// Prisma client and driver, measured in the same run. PGlite always; PostgreSQL when
// BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set.
//   npm run build && node bench/ingest.js [series.jsonl.gz]
const path = require('node:path');
const { Client } = require('pg');
const { openDatabase, MEMORY } = require('../dist/db/client');
const { ingestDocuments } = require('../dist/ingest/ingest');
const { normalizeDocument } = require('../dist/ingest/normalize');
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
  const documents = [];
  for await (const d of readSources(series)) documents.push(d);

  const started = process.hrtime.bigint();
  const summary = await ingestDocuments(documents, { db });
  const ingestSeconds = Number(process.hrtime.bigint() - started) / 1e9;

  // Baseline: the same number of quote rows, one multi-row INSERT per document, no diffing.
  const rows = documents.flatMap((d) => normalizeDocument(d.body, d.name).quotes).slice(0, summary.quotesChanged);
  await db.prisma.$executeRawUnsafe(
    'CREATE TABLE bench_quote (game_id int, book_id int, market_type text, period text, side text, is_live bool, outcome_id text, team_id int, point float8, american int, decimal float8, fractional text, line_status text, seen_at timestamptz)',
  );
  const perDocument = Math.ceil(rows.length / documents.length);
  const baselineStarted = process.hrtime.bigint();
  for (let i = 0; i < rows.length; i += perDocument) {
    const values = rows
      .slice(i, i + perDocument)
      .map((q) => `(${[q.gameId, q.bookId, q.marketType, q.period, q.side, q.isLive, q.outcomeId, q.teamId, q.point, q.american, q.decimal, q.fractional, q.lineStatus].map(sqlValue).join(',')},now())`)
      .join(',');
    await db.prisma.$executeRawUnsafe(`INSERT INTO bench_quote VALUES ${values}`);
  }
  const baselineSeconds = Number(process.hrtime.bigint() - baselineStarted) / 1e9;
  await drop();

  const rate = summary.quotesChanged / ingestSeconds;
  const baseline = rows.length / baselineSeconds;
  console.log(
    `${label.padEnd(10)} ingest: ${summary.documents} documents, ${summary.quotesChanged} quote changes in ${ingestSeconds.toFixed(2)} s = ${rate.toFixed(0)} quote changes/s | ` +
      `plain insert: ${rows.length} rows in ${baselineSeconds.toFixed(2)} s = ${baseline.toFixed(0)} rows/s | ratio ${(rate / baseline).toFixed(3)}`,
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
