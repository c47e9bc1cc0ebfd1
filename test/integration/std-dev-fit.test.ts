import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '../../src/db/client';
import { findClosedGames } from '../../src/db/closed-games';
import { fitReport } from '../../src/cli/fit';
import { fitResidualStdDev, medianLine, spreadResidual, totalResidual } from '../../src/domain';
import { FITTED_STD_DEV } from '../../src/domain/std-dev-fit';
import { ingestDocuments } from '../../src/ingest/ingest';
import { seedReferenceData } from '../../src/ingest/seed';
import { readSources } from '../../src/ingest/sources';
import { openTestDatabase } from '../support/database';
import { feedPath, readSeries } from '../support/feeds';

// The key-number model's fitted standard deviations (docs/value-metrics.md, "Fitted standard
// deviations") on the real captures: the sample the service reads from storage is recomputed here
// from the raw series (closing line = last pregame price seen before the game went live, median of
// the real books), and the table committed in src/domain/std-dev-fit.ts must be its fit.

jest.setTimeout(300_000);

const SERIES = ['nba-2026-01-24.jsonl.gz', 'nba-2026-04-29-playoffs.jsonl.gz'];
const STORED_KEYS = ['moneyline', 'spread', 'total', 'core_bet_type_6_team_score'];
const AGGREGATES = new Set(['15', '30']);

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
  await seedReferenceData(db.prisma);
  for (const name of SERIES) await ingestDocuments(readSources(feedPath(name)), { db });
});
afterAll(() => db.close());

/** Per final game of the raw series: its score and the median real-book closing home spread and total. */
function closedGamesFromRaw() {
  const captures = SERIES.flatMap((name) => readSeries(name));
  const last = new Map<number, any>();
  const firstLive = new Map<number, number>();
  for (const c of captures) {
    const at = Date.parse(c.fetched_at);
    for (const g of c.body.games) {
      last.set(g.id, g);
      const live = Object.values<any>(g.markets ?? {}).some((periods) =>
        Object.values<any>(periods).some((byKey) => STORED_KEYS.some((k) => (byKey[k] ?? []).some((o: any) => o.is_live && !o.is_alt_market && o.odds != null))),
      );
      if (live && !firstLive.has(g.id)) firstLive.set(g.id, at);
    }
  }
  const out = new Map<number, { home: number; away: number; spread: number | null; total: number | null }>();
  for (const g of last.values()) {
    if (g.status !== 'complete' || !g.boxscore) continue;
    const start = Date.parse(g.start_time);
    const cutoff = Math.min(start, firstLive.get(g.id) ?? start);
    const closes = { spread: new Map<string, number>(), total: new Map<string, number>() };
    for (const c of captures) {
      if (Date.parse(c.fetched_at) >= cutoff) continue;
      const game = c.body.games.find((x: any) => x.id === g.id);
      for (const [book, periods] of Object.entries<any>(game?.markets ?? {})) {
        if (AGGREGATES.has(book)) continue;
        for (const [market, side] of [['spread', 'home'], ['total', 'over']] as const) {
          // The first pregame outcome of the side, as ingest keeps it.
          const o = (periods.event?.[market] ?? []).find((x: any) => x.side === side && !x.is_live && !x.is_alt_market && x.odds != null);
          if (o) closes[market].set(book, o.value);
        }
      }
    }
    const median = (m: Map<string, number>) => (m.size ? medianLine([...m.values()]) : null);
    out.set(g.id, { home: g.boxscore.total_home_points, away: g.boxscore.total_away_points, spread: median(closes.spread), total: median(closes.total) });
  }
  return out;
}

