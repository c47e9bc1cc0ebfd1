import type { Database } from '../../src/db/client';
import { ingestDocuments } from '../../src/ingest/ingest';
import { seedReferenceData } from '../../src/ingest/seed';
import { readSources } from '../../src/ingest/sources';
import { openTestDatabase } from '../support/database';
import { feedPath } from '../support/feeds';

// One game across sources whatever the order (docs/sources.md, "One game across sources"): the
// Australian daily captures of The Odds API replayed FIRST and the Action Network playoff series
// AFTER, compared with the other order. A game keeps the id it was first given.

const AU = 'theoddsapi/nba-au-daily-2026-04-26_2026-05-01.jsonl.gz';
const AN_PLAYOFFS = 'nba-2026-04-29-playoffs.jsonl.gz';
const ODDS_API = 'the-odds-api';

/** A store with the reference data and `files` replayed one after the other. */
async function replayed(...files: string[]): Promise<Database> {
  const db = await openTestDatabase();
  await seedReferenceData(db.prisma);
  for (const file of files) {
    const summary = await ingestDocuments(readSources(feedPath(file)), { db });
    expect(summary.rejected).toBe(0);
  }
  return db;
}

/** What names a game whatever its id: its Action Network id when it has one, else its The Odds API id. */
function nameOf(meta: unknown): string {
  const ids = (meta as { source_ids?: Record<string, unknown> }).source_ids ?? {};
  return ids['actionnetwork'] !== undefined ? `an:${ids['actionnetwork']}` : `oa:${ids[ODDS_API]}`;
}

async function gamesOf(db: Database) {
  const games = await db.prisma.game.findMany({ include: { boxscore: true }, orderBy: { id: 'asc' } });
  return { games, names: new Map(games.map((g) => [g.id, nameOf(g.meta)])) };
}

/** The Odds API id of every game naming one, to the game's id. */
async function oddsApiIds(db: Database): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const g of (await gamesOf(db)).games) {
    const sid = (g.meta as any)?.source_ids?.[ODDS_API];
    if (sid) out.set(sid, g.id);
  }
  return out;
}

/** Every quote of `source`, keyed by the game's name (not its id), with what it says. */
async function quotesOf(db: Database, names: Map<number, string>, source: string) {
  const quotes = await db.prisma.quote.findMany({ where: { source } });
  return new Map(
    quotes.map((q) => [
      `${names.get(q.gameId)}|${q.bookId}|${q.marketType}|${q.period}|${q.side}|${q.isLive}|${q.playerId}|${q.lineKey}`,
      { american: q.american, decimal: q.decimal, point: q.point, isAvailable: q.isAvailable, seenAt: q.seenAt.toISOString(), changedAt: q.changedAt.toISOString() },
    ]),
  );
}

/** Every history row of `source`, by the game's name, sorted. */
async function historyOf(db: Database, names: Map<number, string>, source: string) {
  const rows = await db.prisma.oddsHistory.findMany({ where: { source } });
  return rows
    .map((h) => `${names.get(h.gameId)}|${h.bookId}|${h.marketType}|${h.period}|${h.side}|${h.isLive}|${h.point}|${h.american}|${h.decimal}|${h.seenAt.toISOString()}`)
    .sort();
}

