import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { startTestApp, type TestApp } from '../support/app';

// The market listings (spec 4.5-4.7) end to end: crafted captures (test/fixtures/listings, prices in
// its README) are ingested into a real database, then read over HTTP with an API key.
//
// Clock: 2026-01-08T20:00:00Z, i.e. 15:00 on 2026-01-08 in New York (the league's day). The slate
// capture was fetched at 19:55Z (5 minutes old), the old capture at 19:00Z (60 minutes old).
// Games: A 9100001 (CHA 158 home v IND 168, scheduled), B 9100002 (ATL v MIA, in progress),
// C 9100003 (old capture), all on 2026-01-08 local; D 9100004 on 2026-01-09 local.
//
// Decimal prices: -150 = 1.666667, +140 = 2.4, -160 = 1.625, +135 = 2.35, -155 = 1.645161,
// +145 = 2.45, -110 = 1.909091, -105 = 1.952381, -115 = 1.869565, +110 = 2.1, -130 = 1.769231.

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'listings');
const NOW = new Date('2026-01-08T20:00:00.000Z');
const A = 9100001;
const B = 9100002;
const C = 9100003;
const D = 9100004;

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp({ feeds: [FIXTURES], now: () => NOW });
  key = (await t.createKey('starter')).key;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

type Entry = Record<string, any>;

async function listing(query: string): Promise<Entry[]> {
  const res = await t.get(`/api/v1/nba/odds/markets/${query}`, key);
  expect(res.status).toBe(200);
  expect(res.body.success).toBe(true);
  expect(res.body.count).toBe(res.body.data.length);
  return res.body.data as Entry[];
}

const find = (data: Entry[], gameId: number, bookId: number, side: string, isLive = false) => {
  const entry = data.find((e) => e.game_id === gameId && e.book_id === bookId && e.side === side && e.is_live === isLive);
  if (!entry) throw new Error(`no entry for game ${gameId} book ${bookId} ${side} live=${isLive}`);
  return entry;
};

function expectSortedBy(data: Entry[], key: (e: Entry) => number | null): void {
  for (let i = 1; i < data.length; i++) {
    const prev = key(data[i - 1]!);
    const cur = key(data[i]!);
    if (prev === null) expect(cur).toBeNull();
    else if (cur !== null) expect(prev).toBeGreaterThanOrEqual(cur);
  }
}

