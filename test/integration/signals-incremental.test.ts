import { openDatabase, type Database } from '../../src/db/client';
import {
  findLeaders,
  findReverseLineMovement,
  findSteam,
  MARKET_TYPES,
  priceMoves,
  SIDES_BY_MARKET,
  type BettingSplit,
  type HistoryPrice,
} from '../../src/domain';
import { createLocalBus } from '../../src/events/bus';
import { ingestDocuments } from '../../src/ingest/ingest';
import { seedReferenceData } from '../../src/ingest/seed';
import { readSources, type SourceDocument } from '../../src/ingest/sources';
import { describeWithPostgres, openTestDatabase } from '../support/database';
import { feedPath, readSeries } from '../support/feeds';

// The signals recording at ingest is incremental (src/domain/signal-tracker.ts, src/ingest/signals.ts;
// docs/signals.md): it must store what recomputing everything after every capture stores. The
// reference here is that recomputation, with the pure detectors: after each capture of a real series
// (ingested one at a time, so the database then holds exactly that capture's state), every game the
// capture moved that has not started has its pregame full-game history up to the capture read back
// and run through findSteam, findReverseLineMovement (with the shares stored then) and findLeaders.
// A steam or RLM event keeps the figures of the first capture that showed it; a leader its latest.

type Stored = Map<string, unknown>;

/** The series' captures as documents, in file order. */
async function documents(series: string): Promise<SourceDocument[]> {
  const out: SourceDocument[] = [];
  for await (const d of readSources(feedPath(series))) out.push(d);
  return out;
}

/** The detectors' events of `gameIds` at `at`, from what the database holds, as key -> data (as signal-store.ts keys and shapes them). */
async function recompute(db: Database, gameIds: number[], at: Date): Promise<Array<[string, string, unknown]>> {
  const games = await db.prisma.game.findMany({ where: { id: { in: gameIds }, status: 'scheduled' }, select: { id: true } });
  const ids = games.map((g) => g.id);
  if (!ids.length) return [];
  const aggregates = new Set((await db.prisma.sportsbook.findMany({ where: { isAggregate: true } })).map((b) => b.id));
  const rows: HistoryPrice[] = (
    await db.prisma.oddsHistory.findMany({ where: { gameId: { in: ids }, period: 'full_game', isLive: false, marketType: { in: [...MARKET_TYPES] }, seenAt: { lte: at } } })
  ).filter((r) => !aggregates.has(r.bookId));
  const splits: BettingSplit[] = (await db.prisma.publicBetting.findMany({ where: { gameId: { in: ids }, period: 'full_game', ticketsPercent: { not: null } }, orderBy: [{ bookId: 'asc' }] })).map(
    (s) => ({ gameId: s.gameId, marketType: s.marketType, side: s.side, ticketsPercent: s.ticketsPercent!, moneyPercent: s.moneyPercent }),
  );
  const move = (m: { bookId: number; at: Date; from: { point: number | null; american: number }; to: { point: number | null; american: number }; size: number; unit: string }) => ({
    book_id: m.bookId, at: m.at.toISOString(), from_point: m.from.point, from_american: m.from.american, to_point: m.to.point, to_american: m.to.american, size: m.size, unit: m.unit,
  });
  const moves = priceMoves(rows);
  const out: Array<[string, string, unknown]> = [];
  for (const e of findSteam(moves)) {
    out.push([`steam|${e.gameId}|${e.marketType}|${e.period}|${e.side}|${e.direction}|${e.startedAt.toISOString()}`, 'steam', {
      direction: e.direction === 1 ? 'toward_side' : 'away_from_side', books: e.moves.length, ended_at: e.endedAt.toISOString(), moves: e.moves.map(move),
    }]);
  }
  for (const e of findReverseLineMovement(moves, splits, SIDES_BY_MARKET)) {
    out.push([`reverse_line_movement|${e.gameId}|${e.marketType}|${e.period}|${e.towardSide}|${e.startedAt.toISOString()}`, 'rlm', {
      toward_side: e.towardSide, majority_side: e.majoritySide, majority_tickets_percent: e.majorityTicketsPercent, majority_money_percent: e.majorityMoneyPercent,
      books: e.moves.length, moves: e.moves.map(move),
    }]);
  }
  for (const e of findLeaders(rows)) {
    out.push([`market_leader|${e.gameId}|${e.marketType}|${e.period}|${e.side}|${e.number}|${e.at.toISOString()}`, 'leader', {
      number: e.number, leader_book_id: e.leaderBookId, followers: e.followers.map((f) => ({ book_id: f.bookId, after_seconds: f.afterSeconds })),
    }]);
  }
  return out;
}

