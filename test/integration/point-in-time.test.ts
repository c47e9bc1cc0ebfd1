import { consensusProbability, devig } from '../../src/domain';
import { feedPath } from '../support/feeds';
import { startTestApp, type TestApp } from '../support/app';

// Point in time on the real capture series of 2026-01-24 (test/fixtures/feeds): as_of on the market
// listings and the games list, and interval series on /historical, through REST and GraphQL, checked
// against the as_of answer of the one game route (itself checked against the closing lines in
// closing.test.ts). docs/point-in-time.md.

const BASE = '/api/v1/nba/odds';
// 264314: listed 17:00Z on 2026-01-24 (noon in New York), first captured 05:02Z.
const GAME = 264314;
const DK = 68;
// DraftKings' home spread moved to -11.5 at -112 at 15:40:34Z: before it, another price.
const BEFORE_MOVE = '2026-01-24T05:10:00.000Z';
const AFTER_MOVE = '2026-01-24T16:59:00.000Z';

describe('point in time', () => {
  let t: TestApp;
  let pro: string;
  let starter: string;
  let aggregates: Set<number>;

  beforeAll(async () => {
    t = await startTestApp({ feeds: [feedPath('nba-2026-01-24.jsonl.gz')] });
    pro = (await t.createKey('pro')).key;
    starter = (await t.createKey('starter')).key;
    aggregates = new Set((await t.db.prisma.sportsbook.findMany({ where: { isAggregate: true } })).map((b) => b.id));
  }, 180_000);
  afterAll(() => t.close());

  const gameAsOf = async (at: string, query = '') => {
    const res = await t.get(`${BASE}/games/${GAME}/markets?as_of=${at}${query}`, pro);
    expect(res.status).toBe(200);
    return res.body.data.markets as Record<string, { outcomes: any[] }>;
  };

  /** The line of a two-way pair: the home handicap (spread), the total, 0 (moneyline). */
  const lineOf = (o: any) => (o.market_type === 'moneyline' ? 0 : o.market_type === 'spread' && o.side === 'away' ? -o.point : o.point);

  /**
   * The reference probability of `side` at `line` from the real books' prices of a market, with no
   * sharp book quoting the game: the mean of every book's power-de-vigged pair at that line.
   */
  function consensusAt(outcomes: any[], sides: [string, string], side: string, line: number): number {
    const pairs: number[][] = [];
    for (const book of new Set(outcomes.map((o) => o.book_id))) {
      if (aggregates.has(book)) continue;
      const [a, b] = sides.map((s) => outcomes.find((o) => o.book_id === book && o.side === s));
      if (!a || !b || lineOf(a) !== line || lineOf(b) !== line) continue;
      pairs.push(devig([a.odds.decimal, b.odds.decimal], 'power'));
    }
    return consensusProbability(pairs)[sides.indexOf(side)]!;
  }

  describe('as_of on the market listings', () => {
    const listing = async (market: string, at: string, query = '') => {
      const res = await t.get(`${BASE}/markets/${market}?game_id=${GAME}&as_of=${at}${query}`, pro);
      expect(res.status).toBe(200);
      return res.body.data as any[];
    };

    test('when as_of falls before a price move, then the listing shows the old price, and its EV is computed from the prices known then', async () => {
      const before = await listing('spread', BEFORE_MOVE);
      const after = await listing('spread', AFTER_MOVE);
      const dk = (data: any[]) => data.find((e) => e.book_id === DK && e.side === 'home');
      expect(dk(after)).toMatchObject({ point: -11.5, odds: { american: '-112' }, is_live: false });
      expect(dk(before).odds.american).not.toBe('-112');

      for (const [at, data] of [
        [BEFORE_MOVE, before],
        [AFTER_MOVE, after],
      ] as const) {
        const outcomes = (await gameAsOf(at, '&market_type=spread')).spread!.outcomes;
        // Every real book's price as the game showed it then, and nothing else.
        expect(data.map((e) => `${e.book_id}|${e.side}|${e.point}|${e.odds.american}`).sort()).toEqual(
          outcomes.filter((o) => !aggregates.has(o.book_id)).map((o) => `${o.book_id}|${o.side}|${o.point}|${o.odds.american}`).sort(),
        );
        const e = dk(data);
        const p = consensusAt(outcomes, ['home', 'away'], 'home', lineOf({ ...e, market_type: 'spread' }));
        expect(e.ev).toMatchObject({ reference: 'consensus', devig_method: 'power', point_adjusted: false, decimal_odds: e.odds.decimal });
        expect(e.ev.true_probability).toBeCloseTo(p, 4);
        expect(e.ev.implied_probability).toBeCloseTo(1 / e.odds.decimal, 4);
        // odds.decimal is shown at 4 places, ev_per_100 computed from the full price: 1 place here.
        expect(e.ev.ev_per_100).toBeCloseTo((p * e.odds.decimal - 1) * 100, 1);
        expect(e.value).toBe(e.ev.ev_per_100);
        // Confirmed when its game last changed by then, whatever the scope read: the listing (one market)
        // and the game route (every market) agree.
        const same = outcomes.find((o) => o.book_id === DK && o.side === 'home');
        expect(e.confirmed_at).toBe(same.confirmed_at);
        expect(Date.parse(same.price_changed_at)).toBeLessThanOrEqual(Date.parse(e.confirmed_at));
        // Ages are measured at the instant, from when the price was last confirmed by then.
        expect(Date.parse(e.confirmed_at)).toBeLessThanOrEqual(Date.parse(at));
        expect(e.age_seconds).toBe(Math.floor((Date.parse(at) - Date.parse(e.confirmed_at)) / 1000));
      }
    });

    test('when as_of is given on the moneyline listing, then each true probability is the consensus of the books then', async () => {
      const data = await listing('moneyline', BEFORE_MOVE, '&devig=power');
      const outcomes = (await gameAsOf(BEFORE_MOVE, '&market_type=moneyline')).moneyline!.outcomes;
      expect(data.length).toBe(outcomes.filter((o) => !aggregates.has(o.book_id)).length);
      for (const e of data) {
        expect(e.ev.true_probability).toBeCloseTo(consensusAt(outcomes, ['home', 'away'], e.side, 0), 4);
        const o = outcomes.find((x) => x.book_id === e.book_id && x.side === e.side);
        expect(e.odds).toEqual(o.odds);
      }
      // Sorted by price as the current listing is.
      const decimals = data.map((e) => e.odds.decimal);
      expect(decimals).toEqual([...decimals].sort((a, b) => b - a));
    });

    test('when as_of is given without date or game, then the listing covers the league-local day of the instant', async () => {
      const res = await t.get(`${BASE}/markets/total?as_of=${AFTER_MOVE}`, pro);
      expect(res.status).toBe(200);
      const day = await t.get(`${BASE}/games?date=2026-01-24&include_boxscore=false&include_markets=false`, pro);
      const ids = new Set(day.body.data.map((g: any) => g.game_id));
      expect(res.body.data.length).toBeGreaterThan(0);
      expect(res.body.data.every((e: any) => ids.has(e.game_id))).toBe(true);
    });

    test('when as_of falls during the game, then the live prices of then are listed, flagged live', async () => {
      const data = await listing('moneyline', '2026-01-24T18:00:00Z', `&book_id=${DK}`);
      expect(data.find((e) => e.side === 'home')).toMatchObject({ is_live: true });
    });

    test('when asked through GraphQL, then marketListing(asOf:) answers what REST does', async () => {
      const rest = await listing('spread', BEFORE_MOVE, `&book_id=${DK}`);
      const res = await t.graphql(
        `query ($at: DateTime) { marketListing(marketType: SPREAD, gameId: [${GAME}], bookId: [${DK}], asOf: $at) { bookId side point odds { american } ev { trueProbability evPer100 } } }`,
        { at: BEFORE_MOVE },
        pro,
      );
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.marketListing).toEqual(
        rest.map((e) => ({ bookId: e.book_id, side: e.side, point: e.point, odds: { american: e.odds.american }, ev: { trueProbability: e.ev.true_probability, evPer100: e.ev.ev_per_100 } })),
      );
    });

    test('when as_of is in the past, then the answer may be kept 5 minutes, and one instant written two ways is one cache entry', async () => {
      const a = await t.get(`${BASE}/markets/spread?game_id=${GAME}&as_of=2026-01-24T05:10:00Z`, pro);
      const b = await t.get(`${BASE}/markets/spread?game_id=${GAME}&as_of=2026-01-24T00:10:00-05:00`, pro);
      const now = await t.get(`${BASE}/markets/spread?game_id=${GAME}`, pro);
      expect(a.headers.get('cache-control')).toBe('private, max-age=300');
      expect(now.headers.get('cache-control')).toBe('private, max-age=5');
      expect(b.headers.get('etag')).toBe(a.headers.get('etag'));
      const later = await t.get(`${BASE}/markets/spread?game_id=${GAME}&as_of=${AFTER_MOVE}`, pro);
      expect(later.headers.get('etag')).not.toBe(a.headers.get('etag'));
    });
  });

  describe('as_of on the games list', () => {
    test('when as_of is given, then each game of the page shows the markets the one game route shows at that instant', async () => {
      const res = await t.get(`${BASE}/games?date=2026-01-24&include_boxscore=false&as_of=${BEFORE_MOVE}`, pro);
      expect(res.status).toBe(200);
      const listed = res.body.data.find((g: any) => g.game_id === GAME);
      const one = await t.get(`${BASE}/games/${GAME}?include_boxscore=false&as_of=${BEFORE_MOVE}`, pro);
      expect(listed.markets).toEqual(one.body.data.markets);
      const now = await t.get(`${BASE}/games?date=2026-01-24&include_boxscore=false`, pro);
      const current = now.body.data.find((g: any) => g.game_id === GAME);
      expect(listed.markets).not.toEqual(current.markets);
      // Status and score have no history: they are the game as it is now.
      expect([listed.status, listed.home_score]).toEqual([current.status, current.home_score]);
    });

    test('when asked through GraphQL, then games(asOf:) pages the same games', async () => {
      const res = await t.graphql(`{ games(date: "2026-01-24", asOf: "${BEFORE_MOVE}", limit: 2) { total items { gameId } } }`, {}, pro);
      expect(res.body.errors).toBeUndefined();
      const rest = await t.get(`${BASE}/games?date=2026-01-24&limit=2&include_markets=false&include_boxscore=false&as_of=${BEFORE_MOVE}`, pro);
      expect(res.body.data.games.total).toBe(rest.body.pagination.total);
      expect(res.body.data.games.items.map((g: any) => g.gameId)).toEqual(rest.body.data.map((g: any) => g.game_id));
    });
  });

  describe('interval on /historical', () => {
    const series = (query: string) => t.get(`${BASE}/historical?start_date=2026-01-24&end_date=2026-01-24&game_id=${GAME}&${query}`, pro);

    test('when interval=1h, then the game has one snapshot per hour from its first price on, each equal to the as_of answer then', async () => {
      const res = await series('interval=1h&include_boxscore=false');
      expect(res.status).toBe(200);
      // The league-local day runs 05:00Z to 05:00Z; the first price was seen at 05:02Z, so 06:00Z .. 04:00Z.
      expect(res.body.pagination).toEqual({ limit: 100, offset: 0, total: 23, has_more: false });
      const instants = res.body.data.map((s: any) => s.fetched_at);
      expect(instants[0]).toBe('2026-01-24T06:00:00.000Z');
      expect(instants[22]).toBe('2026-01-25T04:00:00.000Z');
      expect(res.body.data.every((s: any) => s.game.game_id === GAME && s.date === '20260124')).toBe(true);
      // Before the move, just after it, during the game.
      for (const i of [0, 10, 12]) {
        const s = res.body.data[i];
        const one = await t.get(`${BASE}/games/${GAME}?include_boxscore=false&as_of=${s.fetched_at}`, pro);
        expect(s.game.markets).toEqual(one.body.data.markets);
      }
      expect(res.body.data[0].game.markets).not.toEqual(res.body.data[12].game.markets);
    });

    test('when a series is paged, then the pages follow each other and the total stays the same', async () => {
      const whole = await series('interval=1h&include_boxscore=false');
      const page = await series('interval=1h&include_boxscore=false&limit=5&offset=20');
      expect(page.body).toMatchObject({ count: 3, pagination: { limit: 5, offset: 20, total: 23, has_more: false } });
      expect(page.body.data).toEqual(whole.body.data.slice(20));
      const first = await series('interval=1h&limit=5');
      expect(first.body.pagination).toEqual({ limit: 5, offset: 0, total: 23, has_more: true });
    });

    test('when several games share the range, then each has its own series, games in start order', async () => {
      const all = await t.get(`${BASE}/historical?start_date=2026-01-24&end_date=2026-01-24&interval=6h&market_type=moneyline&limit=288&include_boxscore=false`, pro);
      expect(all.status).toBe(200);
      const ids: number[] = all.body.data.map((s: any) => s.game.game_id);
      // Contiguous per game: a game id never comes back once another started.
      expect(ids.filter((id, i) => i === 0 || ids[i - 1] !== id)).toEqual([...new Set(ids)]);
      expect(all.body.pagination.total).toBe(ids.length);
      expect(ids.length).toBeGreaterThan(new Set(ids).size);
    });

    test('when asked through GraphQL, then historicalOdds(interval:) gives the same instants', async () => {
      const res = await t.graphql(
        `{ historicalOdds(startDate: "2026-01-24", endDate: "2026-01-24", gameId: [${GAME}], interval: "6h") { total items { fetchedAt game { gameId } } } }`,
        {},
        pro,
      );
      expect(res.body.errors).toBeUndefined();
      // 6-hour instants of the day: 05:00Z (before the first price, 05:02Z: left out), 11:00, 17:00, 23:00.
      expect(res.body.data.historicalOdds.total).toBe(3);
      expect(res.body.data.historicalOdds.items.map((s: any) => s.fetchedAt)).toEqual(['2026-01-24T11:00:00.000Z', '2026-01-24T17:00:00.000Z', '2026-01-24T23:00:00.000Z']);
    });
  });

  describe('the cost of a page', () => {
    const series = (query: string) => t.get(`${BASE}/historical?start_date=2026-01-24&end_date=2026-01-24&game_id=${GAME}&${query}`, pro);

    test('when a series page would cost more than the budget, then 400 names its cost and the limit that fits, before any price is read', async () => {
      const res = await series('interval=5m&limit=100');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: expect.stringMatching(/^invalid parameter limit: this page would hold 100 snapshots costing 100 .*at most 25 per request: ask for limit=25 or fewer/),
      });
    });

    test('when the page is narrowed to one book and market type, then each snapshot costs less and the limit that fits grows', async () => {
      const narrowed = await series('interval=5m&limit=100&book_id=15&market_type=moneyline');
      expect(narrowed.status).toBe(400);
      // 0.25 + 0.75 x 1/10 x 1/3 = 0.275 each: 90 fit in 25
      expect(narrowed.body.error).toContain('ask for limit=90 or fewer');
      const fits = await series('interval=5m&limit=90&book_id=15&market_type=moneyline');
      expect(fits.status).toBe(200);
      expect(fits.body.count).toBe(90);
    });

    test('when the same page is asked through GraphQL, then it is refused the same way', async () => {
      const res = await t.graphql(`{ historicalOdds(startDate: "2026-01-24", endDate: "2026-01-24", interval: "5m", limit: 26) { total } }`, {}, pro);
      expect(res.body.errors[0].message).toMatch(/^invalid parameter limit: this page would hold 26 snapshots/);
      expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    });
  });

  describe('refusals', () => {
    test.each([
      ['/markets/spread?as_of=noon', 'invalid parameter as_of: must be an ISO 8601 instant'],
      ['/markets/total?as_of=2999-01-01T00:00:00Z', 'invalid parameter as_of: must not be in the future'],
      ['/games?as_of=2026-13-01', 'invalid parameter as_of: must be an ISO 8601 instant'],
      ['/games?as_of=2999-01-01T00:00:00Z', 'invalid parameter as_of: must not be in the future'],
      ['/games/264314?as_of=2999-01-01', 'invalid parameter as_of: must not be in the future'],
      ['/historical?start_date=2026-01-24&end_date=2026-01-24&interval=5s', 'invalid parameter interval: must be a whole number followed by m, h or d'],
      ['/historical?start_date=2026-01-24&end_date=2026-01-24&interval=0m', 'invalid parameter interval: must be a whole number followed by m, h or d'],
      ['/historical?start_date=2026-01-24&end_date=2026-01-24&interval=1h&interval=2h', 'invalid parameter interval: must be given once'],
      ['/historical?start_date=2026-01-24&end_date=2026-01-24&interval=1h&at=2026-01-24T12:00:00Z', 'invalid parameter at: not allowed with interval'],
      ['/historical?start_date=2026-01-24&end_date=2026-01-24&interval=1h&limit=289', 'invalid parameter limit: must be an integer from 1 to 288 with interval'],
      ['/historical?start_date=2026-01-01&end_date=2026-01-31&interval=5m', 'invalid parameter interval: gives 8928 instants from start_date to end_date; at most 2016'],
    ])('when %s is asked for, then 400 says what is wrong', async (path, message) => {
      const res = await t.get(BASE + path, pro);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error).toContain(message);
    });

    test.each([
      [`/markets/moneyline?as_of=${BEFORE_MOVE}`, '/markets/moneyline'],
      [`/games?as_of=${BEFORE_MOVE}`, '/games'],
      [`/historical?start_date=2026-01-24&end_date=2026-01-24&interval=1h`, null],
    ])('when a Starter key asks for %s, then 403 (and 200 without the instant)', async (path, without) => {
      const res = await t.get(BASE + path, starter);
      expect(res.status).toBe(403);
      expect(res.body.error).toContain('requires the Pro or Elite plan');
      if (without) expect((await t.get(BASE + without, starter)).status).toBe(200);
    });

    test('when GraphQL is given a bad interval or a future asOf, then BAD_USER_INPUT names the argument', async () => {
      const bad = await t.graphql(`{ historicalOdds(startDate: "2026-01-24", endDate: "2026-01-24", interval: "1w") { total } }`, {}, pro);
      expect(bad.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
      expect(bad.body.errors[0].message).toContain('invalid parameter interval');
      const future = await t.graphql(`{ marketListing(marketType: TOTAL, asOf: "2999-01-01T00:00:00Z") { bookId } }`, {}, pro);
      expect(future.body.errors[0].message).toContain('invalid parameter as_of: must not be in the future');
    });
  });
});