describe('GET /markets/moneyline', () => {
  test('when no date is given, then the league-local day of the clock is listed, aggregates left out, best price first', async () => {
    const data = await listing('moneyline');
    // A: 4999, 68, 79 both sides + 1901 home = 7; B: 2 books x 2 sides, pregame and live = 8; C: 4.
    expect(data).toHaveLength(19);
    expect(new Set(data.map((e) => e.game_id))).toEqual(new Set([A, B, C]));
    // Consensus (15) and Open (30) are not places to bet; Open's +300 would otherwise lead the list.
    expect(data.some((e) => e.book_id === 15 || e.book_id === 30)).toBe(false);
    expect(data.every((e) => e.period === 'full_game' && e.market_type === 'moneyline' && e.is_available)).toBe(true);
    expectSortedBy(data, (e) => e.odds.decimal);
    // B live +170 (2.7), B live +165 (2.65), A bet365 +145 (2.45), A Pinnacle +140 (2.4).
    expect(data.slice(0, 4).map((e) => [e.game_id, e.book_id, e.side, e.is_live])).toEqual([
      [B, 79, 'away', true],
      [B, 68, 'away', true],
      [A, 79, 'away', false],
      [A, 4999, 'away', false],
    ]);
    // Equal prices (B pregame: 68 home +110 and 79 away +110) are ordered by game_id, then book_id.
    const i = data.findIndex((e) => e.game_id === B && e.book_id === 68 && e.side === 'home' && !e.is_live);
    expect(data[i + 1]).toMatchObject({ game_id: B, book_id: 79, side: 'away', is_live: false });
    const first = data[0]!;
    // The feed's outcome ids pass 32 bits: served whole, as numbers.
    expect(first.outcome_id).toBeGreaterThan(2 ** 31);
    expect(first).toMatchObject({ team_id: 160, team: { id: 160, abbr: 'MIA' }, odds: { american: '+170', decimal: 2.7 }, book_name: 'bet365' });
    expect(first.point).toBeNull();
  });

  test('when devig=multiplicative, then the sharp book gives the true probability and the EV numbers follow', async () => {
    const data = await listing(`moneyline?game_id=${A}&devig=multiplicative`);
    // Pinnacle (4999, sharp) -150/+140: implied 0.6 and 0.416667, sum 1.016667;
    // true home = 0.6/1.016667 = 0.590164, away = 0.409836.
    const away79 = find(data, A, 79, 'away');
    // bet365 +145 = 2.45: implied 1/2.45 = 0.408163; edge = 0.409836 * 2.45 - 1 = +0.004098 -> 0.41 %.
    expect(away79.ev).toEqual({
      decimal_odds: 2.45,
      implied_probability: 0.4082,
      true_probability: 0.4098,
      break_even_probability: 0.4082,
      edge_percentage: 0.41,
      ev_per_100: 0.41,
      profitable: true,
      stale: false,
      stale_reason: null,
      bettable: true,
      not_bettable_reason: null,
      arbitrage: false,
      devig_method: 'multiplicative',
      reference: 'sharp',
      reference_point: null,
      point_adjusted: false,
      reference_book_count: 1,
      arbitrage_detail: null,
    });
    expect(away79.value).toBe(0.41);
    // Pinnacle -150: 0.590164 * 1.666667 - 1 = -0.016393 -> -1.64 (its own margin).
    expect(find(data, A, 4999, 'home').ev).toMatchObject({ true_probability: 0.5902, edge_percentage: -1.64, ev_per_100: -1.64, profitable: false });
    // DraftKings -160 = 1.625: 0.590164 * 1.625 - 1 = -0.040984 -> -4.10.
    expect(find(data, A, 68, 'home').ev).toMatchObject({ true_probability: 0.5902, ev_per_100: -4.1 });
    // Book 1901 quotes only home -400 = 1.25: 0.590164 * 1.25 - 1 = -0.262295 -> -26.23.
    expect(find(data, A, 1901, 'home').value).toBe(-26.23);
  });

  test('when a book sits far from the consensus, then it is stale although freshly seen', async () => {
    const data = await listing(`moneyline?game_id=${A}&devig=multiplicative`);
    // 1901's -400 implies 0.8 (no away price to de-vig); consensus home = mean of the de-vigged
    // pairs of 4999 (0.590164), 68 (0.591195), 79 (0.598267) = 0.593209; |0.8 - 0.593| > 0.08.
    expect(find(data, A, 1901, 'home').ev.stale).toBe(true);
    // 79's own 0.598267 is 0.005 from the consensus, and 5 minutes old (< 15 pregame).
    expect(data.filter((e) => e.book_id !== 1901).every((e) => e.ev.stale === false)).toBe(true);
  });

  test('when quotes are old for their state, then they are stale: 60 minutes pregame, 5 minutes live', async () => {
    const data = await listing('moneyline');
    // C was last seen 60 minutes ago (> 15 pregame).
    expect(data.filter((e) => e.game_id === C).map((e) => e.ev.stale)).toEqual([true, true, true, true]);
    // B's live quotes were seen 5 minutes ago (> 60 s live); its pregame quotes of the same capture are fresh.
    const b = data.filter((e) => e.game_id === B);
    expect(b.filter((e) => e.is_live).every((e) => e.ev.stale)).toBe(true);
    expect(b.filter((e) => !e.is_live).every((e) => !e.ev.stale)).toBe(true);
  });

  test('when two books price both sides above evens on a game being played, then their pregame prices are no arbitrage and not profitable: they cannot be bet', async () => {
    const data = await listing(`moneyline?game_id=${B}`);
    // Best pregame prices: home +110 (68) and away +110 (79): 1/2.1 + 1/2.1 = 0.952381 < 1, a 5 %
    // arbitrage in figures; but B is in progress, and a book takes no pregame bet on a started game
    // (issue 23: the feed keeps carrying those prices).
    const home68 = find(data, B, 68, 'home');
    expect(home68.ev).toMatchObject({ arbitrage: false, arbitrage_detail: null, bettable: false, not_bettable_reason: 'game_started' });
    expect(find(data, B, 79, 'away').ev).toMatchObject({ arbitrage: false, arbitrage_detail: null, bettable: false });
    // Live prices are a separate market: best home -200 (1.5) and away +170 (2.7): 0.667 + 0.370 > 1.
    expect(data.filter((e) => e.is_live).every((e) => !e.ev.arbitrage)).toBe(true);
    // Consensus of the two pregame books (no sharp book): mirrored prices give 0.5 / 0.5, so 68 home
    // +110: 0.5 * 2.1 - 1 = +5.00 per 100 is still shown, but not as profitable.
    expect(home68.ev).toMatchObject({ reference: 'consensus', reference_book_count: 2, true_probability: 0.5, ev_per_100: 5, profitable: false });
    // Only the pregame prices of B are listed with live=pregame, none of them bettable.
    const pregame = await listing(`moneyline?game_id=${B}&live=pregame`);
    expect(pregame.length).toBeGreaterThan(0);
    expect(pregame.every((e) => !e.is_live && !e.ev.bettable)).toBe(true);
  });

  test('when Open quotes +300, then it makes no arbitrage: aggregates are never a leg', async () => {
    const data = await listing(`moneyline?game_id=${A}`);
    // With Open's 4.0 the away side would give 0.6 + 0.25 < 1; the real books' best is 0.6 + 0.408 > 1.
    expect(data.every((e) => e.ev.arbitrage === false)).toBe(true);
  });

  test('when the devig method changes, then true_probability changes; the default is power', async () => {
    const pick = async (devig: string) => find(await listing(`moneyline?game_id=${A}${devig && `&devig=${devig}`}`), A, 79, 'away').ev;
    // Pinnacle 0.6 / 0.416667 (sum 1.016667):
    // multiplicative: 0.416667 / 1.016667 = 0.409836.
    // additive: 0.416667 - 0.016667/2 = 0.408333 (Shin's two-way result is the same).
    // power: 0.6^k + 0.416667^k = 1 at k = 1.025049: 0.416667^k = 0.407629; at 2.45 the edge is
    //        0.407629 * 2.45 - 1 = -0.13 %, so the bet that looked profitable is not.
    const byDefault = await pick('');
    expect(byDefault).toMatchObject({ devig_method: 'power', true_probability: 0.4076, ev_per_100: -0.13, profitable: false });
    expect(await pick('power')).toEqual(byDefault);
    expect(await pick('multiplicative')).toMatchObject({ true_probability: 0.4098, profitable: true });
    expect(await pick('additive')).toMatchObject({ true_probability: 0.4083, ev_per_100: 0.04 });
    expect(await pick('shin')).toMatchObject({ devig_method: 'shin', true_probability: 0.4083 });
    const worst = await pick('worst_case');
    expect(worst.devig_method).toBe('worst_case');
    expect(worst.true_probability).toBeLessThanOrEqual(0.4076);
    const oddsRatio = await pick('odds_ratio');
    expect(oddsRatio.true_probability).toBeGreaterThan(0.4);
    expect(oddsRatio.true_probability).toBeLessThan(0.42);
  });

  test('when sort=value, then the highest EV comes first, ties by game_id and book_id', async () => {
    const data = await listing('moneyline?sort=value');
    expect(data).toHaveLength(19);
    expectSortedBy(data, (e) => e.value);
    expect(data.every((e) => e.value === e.ev.ev_per_100)).toBe(true);
    // The two +110 legs of B's arbitrage are worth +5.00 each: 68 before 79.
    expect(data.slice(0, 2).map((e) => [e.game_id, e.book_id, e.side, e.value])).toEqual([
      [B, 68, 'home', 5],
      [B, 79, 'away', 5],
    ]);
  });

  test('when book_id filters, then only those books are listed but the sharp reference still counts', async () => {
    for (const query of ['book_id=79,68', 'book_id=79&book_id=68']) {
      const data = await listing(`moneyline?game_id=${A}&devig=multiplicative&${query}`);
      expect(data.map((e) => e.book_id).sort()).toEqual([68, 68, 79, 79]);
      expect(find(data, A, 79, 'away').ev).toMatchObject({ reference: 'sharp', true_probability: 0.4098 });
    }
  });

  test('when team_id filters, then only that team’s outcomes are listed', async () => {
    const data = await listing('moneyline?team_id=158');
    // CHA is A's home team: 4999, 68, 79 and 1901 price it.
    expect(data.map((e) => [e.game_id, e.side, e.team_id])).toEqual(Array(4).fill([A, 'home', 158]));
    expect(await listing('moneyline?team_id=158,160')).toHaveLength(8);
  });

  test('when game_id is given without a date, then the game is listed whatever its day', async () => {
    const data = await listing(`moneyline?game_id=${D}`);
    expect(data.map((e) => e.game_id)).toEqual([D, D]);
    expect(await listing(`moneyline?game_id=${D}&date=2026-01-08`)).toEqual([]);
  });

  test('when date names another day, then that day is listed', async () => {
    const data = await listing('moneyline?date=2026-01-09');
    expect(data.map((e) => e.game_id)).toEqual([D, D]);
    expect(await listing('moneyline?date=2026-01-07')).toEqual([]);
  });

  test('when period=first_half, then only first-half prices are listed', async () => {
    const data = await listing('moneyline?period=first_half&devig=multiplicative');
    // 68's first half -140 (1.714286) / +120 (2.2): implied 0.583333 + 0.454545 = 1.037879;
    // home 0.583333 / 1.037879 = 0.562044; one book, so the consensus is that book.
    expect(data).toHaveLength(2);
    expect(data.every((e) => e.period === 'first_half' && e.book_id === 68)).toBe(true);
    expect(find(data, A, 68, 'home').ev).toMatchObject({ reference: 'consensus', reference_book_count: 1, true_probability: 0.562 });
  });
});

