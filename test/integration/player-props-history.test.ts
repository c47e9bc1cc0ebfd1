import { normalizePlayerName } from '../../src/domain';
import { ingestDocuments } from '../../src/ingest/ingest';
import { bookOf } from '../../src/ingest/feeds/the-odds-api/books';
import { readSources, type SourceDocument } from '../../src/ingest/sources';
import { feedPath, readSeries } from '../support/feeds';
import { startTestApp, type TestApp } from '../support/app';

// Player props in the history (issue 22): /live/movement and /historical with
// market_type=player_props, on the real captures of The Odds API's event-odds endpoint
// (test/fixtures/feeds/theoddsapi/wnba-props-*.jsonl.gz: two captures of most games, about 12 h and
// 10 min before tip-off, so real line moves between them). docs/player-props.md.

const PROPS = 'theoddsapi/wnba-props-2023-05_2023-07.jsonl.gz';
const BASE = '/api/v1/nba/odds';
const SOURCE = 'the-odds-api';

type Event = { id: string; commence_time: string; bookmakers: Array<{ key: string; title: string; markets: Array<{ key: string; outcomes: Array<{ name: string; description: string; price: number; point: number }> }> }> };
type Capture = { fetched_at: string; body: { timestamp: string; data: Event } };

/** Every prop price of an event keyed as the service keys it: book, player, prop, point, side. */
function priceKeys(event: Event): Map<string, number> {
  const out = new Map<string, number>();
  for (const b of event.bookmakers) {
    for (const m of b.markets) {
      for (const o of m.outcomes) out.set(`${bookOf(b.key, b.title).id}|${normalizePlayerName(o.description)}|${m.key.replace(/^player_/, '')}|${o.point}|${o.name.toLowerCase()}`, o.price);
    }
  }
  return out;
}

/** The lines of each book, player, prop and side in an event: `key -> [{point, price}]`. */
function linesOf(event: Event): Map<string, Array<{ point: number; price: number }>> {
  const out = new Map<string, Array<{ point: number; price: number }>>();
  for (const b of event.bookmakers) {
    for (const m of b.markets) {
      if (m.key.endsWith('_alternate')) continue;
      for (const o of m.outcomes) {
        const key = `${bookOf(b.key, b.title).id}|${normalizePlayerName(o.description)}|${m.key.replace(/^player_/, '')}|${o.name.toLowerCase()}`;
        out.set(key, [...(out.get(key) ?? []), { point: o.point, price: o.price }]);
      }
    }
  }
  return out;
}

const servedKey = (o: any) => `${o.book_id}|${normalizePlayerName(o.player.name)}|${o.prop_type}|${o.point}|${o.side}`;

async function sortedDocuments(): Promise<SourceDocument[]> {
  const docs: SourceDocument[] = [];
  for await (const d of readSources(feedPath(PROPS))) docs.push(d);
  return docs.sort((a, b) => a.fetchedAt!.getTime() - b.fetchedAt!.getTime());
}

