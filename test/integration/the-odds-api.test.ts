import type { Database } from '../../src/db/client';
import { ingestDocuments } from '../../src/ingest/ingest';
import { seedReferenceData } from '../../src/ingest/seed';
import { readSources, type SourceDocument } from '../../src/ingest/sources';
import { openTestDatabase } from '../support/database';
import { feedPath, readSeries } from '../support/feeds';
import { startTestApp, type TestApp } from '../support/app';

// The Odds API v4 on its real captures (test/fixtures/feeds/theoddsapi): the WNBA week replayed
// alone, and the Australian daily captures after the Action Network playoff series (the same games
// under other ids). docs/sources.md.

const WNBA = 'theoddsapi/wnba-2026-07-14_2026-07-21.jsonl.gz';
const AU = 'theoddsapi/nba-au-daily-2026-04-26_2026-05-01.jsonl.gz';
const SCORES = 'theoddsapi/wnba-scores-documented.jsonl';
const AN_PLAYOFFS = 'nba-2026-04-29-playoffs.jsonl.gz';
const BASE = '/api/v1/nba/odds';
const SOURCE = 'the-odds-api';

type Capture = { fetched_at: string; body: any[] };
const MARKETS: Record<string, string> = { h2h: 'moneyline', spreads: 'spread', totals: 'total' };
const BOOK_IDS: Record<string, number> = {
  draftkings: 68, fanduel: 69, betmgm: 75, williamhill_us: 123, betrivers: 71, fanatics: 2988,
  betonlineag: 6001, betus: 6002, bovada: 6003, lowvig: 6004, mybookieag: 6005,
  pointsbetau: 6040, tabtouch: 6041, unibet: 6042, tab: 6043, betfair_ex_au: 6020, neds: 6044, sportsbet: 6045,
  ladbrokes_au: 6046, betright: 6047, betr_au: 6048, playup: 6049, dabble_au: 6050,
};

/** Every outcome of a capture's event as the service keys it (book, market, side), with its price. */
function outcomes(event: any): Array<{ key: string; bookId: number; market: string; side: string; price: number; point: number | null }> {
  const out = [];
  for (const b of event.bookmakers) {
    for (const m of b.markets) {
      const market = MARKETS[m.key];
      if (!market) continue;
      for (const o of m.outcomes) {
        const side = market === 'total' ? o.name.toLowerCase() : o.name === event.home_team ? 'home' : 'away';
        out.push({ key: `${BOOK_IDS[b.key]}|${market}|${side}`, bookId: BOOK_IDS[b.key]!, market, side, price: o.price, point: market === 'moneyline' ? null : o.point });
      }
    }
  }
  return out;
}

/** The source ids and game ids of every game The Odds API named in `db`. */
async function linkedGames(db: Database): Promise<Map<string, number>> {
  const games = await db.prisma.game.findMany({ select: { id: true, meta: true } });
  const out = new Map<string, number>();
  for (const g of games) {
    const sid = (g.meta as any)?.source_ids?.[SOURCE];
    if (sid) out.set(sid, g.id);
  }
  return out;
}