async function storedSignals(db: Database): Promise<Stored> {
  return new Map((await db.prisma.lineSignal.findMany()).map((s) => [s.key, s.data]));
}

// Two series: 2026-01-24 is captured about every 13 minutes, so steam windows (15 minutes) span
// captures and the tracker's open windows are exercised; 2026-04-29 about hourly.
describe.each([['nba-2026-01-24.jsonl.gz'], ['nba-2026-04-29-playoffs.jsonl.gz']])('incremental signals at ingest, on the real series %s', (SERIES) => {
  let docs: SourceDocument[];
  let reference: Stored;
  let db: Database;

  beforeAll(async () => {
    docs = await documents(SERIES);
    db = await openTestDatabase();
    await seedReferenceData(db.prisma);
    // One capture at a time, each followed by the full recomputation of the games it moved.
    const bus = createLocalBus();
    let moved: number[] = [];
    bus.subscribe('odds', (e) => {
      moved = [...new Set(e.markets.map((m) => m.gameId))];
    });
    reference = new Map();
    for (const d of docs) {
      moved = [];
      await ingestDocuments([d], { db, bus });
      for (const [key, kind, data] of await recompute(db, moved, d.fetchedAt!)) {
        if (kind === 'leader' || !reference.has(key)) reference.set(key, data);
      }
    }
  }, 600_000);
  afterAll(() => db?.close());

  /** `stored` holds exactly the reference's keys, each with the reference's figures. */
  const expectReference = (stored: Stored) => {
    expect([...stored.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [key, data] of reference) expect([key, stored.get(key)]).toEqual([key, data]);
  };

  test('when the captures are ingested one at a time, then the stored signals are exactly those of the full recomputation after each capture', async () => {
    expect(readSeries(SERIES).length).toBe(docs.length);
    const stored = await storedSignals(db);
    expect(reference.size).toBeGreaterThan(40);
    const kinds = (m: Stored) => ['steam|', 'reverse_line_movement|', 'market_leader|'].map((k) => [...m.keys()].filter((key) => key.startsWith(k)).length);
    // Each kind is present, so the comparison below compares something of each.
    expect(kinds(reference).every((n) => n > 0)).toBe(true);
    expect([...stored.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [key, data] of reference) expect([key, stored.get(key)]).toEqual([key, data]);
  });

  test.each([
    ['each capture its own statement', false],
    ['captures written in groups, as odds ingest writes a recorded series', true],
  ])('when the whole series is ingested in one run (captures diffed while the previous one commits; %s), then it stores the same signals', async (_, grouped) => {
    const fresh = await openTestDatabase();
    try {
      await seedReferenceData(fresh.prisma);
      await ingestDocuments(docs, { db: fresh, grouped });
      expectReference(await storedSignals(fresh));
    } finally {
      await fresh.close();
    }
  }, 300_000);

  describeWithPostgres('across a restart', () => {
    test('when a new ingesting process takes over half-way, then it seeds its state from the database and the stored signals are the same', async () => {
      const first = await openTestDatabase('postgres');
      const half = Math.floor(docs.length / 2);
      let second: Database | undefined;
      try {
        await seedReferenceData(first.prisma);
        await ingestDocuments(docs.slice(0, half), { db: first });
        // Another client of the same database: another process, with nothing in memory.
        second = await openDatabase({ dataDir: 'memory://', databaseUrl: first.url! });
        await ingestDocuments(docs.slice(half), { db: second });
        expectReference(await storedSignals(second));
      } finally {
        await second?.close();
        await first.close();
      }
    }, 300_000);

    test.each([
      ['each capture its own statement', false],
      ['captures written in groups, so that a group finds the counter moved', true],
    ])('when two ingesting processes take turns every ten captures (%s), then each reloads what the other wrote, signals included, and the stored signals are the same', async (_, grouped) => {
      const first = await openTestDatabase('postgres');
      let second: Database | undefined;
      try {
        await seedReferenceData(first.prisma);
        second = await openDatabase({ dataDir: 'memory://', databaseUrl: first.url! });
        // Each turn finds the ingest counter moved by the other process: its memory, and its signals'
        // memory with it, is read again from the database before it writes.
        for (let start = 0, turn = 0; start < docs.length; start += 10, turn++) {
          await ingestDocuments(docs.slice(start, start + 10), { db: turn % 2 ? second : first, grouped });
        }
        expectReference(await storedSignals(first));
      } finally {
        await second?.close();
        await first.close();
      }
    }, 300_000);
  });
});