describe('GET /markets/spread', () => {
  test('when listed by default, then the highest value comes first and each point keeps its own reference', async () => {
    const data = await listing('spread?devig=multiplicative');
    // 4999 and 68 at -3.5, 79 at -4.5 (both sides), 1904 home -5.5 only; aggregate 15 left out.
    expect(data).toHaveLength(7);
    expect(data.every((e) => e.game_id === A && e.book_id !== 15)).toBe(true);
    expectSortedBy(data, (e) => e.value);
    // Sharp -110/-110 at -3.5 gives 0.5/0.5; 68 away +3.5 at -105 (1.952381): 0.5 * 1.952381 - 1 = -2.38.
    expect(data[0]).toMatchObject({ book_id: 68, side: 'away', point: 3.5, team_id: 168, value: -2.38 });
    expect(find(data, A, 68, 'away').ev).toMatchObject({ reference: 'sharp', reference_point: 3.5, point_adjusted: false, true_probability: 0.5 });
    // Pinnacle's own -110: 0.5 * 1.909091 - 1 = -4.55.
    expect(find(data, A, 4999, 'home').ev).toMatchObject({ reference: 'sharp', reference_point: -3.5, ev_per_100: -4.55 });
    // Nobody sharp at -4.5: the consensus there is 79 alone, -105/-115: implied 0.512195 + 0.534884 = 1.047079,
    // home 0.489166, away 0.510834; 0.489166 * 1.952381 - 1 = -4.50.
    expect(find(data, A, 79, 'home').ev).toMatchObject({ reference: 'consensus', reference_point: -4.5, true_probability: 0.4892, ev_per_100: -4.5 });
    expect(find(data, A, 79, 'away').ev).toMatchObject({ reference: 'consensus', reference_point: 4.5, true_probability: 0.5108 });
  });

  test('when no book quotes a point two-way, then the nearest reference is moved by the key-number model', async () => {
    const data = await listing('spread?devig=multiplicative');
    // 1904 home -5.5 at +100. Nearest two-way line: -4.5 (79's consensus 0.489166). Market centre:
    // median of the lines -3.5, -3.5, -4.5 = -3.5, i.e. home by 3.5, sd 11.822 (NBA spread: the
    // published 12 pooled with the fit of the stored finals, docs/value-metrics.md).
    // From -4.5 (home wins by 5+) to -5.5 (by 6+) loses P(margin = 5)
    //   = Phi((5.5 - 3.5)/11.822) - Phi((4.5 - 3.5)/11.822) = 0.567171 - 0.533706 = 0.033465,
    // so p = 0.489166 - 0.033465 = 0.455701; edge 0.455701 * 2 - 1 = -8.86.
    expect(find(data, A, 1904, 'home').ev).toMatchObject({
      reference: 'consensus',
      reference_point: -4.5,
      point_adjusted: true,
      true_probability: 0.4557,
      ev_per_100: -8.86,
      stale: false,
    });
  });

  test('when sort=odds and team_id filters, then that team’s prices come best first', async () => {
    const data = await listing('spread?sort=odds&team_id=168');
    // IND is A's away team: +3.5 at -105 (68), +3.5 at -110 (4999), +4.5 at -115 (79).
    expect(data.map((e) => [e.book_id, e.point, e.odds.american])).toEqual([
      [68, 3.5, '-105'],
      [4999, 3.5, '-110'],
      [79, 4.5, '-115'],
    ]);
  });
});