describe('One game across sources: The Odds API first, Action Network after', () => {
  let anFirst: Database;
  let auFirst: Database;

  beforeAll(async () => {
    anFirst = await replayed(AN_PLAYOFFS, AU);
    auFirst = await replayed(AU, AN_PLAYOFFS);
  }, 600_000);
  afterAll(async () => {
    await anFirst?.close();
    await auFirst?.close();
  });

  test('when the Australian captures come first, then no game is duplicated and the same 13 games name both sources', async () => {
    const { games } = await gamesOf(auFirst);
    // 18 games of the series and 7 Australian-only ones, as in the other order.
    expect(games).toHaveLength(25);
    expect(games).toHaveLength((await gamesOf(anFirst)).games.length);
    const an = games.map((g) => (g.meta as any).source_ids.actionnetwork).filter((id) => id !== undefined);
    expect(an).toHaveLength(18);
    expect(new Set(an).size).toBe(18);
    const both = games.filter((g) => Object.keys((g.meta as any).source_ids).length === 2);
    expect(both.map((g) => (g.meta as any).source_ids.actionnetwork).sort()).toEqual([
      288368, 288369, 288370, 288371, 288372, 288373, 288375, 288376, 288434, 288435, 288444, 288538, 288539,
    ]);
    // The id The Odds API gave first is kept (clients may hold it); meta.source_ids names both.
    for (const g of both) {
      expect(g.id).toBeGreaterThanOrEqual(1_500_000_000);
      expect((g.meta as any).source_ids).toEqual({ actionnetwork: expect.any(Number), [ODDS_API]: expect.any(String) });
    }
    // Action Network games The Odds API does not carry keep Action Network's ids.
    for (const g of games.filter((x) => Object.keys((x.meta as any).source_ids).join() === 'actionnetwork')) {
      expect(g.id).toBe((g.meta as any).source_ids.actionnetwork);
    }
  });

  test('when the Australian captures come first, then every Australian event is on the game it is on in the other order', async () => {
    const pairs = async (db: Database) => {
      const { games } = await gamesOf(db);
      return new Map(games.filter((g) => (g.meta as any).source_ids[ODDS_API]).map((g) => [(g.meta as any).source_ids[ODDS_API], nameOf(g.meta)]));
    };
    const expected = await pairs(anFirst);
    expect(expected.size).toBe(20);
    expect(await pairs(auFirst)).toEqual(expected);
  });

  test('when the Australian captures come first, then every Australian price and history row is the same, on the same game', async () => {
    const a = await gamesOf(anFirst);
    const b = await gamesOf(auFirst);
    const quotes = await quotesOf(anFirst, a.names, ODDS_API);
    expect(quotes.size).toBeGreaterThan(300);
    expect(await quotesOf(auFirst, b.names, ODDS_API)).toEqual(quotes);
    const history = await historyOf(anFirst, a.names, ODDS_API);
    expect(await historyOf(auFirst, b.names, ODDS_API)).toEqual(history);
  });

  test('when the Australian captures come first, then Action Network describes the games it carries and all its prices are the same', async () => {
    const a = await gamesOf(anFirst);
    const b = await gamesOf(auFirst);
    const described = (games: typeof a.games) =>
      new Map(
        games
          .filter((g) => (g.meta as any).source_ids.actionnetwork !== undefined)
          .map(({ id: _id, updatedAt: _u, seenAt: _s, boxscore, ...g }) => [nameOf(g.meta), { ...g, boxscore: boxscore && { ...boxscore, gameId: 0, updatedAt: 0 } }]),
      );
    const expected = described(a.games);
    expect(expected.size).toBe(18);
    // Status, scores and start time are Action Network's in both orders (a finished game among them).
    expect([...expected.values()].filter((g) => g.status === 'finished' && g.boxscore?.homeScore != null).length).toBeGreaterThan(0);
    expect(described(b.games)).toEqual(expected);
    expect(await quotesOf(auFirst, b.names, 'actionnetwork')).toEqual(await quotesOf(anFirst, a.names, 'actionnetwork'));
    expect(await historyOf(auFirst, b.names, 'actionnetwork')).toEqual(await historyOf(anFirst, a.names, 'actionnetwork'));
    const betting = async (db: Database, names: Map<number, string>) =>
      (await db.prisma.publicBetting.findMany()).map((p) => `${names.get(p.gameId)}|${p.bookId}|${p.marketType}|${p.period}|${p.side}|${p.ticketsPercent}|${p.moneyPercent}`).sort();
    expect(await betting(auFirst, b.names)).toEqual(await betting(anFirst, a.names));
  });

  test('when the same order is ingested again into a fresh store, then every game keeps its id', async () => {
    const fresh = await replayed(AU, AN_PLAYOFFS);
    try {
      const ids = async (db: Database) => new Map((await gamesOf(db)).games.map((g) => [nameOf(g.meta), g.id]));
      expect(await ids(fresh)).toEqual(await ids(auFirst));
    } finally {
      await fresh.close();
    }
  }, 600_000);

  test('when both sources are ingested again into the same store, then nothing is duplicated and the ids stay', async () => {
    const before = await gamesOf(auFirst);
    const links = await oddsApiIds(auFirst);
    for (const file of [AN_PLAYOFFS, AU]) expect((await ingestDocuments(readSources(feedPath(file)), { db: auFirst })).rejected).toBe(0);
    const after = await gamesOf(auFirst);
    expect([...after.names]).toEqual([...before.names]);
    expect(await oddsApiIds(auFirst)).toEqual(links);
  }, 600_000);
});
