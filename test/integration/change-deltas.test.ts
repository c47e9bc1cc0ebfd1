import type { Database } from '../../src/db/client';
import { entriesAfter, storeDelta } from '../../src/db/change-log';
import { ingestDocuments } from '../../src/ingest/ingest';
import { seedReferenceData } from '../../src/ingest/seed';
import { decideDelta, deltaOf, storeDeltas } from '../../src/services/change-deltas';
import { openTestDatabase } from '../support/database';
import { doc, readSeries } from '../support/feeds';

// The delta of each change-log entry, decided once (src/services/change-deltas.ts), on the real
// captures of 2026-01-24: the games that start playing are recorded by the ingest, the ingest's
// afterCommit stores each delta before the bus would hear of it, and a reader that finds none
// decides it and stores it with a compare-and-set: the first writer wins.

describe('change-log deltas', () => {
  let db: Database;
  const series = readSeries('nba-2026-01-24.jsonl.gz').map((line, i) => doc(line.body, line.fetched_at, `series:${i + 1}`));

  beforeAll(async () => {
    db = await openTestDatabase();
    await seedReferenceData(db.prisma);
  });
  afterAll(() => db.close());

  test('when captures are ingested with afterCommit, then every entry has its delta, and a game that starts playing is recorded and comes whole', async () => {
    const decided: number[] = [];
    await ingestDocuments(series.slice(0, 4), { db, grouped: true, afterCommit: async (version) => (decided.push(version), storeDeltas(db.prisma, [version])) });
    const entries = await entriesAfter(db.prisma, 0, null, 100);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.map((e) => e.version)).toEqual(decided);
    for (const e of entries) expect(e.delta).not.toBeNull();
    // Entries chain: each one's previous is the entry before it.
    expect(entries.map((e) => e.previous)).toEqual([0, ...entries.slice(0, -1).map((e) => e.version)]);
    // 263566 and 263567 go from scheduled to in progress in the second capture.
    const start = entries.find((e) => e.started.includes(263566))!;
    expect(start.started).toEqual(expect.arrayContaining([263566, 263567]));
    const delta = start.delta as { games: Array<{ game_id: number; status: string }>; quotes: Array<{ game_id: number; book_id: number; market_type: string }> };
    expect(delta.games.find((g) => g.game_id === 263566)?.status).toBe('in_progress');
    const stored = await db.prisma.quote.findMany({ where: { gameId: 263566, marketType: { in: ['spread', 'moneyline', 'total'] }, openedAt: { lte: start.seenAt } }, distinct: ['bookId', 'marketType'] });
    const carried = new Set(delta.quotes.filter((q) => q.game_id === 263566).map((q) => `${q.book_id}|${q.market_type}`));
    expect(stored.length).toBeGreaterThan(0);
    for (const q of stored) expect(carried).toContain(`${q.bookId}|${q.marketType}`);
  });

  test('when an entry has no delta (its ingester died before storing it), then the first reader decides it, and the first stored one is what everybody gets', async () => {
    const last = (await entriesAfter(db.prisma, 0, null, 1000)).at(-1)!.version;
    await ingestDocuments(series.slice(4, 8), { db, grouped: true });
    const missing = await entriesAfter(db.prisma, last, null, 100);
    expect(missing.length).toBeGreaterThan(0);
    expect(missing.every((e) => e.delta === null)).toBe(true);
    const [first, second] = missing;
    // A reader decides the first one from the committed rows and stores it.
    const decided = await deltaOf(db.prisma, first!);
    expect(decided).toEqual(await decideDelta(db.prisma, first!));
    expect((await entriesAfter(db.prisma, last, first!.version, 1))[0]!.delta).toEqual(decided);
    // Two writers of the second one: the first wins, the other gets the stored one back.
    const winner = { games: [], quotes: [] };
    expect(await storeDelta(db.prisma, second!.version, winner)).toEqual(winner);
    expect(await deltaOf(db.prisma, { ...second!, delta: null })).toEqual(winner);
    expect(await storeDelta(db.prisma, second!.version, await decideDelta(db.prisma, second!))).toEqual(winner);
  });
});