describe('GET /markets/total', () => {
  test('when side filters, then only those sides are listed, as a list, a comma list or repeated', async () => {
    const under = await listing('total?side=under&sort=odds&devig=multiplicative');
    // Unders: 68 -110 at 220.5, 79 -110 at 221.5, 4999 -115 at 220.5.
    expect(under.map((e) => [e.book_id, e.point, e.side])).toEqual([
      [68, 220.5, 'under'],
      [79, 221.5, 'under'],
      [4999, 220.5, 'under'],
    ]);
    // Sharp 220.5 at -105/-115: under 0.510834; 68 under at 1.909091: 0.510834 * 1.909091 - 1 = -2.48.
    expect(under[0]!.ev).toMatchObject({ reference: 'sharp', reference_point: 220.5, true_probability: 0.5108, ev_per_100: -2.48 });
    // 221.5 is 79's alone at -110/-110: 0.5, edge -4.55.
    expect(under[1]!.ev).toMatchObject({ reference: 'consensus', true_probability: 0.5, ev_per_100: -4.55 });
    expect(under.every((e) => e.team_id === null && e.team === null)).toBe(true);
    expect(await listing('total?side=over,under')).toHaveLength(6);
    expect(await listing('total?side=over&side=under')).toHaveLength(6);
  });

  test('when listed by default, then value sorts and 68 under leads', async () => {
    const data = await listing('total?devig=multiplicative');
    expectSortedBy(data, (e) => e.value);
    expect(data[0]).toMatchObject({ book_id: 68, side: 'under', value: -2.48 });
  });
});

