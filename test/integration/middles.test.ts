import { findMiddle, MARGIN_STD_DEV } from '../../src/domain';
import { feedPath } from '../support/feeds';
import { startTestApp, type TestApp } from '../support/app';

// Middles (issue 23; docs/signals.md) on the real capture series of 2026-01-24 and 2026-04-29
// (test/fixtures/feeds), read with as_of: every middle pairs two bettable prices of one market on
// opposite sides whose lines leave a window, and its figures are the domain's.

const BASE = '/api/v1/nba/odds';

describe('GET /markets/middles on the real series', () => {
  let t: TestApp;
  let pro: string;

  beforeAll(async () => {
    t = await startTestApp({ feeds: [feedPath('nba-2026-01-24.jsonl.gz'), feedPath('nba-2026-04-29-playoffs.jsonl.gz')] });
    pro = (await t.createKey('pro')).key;
  }, 300_000);
  afterAll(() => t.close());

  const middles = async (query: string) => {
    const res = await t.get(`${BASE}/markets/middles?${query}`, pro);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(res.body.data.length);
    return res.body.data as any[];
  };

  test.each([
    ['2026-01-24', '2026-01-24T16:30:00Z'],
    ['2026-01-24', '2026-01-24T18:00:00Z'],
    ['2026-04-29', '2026-04-29T23:00:00Z'],
  ])('when the middles of %s are read at %s, then each pairs bettable prices of opposite sides around a window, with the domain figures', async (day, at) => {
    const data = await middles(`date=${day}&as_of=${at}`);
    expect(data.length).toBeGreaterThan(0);
    for (const m of data) {
      const [lowSide, highSide] = m.market_type === 'total' ? ['over', 'under'] : ['home', 'away'];
      expect([m.low.side, m.high.side]).toEqual([lowSide, highSide]);
      // The window in the result's terms: total points, or the home margin (home h wins above -h, away a below a).
      expect(m.window_low).toBe(m.market_type === 'total' ? m.low.point : -m.low.point);
      expect(m.window_high).toBe(m.high.point);
      expect(m.window_high).toBeGreaterThan(m.window_low);
      expect(m.low.stake + m.high.stake).toBeCloseTo(1, 3);
      expect(m.middle_probability).toBeGreaterThanOrEqual(0);
      // Sorted by EV, highest first.
    }
    for (let i = 1; i < data.length; i++) expect(data[i - 1].ev_per_100).toBeGreaterThanOrEqual(data[i].ev_per_100);
    // Each leg is a bettable price of the listing at the same instant.
    for (const market of ['spread', 'total']) {
      const res = await t.get(`${BASE}/markets/${market}?date=${day}&as_of=${at}`, pro);
      const bettable = new Set((res.body.data as any[]).filter((e) => e.ev.bettable).map((e) => `${e.game_id}|${e.book_id}|${e.side}|${e.point}|${e.is_live}|${e.odds.decimal}`));
      for (const m of data.filter((x) => x.market_type === market)) {
        for (const leg of [m.low, m.high]) expect(bettable.has(`${m.game_id}|${leg.book_id}|${leg.side}|${leg.point}|${m.is_live}|${leg.odds.decimal}`)).toBe(true);
      }
    }
  });

  test('when the best middle is recomputed with the domain function, then its width and the profits of its two outcomes agree', async () => {
    const [m] = await middles('date=2026-01-24&as_of=2026-01-24T16:30:00Z&market_type=total');
    expect(m).toBeDefined();
    expect(MARGIN_STD_DEV.NBA.total).toBeGreaterThan(0);
    // The mean is the market's median line: not shown, so the check bounds it by the legs' own lines.
    const candidates = [m.window_low, m.window_high].map((mean: number) =>
      findMiddle({ league: 'NBA', market: 'total', low: { line: m.window_low, decimal: m.low.odds.decimal }, high: { line: m.window_high, decimal: m.high.odds.decimal }, mean })!,
    );
    expect(m.profit_if_middle).toBeCloseTo(candidates[0]!.profit_if_middle, 1);
    expect(m.profit_otherwise).toBeCloseTo(candidates[0]!.profit_otherwise, 1);
    expect(m.width).toBe(candidates[0]!.width);
  });

  test('when filtered by live, market_type, book_id and min_ev_per_100, then only those middles come back', async () => {
    const at = '2026-01-24T18:00:00Z';
    const all = await middles(`date=2026-01-24&as_of=${at}`);
    const live = await middles(`date=2026-01-24&as_of=${at}&live=live`);
    const pregame = await middles(`date=2026-01-24&as_of=${at}&live=pregame`);
    expect(live.every((m) => m.is_live)).toBe(true);
    expect(pregame.every((m) => !m.is_live)).toBe(true);
    expect(live.length + pregame.length).toBe(all.length);
    const totals = await middles(`date=2026-01-24&as_of=${at}&market_type=total`);
    expect(totals.every((m) => m.market_type === 'total')).toBe(true);
    const book = all[0].low.book_id;
    const ofBook = await middles(`date=2026-01-24&as_of=${at}&book_id=${book}`);
    expect(ofBook.length).toBeGreaterThan(0);
    expect(ofBook.every((m) => m.low.book_id === book || m.high.book_id === book)).toBe(true);
    const good = await middles(`date=2026-01-24&as_of=${at}&min_ev_per_100=0`);
    expect(good.every((m) => m.ev_per_100 >= 0)).toBe(true);
  });

  test('when asked through GraphQL, then Query.middles answers what REST does', async () => {
    const at = '2026-01-24T16:30:00Z';
    const rest = await middles(`date=2026-01-24&as_of=${at}`);
    const res = await t.graphql(`query ($at: DateTime) { middles(date: "2026-01-24", asOf: $at) { gameId evPer100 low { bookId point } high { bookId point } } }`, { at }, pro);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.middles).toEqual(rest.map((m) => ({ gameId: m.game_id, evPer100: m.ev_per_100, low: { bookId: m.low.book_id, point: m.low.point }, high: { bookId: m.high.book_id, point: m.high.point } })));
  });

  test.each([
    ['market_type=moneyline', 'market_type'],
    ['live=sometimes', 'live'],
    ['min_ev_per_100=lots', 'min_ev_per_100'],
    ['min_ev_per_100=1000', 'min_ev_per_100'],
    ['as_of=2999-01-01T00:00:00Z', 'as_of'],
  ])('when %s is sent, then 400 names the parameter', async (query, name) => {
    const res = await t.get(`${BASE}/markets/middles?${query}`, pro);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(`invalid parameter ${name}`);
  });
});