describe('player props in /historical: the real WNBA props captures', () => {
  const series = readSeries(PROPS) as unknown as Capture[];
  let t: TestApp;
  let key: string;
  const gameIds = new Map<string, number>();
  /** Games captured twice before tip-off, with their two pregame captures. */
  const twice: Array<{ sid: string; first: Capture; last: Capture }> = [];

  beforeAll(async () => {
    t = await startTestApp();
    const summary = await ingestDocuments(await sortedDocuments(), { db: t.db });
    expect(summary).toMatchObject({ documents: series.length, rejected: 0 });
    key = (await t.createKey('pro')).key;
    for (const g of await t.db.prisma.game.findMany({ select: { id: true, meta: true } })) gameIds.set((g.meta as any).source_ids[SOURCE], g.id);
    const pregame = new Map<string, Capture[]>();
    for (const c of series) {
      if (new Date(c.body.timestamp) >= new Date(c.body.data.commence_time)) continue;
      pregame.set(c.body.data.id, [...(pregame.get(c.body.data.id) ?? []), c]);
    }
    for (const [sid, list] of pregame) {
      list.sort((a, b) => a.body.timestamp.localeCompare(b.body.timestamp));
      if (list.length >= 2) twice.push({ sid, first: list[0]!, last: list.at(-1)! });
    }
    expect(twice.length).toBeGreaterThan(10);
  }, 300_000);
  afterAll(() => t?.close());

  /** The URL of one game's props snapshots: its UTC day and the day before hold its league-local day. */
  const historical = (sid: string, event: Event, extra = '') => {
    const day = event.commence_time.slice(0, 10);
    const before = new Date(new Date(day).getTime() - 86_400_000).toISOString().slice(0, 10);
    return `${BASE}/historical?start_date=${before}&end_date=${day}&game_id=${gameIds.get(sid)}&market_type=player_props&include_boxscore=false${extra}`;
  };

  test('when the closing props are asked, then each game shows the prices of its last pregame capture exactly', async () => {
    let checked = 0;
    for (const { sid, last } of twice) {
      const res = await t.get(historical(sid, last.body.data), key);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(1);
      const markets = res.body.data[0].game.markets;
      // Only props were asked: the game markets carry no outcome, and the props are their own key.
      expect(markets.moneyline.outcomes).toEqual([]);
      const served = new Map<string, number>();
      for (const o of markets.player_props.outcomes) {
        expect(o.is_live).toBe(false);
        served.set(servedKey(o), o.odds.original);
      }
      const expected = priceKeys(last.body.data);
      for (const [k, price] of expected) expect({ k, price: served.get(k) }).toEqual({ k, price });
      checked += expected.size;
    }
    expect(checked).toBeGreaterThan(2000);
  }, 120_000);

  test('when the props are asked at an instant between the two captures, then the first capture\'s prices show, and the moves of the second are visible', async () => {
    let moved = 0;
    for (const { sid, first, last } of twice.slice(0, 8)) {
      const between = new Date((new Date(first.body.timestamp).getTime() + new Date(last.body.timestamp).getTime()) / 2).toISOString();
      const res = await t.get(historical(sid, first.body.data, `&at=${between}`), key);
      expect(res.status).toBe(200);
      const served = new Map<string, number>();
      for (const o of res.body.data[0].game.markets.player_props.outcomes) served.set(servedKey(o), o.odds.original);
      const then = priceKeys(first.body.data);
      for (const [k, price] of then) expect({ k, price: served.get(k) }).toEqual({ k, price });
      for (const [k, price] of priceKeys(last.body.data)) if (then.has(k) && then.get(k) !== price) moved++;
    }
    // Prop lines move between the captures (the reason their history matters).
    expect(moved).toBeGreaterThan(0);
  }, 120_000);

  test('when the closing lines are asked with market_type=player_props, then each prop closes at its last pregame capture\'s price, with player, prop and line', async () => {
    let checked = 0;
    for (const { sid, first, last } of twice.slice(0, 10)) {
      const res = await t.get(`${BASE}/closing?game_id=${gameIds.get(sid)}&market_type=player_props`, key);
      expect(res.status).toBe(200);
      const closes = new Map<string, number>();
      for (const c of res.body.data) {
        expect(c).toMatchObject({ market_type: 'player_props', player: { id: expect.any(Number), name: expect.any(String) }, settled: true, cutoff_source: 'start_time' });
        // The close of the main line is the point and price of the last pregame capture.
        if (c.price) closes.set(servedKey({ ...c, book_id: c.book_id, point: c.point, side: c.side }), c.price.american);
        expect(new Date(c.cutoff_at).toISOString()).toBe(new Date(last.body.data.commence_time).toISOString());
        if (c.price) expect(new Date(c.captured_at).getTime()).toBeLessThan(new Date(c.cutoff_at).getTime());
      }
      for (const [k, price] of priceKeys(last.body.data)) {
        expect({ k, price: closes.get(k) }).toEqual({ k, price });
        checked++;
      }
      // A line only the first capture had (the book moved off it) still has its own close: its last price then.
      for (const [k, price] of priceKeys(first.body.data)) if (!priceKeys(last.body.data).has(k) && closes.has(k)) expect(closes.get(k)).toBe(price);
    }
    expect(checked).toBeGreaterThan(500);
    // Without market_type, the closes are the game markets' only (none in these props captures), without prop fields.
    const plain = await t.get(`${BASE}/closing?game_id=${gameIds.get(twice[0]!.sid)}`, key);
    expect(plain.status).toBe(200);
    expect(plain.body.data).toEqual([]);
  });

  test('when the closing lines are asked with a bad market_type, then it answers 400 naming the parameter', async () => {
    const res = await t.get(`${BASE}/closing?game_id=1&market_type=player_points`, key);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('market_type');
  });

  test('when the props listing of a day is read in pages of 50, then the pages are the whole listing cut in order (each page builds its own entries only)', async () => {
    for (const sort of ['value', 'odds']) {
      const url = `${BASE}/markets/player_props?date=2023-07-30&sort=${sort}&devig=power&reference=consensus`;
      const whole = await t.get(`${url}&limit=1000`, key);
      expect(whole.status).toBe(200);
      expect(whole.body.data.length).toBeGreaterThan(500);
      const pages: any[] = [];
      for (let offset = 0; offset < whole.body.data.length; offset += 50) {
        const res = await t.get(`${url}&limit=50&offset=${offset}`, key);
        expect(res.status).toBe(200);
        pages.push(...res.body.data);
      }
      // age_seconds runs with the real clock between the requests; everything else must be equal.
      const timeless = (list: any[]) => list.map(({ age_seconds: _age, ...rest }) => rest);
      expect(timeless(pages)).toEqual(timeless(whole.body.data));
    }
  }, 120_000);

  test('when /historical is asked without market_type, then the props stay out of the snapshots', async () => {
    const { sid, last } = twice[0]!;
    const res = await t.get(historical(sid, last.body.data).replace('&market_type=player_props', ''), key);
    expect(res.status).toBe(200);
    // These captures carry props only: without them the game has no price in the history, so no snapshot.
    expect(res.body.data).toEqual([]);
    expect(res.body.pagination.total).toBe(0);
  });

  test('when a props page would cost more than the budget, then it is refused with a 400 naming the limit that fits, and that limit is answered', async () => {
    // A 1-hour series of every props game of June: 0.25 per snapshot without its props would let 100
    // through; the prop prices the snapshots hold make it cost more.
    const url = `${BASE}/historical?start_date=2023-06-01&end_date=2023-06-30&market_type=player_props&interval=1h&include_boxscore=false`;
    const refused = await t.get(`${url}&limit=100`, key);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/invalid parameter limit: .*player prop prices.*ask for limit=(\d+) or fewer/);
    const fits = Number(/limit=(\d+) or fewer/.exec(refused.body.error)![1]);
    expect(fits).toBeLessThan(100);
    const page = await t.get(`${url}&limit=${fits}`, key);
    expect(page.status).toBe(200);
    expect(page.body.data.length).toBeLessThanOrEqual(fits);
  });

  test('when /historical is asked with a bad market_type, then it answers 400 naming the parameter', async () => {
    for (const query of ['market_type=player_points', 'market_type=props', 'market_type=player_props,dunks']) {
      const res = await t.get(`${BASE}/historical?start_date=2023-06-01&end_date=2023-06-02&${query}`, key);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(res.body.error).toContain('market_type');
    }
  });

  test('when the props snapshots are asked through GraphQL, then historicalOdds(marketType: [PLAYER_PROPS]) serves the same prices', async () => {
    const { sid, last } = twice[0]!;
    const day = last.body.data.commence_time.slice(0, 10);
    const before = new Date(new Date(day).getTime() - 86_400_000).toISOString().slice(0, 10);
    const res = await t.graphql(
      `{ historicalOdds(startDate: "${before}", endDate: "${day}", gameId: [${gameIds.get(sid)}], marketType: [PLAYER_PROPS]) { items { game { markets { playerProps { outcomes { bookId side point odds { original } propType player { name } } } } } } } }`,
      {},
      key,
    );
    expect(res.body.errors).toBeUndefined();
    const served = new Map<string, number>();
    for (const o of res.body.data.historicalOdds.items[0].game.markets.playerProps.outcomes) {
      served.set(`${o.bookId}|${normalizePlayerName(o.player.name)}|${o.propType}|${o.point}|${o.side}`, o.odds.original);
    }
    expect(served).toEqual(priceKeys(last.body.data));
  });
});