describe('bad parameters', () => {
  test.each([
    ['moneyline?sort=best', 'sort'],
    ['moneyline?devig=vig', 'devig'],
    ['spread?period=fifth_quarter', 'period'],
    ['total?side=home', 'side'],
    ['moneyline?date=2026-13-01', 'date'],
    ['moneyline?date=today', 'date'],
    ['spread?game_id=abc', 'game_id'],
    ['moneyline?book_id=0', 'book_id'],
    ['spread?team_id=x', 'team_id'],
    ['total?sort=odds&sort=value', 'sort'],
  ])('when GET /markets/%s, then 400 names %s', async (query, param) => {
    const res = await t.get(`/api/v1/nba/odds/markets/${query}`, key);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(typeof res.body.error).toBe('string');
    expect(res.body.error).toContain(param);
  });

  test('when no API key is sent, then 401', async () => {
    const res = await t.get('/api/v1/nba/odds/markets/moneyline');
    expect(res.status).toBe(401);
    expect(res.body.success).toBe(false);
  });
});

describe('GraphQL marketListing', () => {
  const query = `query ($m: MarketType!, $t: [Int!], $d: DevigMethod) { marketListing(marketType: $m, teamId: $t, devig: $d, gameId: [${A}]) { bookId side value ev { reference } } }`;

  test('when asked for the moneyline of a game, then it returns the same entries as REST', async () => {
    const res = await t.graphql(query, { m: 'MONEYLINE' }, key);
    expect(res.body.errors).toBeUndefined();
    const rest = await listing(`moneyline?game_id=${A}`);
    expect(res.body.data.marketListing.map((e: { bookId: number; side: string; value: number }) => [e.bookId, e.side, e.value])).toEqual(rest.map((e) => [e.book_id, e.side, e.value]));
  });

  test.each([
    [{ m: 'TOTAL', t: [158] }, 'invalid parameter team_id'],
    [{ m: 'PROPS' }, 'does not exist in "MarketType" enum'],
    [{ m: 'moneyline' }, 'does not exist in "MarketType" enum'],
    [{ m: 'SPREAD', d: 'FAIR' }, 'does not exist in "DevigMethod" enum'],
  ])('when the arguments are %j, then the error says %s', async (variables, message) => {
    const res = await t.graphql(query, variables, key);
    expect(res.body.errors?.[0]?.message).toContain(message);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('OpenAPI document', () => {
  test('when the three listings answer, then their bodies (200, 400, 401) validate against /api/v1/openapi.json', async () => {
    const doc = (await t.get('/api/v1/openapi.json')).body;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'openapi', components: doc.components }, 'openapi');
    const check = (route: string, status: number, body: unknown) => {
      const declared = doc.paths[`/api/v1/nba/odds/markets/${route}`].get.responses[status];
      // Error responses are shared components: `#/components/responses/<Name>`.
      const response = declared.$ref ? doc.components.responses[declared.$ref.split('/').pop()] : declared;
      const schema = JSON.parse(JSON.stringify(response.content['application/json'].schema).replaceAll('"#/components', '"openapi#/components'));
      if (!ajv.validate(schema, body)) throw new Error(`${route} ${status}: ${ajv.errorsText(ajv.errors)}`);
    };
    for (const route of ['moneyline', 'spread', 'total']) {
      // Every game, so that arbitrage details, null values and live entries are all in the sample.
      const ok = await t.get(`/api/v1/nba/odds/markets/${route}?game_id=${A},${B},${C},${D}`, key);
      expect(ok.body.count).toBeGreaterThan(0);
      check(route, 200, ok.body);
      check(route, 400, (await t.get(`/api/v1/nba/odds/markets/${route}?sort=x`, key)).body);
      check(route, 401, (await t.get(`/api/v1/nba/odds/markets/${route}`)).body);
    }
  });
});