describe('the sample of the fit', () => {
  test('when the real series are stored, then every final game and its closing lines match the raw captures', async () => {
    const raw = closedGamesFromRaw();
    const stored = await findClosedGames(db.prisma);
    expect(stored.map((g) => g.gameId).sort()).toEqual([...raw.keys()].sort());
    for (const g of stored) {
      const r = raw.get(g.gameId)!;
      expect([g.gameId, g.league, g.homeScore, g.awayScore, g.closingSpread, g.closingTotal]).toEqual([g.gameId, 'NBA', r.home, r.away, r.spread, r.total]);
    }
    // Some finals were first captured while being played: they have no closing line and stay out.
    expect(stored.some((g) => g.closingSpread === null && g.closingTotal === null)).toBe(true);
  });

  test('when the sample is fitted, then the committed table (src/domain/std-dev-fit.ts) is that fit', async () => {
    const raw = [...closedGamesFromRaw().values()];
    const spread = fitResidualStdDev(raw.flatMap((g) => (g.spread === null ? [] : [spreadResidual(g.home, g.away, g.spread)])));
    const total = fitResidualStdDev(raw.flatMap((g) => (g.total === null ? [] : [totalResidual(g.home, g.away, g.total)])));
    const report = fitReport(await findClosedGames(db.prisma));
    expect(report.fits.NBA?.spread).toMatchObject({ n: spread.n, sd: +spread.sd.toFixed(4), mean: +spread.mean.toFixed(4) });
    expect(report.fits.NBA?.total).toMatchObject({ n: total.n, sd: +total.sd.toFixed(4), mean: +total.mean.toFixed(4) });

    const committed = FITTED_STD_DEV;
    expect(committed.sample).toMatchObject({ finals: report.sample.finals, withClosingLine: report.sample.with_closing_line, from: report.sample.from, to: report.sample.to });
    for (const market of ['spread', 'total'] as const) {
      const line = report.fits.NBA![market]!;
      expect(committed.fits.NBA?.[market]).toEqual({ n: line.n, mean: line.mean, sd: line.sd, standardError: line.standard_error });
    }
    expect(Object.keys(committed.fits)).toEqual(Object.keys(report.fits));
  });
});

describe('odds fit-std-dev', () => {
  const BIN = path.join(__dirname, '..', '..', 'bin', 'odds.js');
  let dataDir: string;
  beforeAll(() => {
    if (!fs.existsSync(path.join(__dirname, '..', '..', 'dist', 'cli', 'index.js'))) throw new Error('dist/ missing: run npm run build');
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-fit-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const odds = async (args: string[]) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, LOG_LEVEL: 'silent', DATA_DIR: dataDir, DATABASE_URL: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
    return { code, stdout, stderr };
  };

  test('when the store has no final game, then it says so and succeeds', async () => {
    const res = await odds(['fit-std-dev']);
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(res.stdout).toContain('no final game with a closing line is stored');
  });

  test('when the playoff series is stored, then --json reports the fit of its finals with the published and used values', async () => {
    expect((await odds(['ingest', '--quiet', feedPath('nba-2026-04-29-playoffs.jsonl.gz')])).code).toBe(0);
    const res = await odds(['fit-std-dev', '--json']);
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout);
    const playoffFinals = [...closedGamesFromRaw().entries()].filter(([id]) => readSeries(SERIES[1]!).some((c) => c.body.games.some((g: any) => g.id === id)));
    const withLine = playoffFinals.filter(([, g]) => g.spread !== null);
    expect(report.sample).toMatchObject({ finals: playoffFinals.length, with_closing_line: withLine.length });
    const spread = fitResidualStdDev(withLine.map(([, g]) => spreadResidual(g.home, g.away, g.spread!)));
    expect(report.fits.NBA.spread).toEqual({
      n: spread.n,
      mean: +spread.mean.toFixed(4),
      sd: +spread.sd.toFixed(4),
      standard_error: +spread.standardError.toFixed(4),
      published: 12,
      // the published 12 pooled with the fit, 12 counting as 100 residuals
      used: +Math.sqrt((100 * 144 + spread.n * spread.sd ** 2) / (100 + spread.n)).toFixed(4),
    });
  });

  test('when an unknown option is given, then it exits 2', async () => {
    expect((await odds(['fit-std-dev', '--nope'])).code).toBe(2);
  });
});