describe('The Odds API: the WNBA week replayed', () => {
  const series = readSeries(WNBA) as unknown as Capture[];
  let t: TestApp;
  let key: string;
  let ids: Map<string, number>;

  beforeAll(async () => {
    t = await startTestApp();
    // The series and the documented scores response, in capture order.
    const docs: SourceDocument[] = [];
    for (const file of [WNBA, SCORES]) for await (const d of readSources(feedPath(file))) docs.push(d);
    docs.sort((a, b) => a.fetchedAt!.getTime() - b.fetchedAt!.getTime());
    const summary = await ingestDocuments(docs, { db: t.db });
    expect(summary).toMatchObject({ documents: series.length + 1, rejected: 0 });
    key = (await t.createKey('pro')).key;
    ids = await linkedGames(t.db);
  }, 300_000);
  afterAll(() => t?.close());

  test('when the week is replayed, then every event is one game with its upstream id, in the reserved id range', async () => {
    const events = new Set(series.flatMap((c) => c.body.map((e) => e.id)));
    expect(events.size).toBe(27);
    expect(new Set(ids.keys())).toEqual(events);
    for (const id of ids.values()) expect(id).toBeGreaterThanOrEqual(1_500_000_000);
    expect(await t.db.prisma.game.count()).toBe(27);
  });

  test('when the week is replayed, then every book quotes its latest price of every game, live when captured after commence_time', async () => {
    const last = new Map<string, { at: string; event: any }>();
    for (const c of series) for (const e of c.body) last.set(e.id, { at: c.fetched_at, event: e });
    const quotes = await t.db.prisma.quote.findMany({ where: { isAvailable: true, period: 'full_game' } });
    const stored = new Map(quotes.map((q) => [`${q.gameId}|${q.bookId}|${q.marketType}|${q.side}|${q.isLive}`, q]));
    let checked = 0;
    for (const [sid, { at, event }] of last) {
      const live = new Date(at) >= new Date(event.commence_time);
      const game = await t.db.prisma.game.findUniqueOrThrow({ where: { id: ids.get(sid)! } });
      expect(game.startTime.toISOString()).toBe(new Date(event.commence_time).toISOString());
      for (const o of outcomes(event)) {
        const q = stored.get(`${ids.get(sid)}|${o.key}|${live}`);
        expect({ sid, key: o.key, american: q?.american, point: q?.point ?? null, source: q?.source }).toEqual({ sid, key: o.key, american: o.price, point: o.point, source: SOURCE });
        checked++;
      }
      // A pregame price is never carried past tip-off as pregame.
      if (live) expect(quotes.filter((q) => q.gameId === ids.get(sid) && !q.isLive)).toEqual([]);
    }
    expect(checked).toBe(874);
  });

  test('when closing lines are asked, then each is the last price captured before the game went live', async () => {
    const byGame = new Map<string, Capture[]>();
    for (const c of series) for (const e of c.body) byGame.set(e.id, [...(byGame.get(e.id) ?? []), { fetched_at: c.fetched_at, body: [e] }]);
    let compared = 0;
    for (const [sid, captures] of byGame) {
      const start = new Date(captures.at(-1)!.body[0].commence_time);
      const firstLive = captures.find((c) => new Date(c.fetched_at) >= new Date(c.body[0].commence_time));
      const cutoff = firstLive && new Date(firstLive.fetched_at) < start ? new Date(firstLive.fetched_at) : start;
      const expected = new Map<string, { price: number; point: number | null }>();
      for (const c of captures) if (new Date(c.fetched_at) < cutoff) for (const o of outcomes(c.body[0])) expected.set(o.key, o);
      const res = await t.get(`${BASE}/closing?game_id=${ids.get(sid)}`, key);
      expect(res.status).toBe(200);
      const closes = new Map<string, any>(res.body.data.filter((l: any) => l.price).map((l: any) => [`${l.book_id}|${l.market_type}|${l.side}`, l]));
      expect(new Set(closes.keys())).toEqual(new Set(expected.keys()));
      for (const [k, o] of expected) {
        expect({ k, american: closes.get(k).price.american, point: closes.get(k).point }).toEqual({ k, american: o.price, point: o.point });
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  test('when the documented scores response says completed, then the game is finished with its score and winner', async () => {
    const game = await t.db.prisma.game.findUniqueOrThrow({ where: { id: ids.get('d6adc93ae6db516941aa0c9eabe442fd')! }, include: { boxscore: true } });
    expect(game).toMatchObject({ status: 'finished', homeTeamId: 5014, awayTeamId: 5015, winningTeamId: 5014 });
    expect(game.boxscore).toMatchObject({ homeScore: 81, awayScore: 77, totalPoints: 158 });
    // A response without prices withdraws none.
    expect(await t.db.prisma.quote.count({ where: { gameId: game.id, isAvailable: true } })).toBeGreaterThan(0);
  });

  test('when the week is ingested again into a fresh store, then every game keeps its id', async () => {
    const fresh = await openTestDatabase();
    try {
      await seedReferenceData(fresh.prisma);
      await ingestDocuments(readSources(feedPath(WNBA)), { db: fresh });
      expect(await linkedGames(fresh)).toEqual(ids);
    } finally {
      await fresh.close();
    }
  }, 300_000);

  test('when a capture arrives out of time order, then it does not overwrite the newer prices', async () => {
    const before = await t.db.prisma.quote.findMany({ orderBy: { id: 'asc' } });
    const early = series[10]!;
    const summary = await ingestDocuments([{ name: 'late', fetchedAt: new Date(early.fetched_at), body: early.body, envelope: { source: SOURCE } }], { db: t.db });
    expect(summary.rejected).toBe(0);
    const after = await t.db.prisma.quote.findMany({ orderBy: { id: 'asc' } });
    const changed = after.filter((q, i) => before[i] && (q.american !== before[i]!.american || q.point !== before[i]!.point || q.isAvailable !== before[i]!.isAvailable));
    expect(changed).toEqual([]);
  });
});

describe('The Odds API: the Australian captures after the Action Network playoff series', () => {
  const au = readSeries(AU) as unknown as Capture[];
  let db: Database;
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    db = await openTestDatabase();
    await seedReferenceData(db.prisma);
    await ingestDocuments(readSources(feedPath(AN_PLAYOFFS)), { db });
    const summary = await ingestDocuments(readSources(feedPath(AU)), { db });
    expect(summary.rejected).toBe(0);
    t = await startTestApp({ db });
    key = (await t.createKey('pro')).key;
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  test('when a listing asks for the exchange reference, then the fair price comes from Betfair where it quotes, and each entry says which reference it used', async () => {
    // Orlando at Detroit, 2026-04-29: US books from Action Network, Australian books and Betfair from The Odds API; no Pinnacle.
    const ask = async (reference?: string) => {
      const res = await t.get(`${BASE}/markets/moneyline?game_id=288538${reference ? `&reference=${reference}` : ''}`, key);
      expect(res.status).toBe(200);
      return res.body.data as any[];
    };
    const byDefault = await ask();
    expect(byDefault.length).toBeGreaterThan(10);
    // The default prefers the sharp book; without one on real data, the consensus.
    expect(new Set(byDefault.map((e) => e.ev.reference))).toEqual(new Set(['consensus']));
    const exchange = await ask('exchange');
    expect(new Set(exchange.map((e) => e.ev.reference))).toEqual(new Set(['exchange']));
    expect(exchange.map((e) => e.ev.reference_book_count)).toEqual(exchange.map(() => 1));
    expect(new Set((await ask('consensus')).map((e) => e.ev.reference))).toEqual(new Set(['consensus']));
    const bad = await t.get(`${BASE}/markets/moneyline?game_id=288538&reference=pinnacle`, key);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('reference');
  });

  test('when CLV is asked against the exchange close, then the fair close says it came from the exchange', async () => {
    const bet = { game_id: 288538, book_id: 68, market_type: 'moneyline', side: 'home', price: -200 };
    const post = async (body: unknown) => {
      const res = await fetch(t.baseUrl + BASE + '/clv', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as any };
    };
    const exchange = await post({ bets: [bet], reference: 'exchange' });
    expect(exchange.status).toBe(200);
    expect(exchange.body.data[0].fair).toMatchObject({ source: 'exchange', book_count: 1 });
    const consensus = await post({ bets: [bet] });
    expect(consensus.body.data[0].fair).toMatchObject({ source: 'consensus' });
    expect((await post({ bets: [bet], reference: 'nope' })).status).toBe(400);
  });

  test('when both sources carry a game, then it is one game: the Action Network one, naming both upstream ids', async () => {
    const games = await db.prisma.game.findMany({ select: { id: true, meta: true, homeTeamId: true, awayTeamId: true } });
    // 18 games of the series, and the 7 Australian-only ones (before the series' days, and a later round).
    expect(games).toHaveLength(25);
    const links = await linkedGames(db);
    expect(links.size).toBe(20);
    const matched = [...links.values()].filter((id) => id < 1_000_000);
    // Every Australian event of a matchup the series carries within the window (23:10 vs 23:00, and the
    // "if necessary" game 7 listed at 17:00) is on the Action Network game.
    expect(matched.sort()).toEqual([288368, 288369, 288370, 288371, 288372, 288373, 288375, 288376, 288434, 288435, 288444, 288538, 288539]);
    for (const g of games.filter((x) => matched.includes(x.id))) expect((g.meta as any).source_ids).toEqual({ actionnetwork: g.id, [SOURCE]: expect.any(String) });
  });

  test('when the Australian books are served, then each decimal price is the one captured, on the right side', async () => {
    const links = await linkedGames(db);
    const last = new Map<string, { at: string; event: any }>();
    for (const c of au) for (const e of c.body) last.set(e.id, { at: c.fetched_at, event: e });
    let checked = 0;
    for (const [sid, { at, event }] of last) {
      const live = new Date(at) >= new Date(event.commence_time);
      const quotes = await db.prisma.quote.findMany({ where: { gameId: links.get(sid)!, isLive: live, source: SOURCE } });
      const stored = new Map(quotes.map((q) => [`${q.bookId}|${q.marketType}|${q.side}`, q]));
      for (const o of outcomes(event)) {
        expect({ sid, key: o.key, decimal: stored.get(o.key)?.decimal, point: stored.get(o.key)?.point ?? null }).toEqual({ sid, key: o.key, decimal: o.price, point: o.point });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(300);
    // Betfair's lay prices (h2h_lay) are not stored as back prices: the moneyline is its h2h.
    const layOnly = await db.prisma.quote.findMany({ where: { bookId: 6020, NOT: { marketType: 'moneyline' } } });
    expect(layOnly).toEqual([]);
  });

  test('when the Action Network series is ingested again, then the matched games keep both upstream ids and the Australian prices', async () => {
    const before = await db.prisma.quote.count({ where: { source: SOURCE, isAvailable: true } });
    await ingestDocuments(readSources(feedPath(AN_PLAYOFFS)), { db });
    expect(await db.prisma.quote.count({ where: { source: SOURCE, isAvailable: true } })).toBe(before);
    const g = await db.prisma.game.findUniqueOrThrow({ where: { id: 288538 } });
    expect((g.meta as any).source_ids).toEqual({ actionnetwork: 288538, [SOURCE]: expect.stringMatching(/^912bee9c/) });
  });
});