describe('player props in /live/movement: the captures up to one taken in play', () => {
  let t: TestApp;
  let key: string;
  let live: Event;
  let pregame: Event[];

  beforeAll(async () => {
    t = await startTestApp();
    const docs = await sortedDocuments();
    // The first capture taken after its game's commence_time, and everything before it.
    const index = docs.findIndex((d) => new Date((d.body as any).timestamp) >= new Date((d.body as any).data.commence_time));
    live = (docs[index]!.body as any).data;
    pregame = docs.slice(0, index).flatMap((d) => ((d.body as any).data.id === live.id ? [(d.body as any).data as Event] : []));
    expect(pregame.length).toBeGreaterThan(0);
    await ingestDocuments(docs.slice(0, index + 1), { db: t.db });
    key = (await t.createKey('pro')).key;
  }, 300_000);
  afterAll(() => t?.close());

  test('when movement is asked with market_type=player_props, then each live prop shows its first price seen as open and the in-play price as current', async () => {
    const res = await t.get(`${BASE}/live/movement?market_type=player_props`, key);
    expect(res.status).toBe(200);
    const records: any[] = res.body.data;
    expect(records.length).toBeGreaterThan(0);
    const current = priceKeys(live);
    const firstLines = linesOf(pregame[0]!);
    let opened = 0;
    let moved = 0;
    for (const r of records) {
      expect(r.player).toEqual({ id: expect.any(Number), name: expect.any(String), team_id: null });
      expect(r.market_type).toBe(`player_${r.prop_type}`);
      expect(r.is_live).toBe(true);
      const k = `${r.book_id}|${normalizePlayerName(r.player.name)}|${r.prop_type}|${r.value}|${r.side}`;
      expect({ k, price: r.odds.original }).toEqual({ k, price: current.get(k) });
      expect(r.line_movement.current_line).toBe(r.value);
      expect(r.line_movement.current_price).toBe(r.odds.original);
      // Open is the first price of the main line: the earliest capture's, where it had one line there.
      const first = firstLines.get(`${r.book_id}|${normalizePlayerName(r.player.name)}|${r.prop_type}|${r.side}`);
      if (!r.is_alternate && first?.length === 1) {
        expect({ k, open: [r.line_movement.open_line, r.line_movement.open_price] }).toEqual({ k, open: [first[0]!.point, first[0]!.price] });
        opened++;
      }
      const { open_line: o, current_line: c } = r.line_movement;
      if (o !== c) {
        moved++;
        expect(r.line_movement.direction).toBe(c > o ? 'towards_over' : 'towards_under');
        expect(r.line_movement.absolute_change).toBeCloseTo(Math.abs(c - o), 9);
      }
    }
    expect(opened).toBeGreaterThan(0);
    // Every live price was served.
    expect(records.length).toBe(current.size);
    expect(moved).toBeGreaterThan(0);
  });

  test('when movement is asked without market_type, then no prop record and no prop field is served', async () => {
    const res = await t.get(`${BASE}/live/movement`, key);
    expect(res.status).toBe(200);
    for (const r of res.body.data) {
      expect(['moneyline', 'spread', 'total']).toContain(r.market_type);
      expect(r).not.toHaveProperty('player');
      expect(r).not.toHaveProperty('prop_type');
    }
  });

  test('when movement is asked for props and a side, then only that side of the props is served', async () => {
    const res = await t.get(`${BASE}/live/movement?market_type=player_props&side=under`, key);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const r of res.body.data) expect(r.side).toBe('under');
  });

  test('when movement is asked with a bad market_type, then it answers 400 naming the parameter', async () => {
    for (const query of ['market_type=player_points', 'market_type=prop', 'side=yes_please']) {
      const res = await t.get(`${BASE}/live/movement?${query}`, key);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(res.body.error).toContain(query.split('=')[0]);
    }
  });

  test('when movement is asked through GraphQL with PLAYER_PROPS, then the records carry player and prop type', async () => {
    const res = await t.graphql('{ lineMovement(marketType: [PLAYER_PROPS]) { count records { marketType propType isAlternate player { id name } lineMovement { openLine currentLine } } } }', {}, key);
    expect(res.body.errors).toBeUndefined();
    const { count, records } = res.body.data.lineMovement;
    expect(count).toBe(priceKeys(live).size);
    for (const r of records) expect(r.marketType).toBe(`player_${r.propType}`);
  });
});
