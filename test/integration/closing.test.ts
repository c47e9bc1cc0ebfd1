import fc from 'fast-check';
import { americanToDecimal, consensusProbability, devig } from '../../src/domain';
import { ingestDocuments } from '../../src/ingest/ingest';
import { doc, feedPath, readSeries } from '../support/feeds';
import { startTestApp, type TestApp } from '../support/app';
import { openApiChecker } from '../support/openapi';

// Closing lines, CLV and grading on the real captures of 2026-01-24 and 2026-04-29
// (test/fixtures/feeds), through REST and GraphQL. Figures: docs/closing-and-grading.md.

const SERIES = ['nba-2026-01-24.jsonl.gz', 'nba-2026-04-29-playoffs.jsonl.gz'];
const BASE = '/api/v1/nba/odds';
// 264314: listed 17:00Z on 2026-01-24, first captured 05:02Z, final 119-115 (quarters 35-34, 31-24, 27-23, 26-34).
const GAME = 264314;
const DK = 68;

describe('closing lines, CLV and grading', () => {
  let t: TestApp;
  let key: string;
  const post = async (path: string, body: unknown, raw = false) => {
    const res = await fetch(t.baseUrl + BASE + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: raw ? (body as string) : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    t = await startTestApp({ feeds: SERIES.map(feedPath) });
    key = (await t.createKey('pro')).key;
  }, 180_000);
  afterAll(() => t.close());

  describe('GET /closing', () => {
    test('when a game was captured before tip-off, then each outcome closes at its last pregame price, with the capture it came from', async () => {
      const res = await t.get(`${BASE}/closing?game_id=${GAME}`, key);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(60); // 10 books x 3 markets x 2 sides
      const dk = res.body.data.filter((l: any) => l.book_id === DK);
      expect(dk.find((l: any) => l.market_type === 'spread' && l.side === 'home')).toMatchObject({
        book_name: 'DraftKings',
        period: 'full_game',
        point: -11.5,
        price: { american: -112 },
        captured_at: '2026-01-24T15:40:34.000Z',
        missing_reason: null,
        cutoff_at: '2026-01-24T17:00:00.000Z',
        cutoff_source: 'start_time',
        settled: true,
      });
      expect(dk.find((l: any) => l.market_type === 'moneyline' && l.side === 'home')).toMatchObject({ point: null, price: { american: -520 } });
      expect(dk.find((l: any) => l.market_type === 'total' && l.side === 'over')).toMatchObject({ point: 232.5, price: { american: -108 }, captured_at: '2026-01-24T16:41:17.000Z' });
    });

    test('when pregame prices kept moving after tip-off, then no closing line uses them', async () => {
      // The feed kept carrying (and changing) pregame prices of started games: such rows exist...
      const games = await t.db.prisma.game.findMany({ where: { status: { in: ['closed', 'finished'] } } });
      let after = 0;
      for (const g of games) after += await t.db.prisma.oddsHistory.count({ where: { gameId: g.id, isLive: false, seenAt: { gte: g.startTime } } });
      expect(after).toBeGreaterThan(0);
      // ...and no close was captured at or after its cutoff.
      const res = await t.get(`${BASE}/closing?game_id=${games.map((g) => g.id).join(',')}`, key);
      expect(res.body.count).toBeGreaterThan(0);
      for (const l of res.body.data) if (l.captured_at) expect(l.captured_at < l.cutoff_at).toBe(true);
    });

    test('when the service first saw a game in progress, then no book has a close and the reason says so', async () => {
      // 263561: listed 00:00Z, first capture 00:57Z already in progress.
      const res = await t.get(`${BASE}/closing?game_id=263561`, key);
      expect(res.body.count).toBeGreaterThan(0);
      for (const l of res.body.data) expect(l).toMatchObject({ price: null, point: null, captured_at: null, missing_reason: 'no_capture_before_start' });
    });

    test('when one book was first quoted after tip-off, then only that book lacks a close, with its reason', async () => {
      // 264315: Book 510 appears only in captures after the 00:00Z start.
      const res = await t.get(`${BASE}/closing?game_id=264315`, key);
      const missing = res.body.data.filter((l: any) => l.price === null);
      expect(missing).toHaveLength(6);
      for (const l of missing) expect(l).toMatchObject({ book_id: 510, missing_reason: 'not_quoted_before_start' });
    });

    test('when filters are given, then only matching outcomes are listed', async () => {
      const res = await t.get(`${BASE}/closing?game_id=${GAME}&book_id=${DK}&market_type=total&side=under&period=full`, key);
      expect(res.body.count).toBe(1);
      expect(res.body.data[0]).toMatchObject({ book_id: DK, market_type: 'total', side: 'under', point: 232.5, price: { american: -112 } });
      const day = await t.get(`${BASE}/closing?date=2026-01-24&book_id=${DK}&market_type=moneyline&side=home`, key);
      // games listed on the league-local (New York) day of 2026-01-24
      expect(day.body.data.map((l: any) => l.game_id).sort()).toEqual([264312, 264313, 264314, 264315, 264316, 264317, 264318]);
      const none = await t.get(`${BASE}/closing?game_id=${GAME}&period=first_half`, key);
      expect(none.body).toMatchObject({ success: true, count: 0 });
    });

    test.each([
      ['market_type=corners', 'invalid parameter market_type: must be one or more of moneyline, spread, total'],
      ['period=overtime', 'invalid parameter period: must be one or more of full, full_game'],
      ['side=left', 'invalid parameter side: must be one or more of home, away, over, under'],
      ['date=2026-02-30', 'invalid parameter date:'],
      ['game_id=abc', 'invalid parameter game_id:'],
    ])('when %s, then 400 names the parameter', async (query, message) => {
      const res = await t.get(`${BASE}/closing?${query}`, key);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error).toContain(message);
    });

    test('when asked through GraphQL, then closingLines speaks camelCase and UPPER_CASE enums', async () => {
      const res = await t.graphql(
        `{ closingLines(gameId: [${GAME}], bookId: [${DK}], marketType: [SPREAD], side: [HOME]) { bookId marketType side point price { american } capturedAt cutoffSource } }`,
        {},
        key,
      );
      expect(res.body.data.closingLines).toEqual([
        { bookId: DK, marketType: 'SPREAD', side: 'HOME', point: -11.5, price: { american: -112 }, capturedAt: '2026-01-24T15:40:34.000Z', cutoffSource: 'START_TIME' },
      ]);
    });
  });

  describe('as_of on the game routes', () => {
    const dkOutcome = (body: any, market: string, side: string) => body.data.markets[market].outcomes.find((o: any) => o.book_id === DK && o.side === side);

    test('when as_of falls before the start, then the markets are the prices known then', async () => {
      const first = await t.get(`${BASE}/games/${GAME}/markets?book_id=${DK}&as_of=2026-01-24T05:10:00Z`, key);
      expect(first.status).toBe(200);
      const atClose = await t.get(`${BASE}/games/${GAME}/markets?book_id=${DK}&as_of=2026-01-24T16:59:00Z`, key);
      // The closing price was first seen at 15:40:34: as of 16:59 it is the close, as of 05:10 it was not yet.
      expect(dkOutcome(atClose.body, 'spread', 'home')).toMatchObject({ point: -11.5, odds: { american: '-112' }, is_live: false });
      const closing = await t.get(`${BASE}/closing?game_id=${GAME}&book_id=${DK}`, key);
      for (const l of closing.body.data) {
        const o = dkOutcome(atClose.body, l.market_type, l.side);
        expect([o.point, o.odds.american]).toEqual([l.point, (l.price.american > 0 ? '+' : '') + l.price.american]);
      }
      expect(dkOutcome(first.body, 'spread', 'home').odds.american).not.toBe('-112');
      const game = await t.get(`${BASE}/games/${GAME}?as_of=2026-01-24T16:59:00Z&include_boxscore=false`, key);
      expect(game.body.data.markets.spread.outcomes.find((o: any) => o.book_id === DK && o.side === 'home')).toMatchObject({ point: -11.5, odds: { american: '-112' } });
    });

    test('when as_of falls during the game, then the live prices of that moment are shown', async () => {
      const res = await t.get(`${BASE}/games/${GAME}/markets?book_id=${DK}&as_of=2026-01-24T18:00:00Z`, key);
      expect(dkOutcome(res.body, 'moneyline', 'home')).toMatchObject({ is_live: true });
    });

    test('when as_of is before any price, then the game has no outcomes', async () => {
      const res = await t.get(`${BASE}/games/${GAME}/markets?as_of=2026-01-01T00:00:00Z`, key);
      expect(res.body.data.markets.spread).toMatchObject({ count: 0, outcomes: [] });
    });

    test('when as_of is malformed or the plan lacks history, then 400 or 403', async () => {
      const bad = await t.get(`${BASE}/games/${GAME}/markets?as_of=noon`, key);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toContain('invalid parameter as_of: must be an ISO 8601 instant');
      const starter = (await t.createKey('starter')).key;
      const denied = await t.get(`${BASE}/games/${GAME}?as_of=2026-01-24T16:59:00Z`, starter);
      expect(denied.status).toBe(403);
      expect((await t.get(`${BASE}/games/${GAME}`, starter)).status).toBe(200);
    });
  });

  describe('POST /clv', () => {
    const spreadBet = { game_id: GAME, book_id: DK, market_type: 'spread', side: 'home', line: -11.5, price: -110, placed_at: '2026-01-24T12:00:00Z' };

    test('when a spread bet beat the close at its book, then CLV is +2 cents and 112/212 - 110/210 in probability', async () => {
      const res = await post('/clv', { bets: [spreadBet] });
      expect(res.status).toBe(200);
      const clv = res.body.data[0];
      expect(clv).toMatchObject({ index: 0, game_id: GAME, market_type: 'spread', period: 'full_game', side: 'home', line: -11.5, placed_at: '2026-01-24T12:00:00.000Z' });
      expect(clv.book).toMatchObject({ same_line: true, cents: 2, close: { book_id: DK, point: -11.5, price: { american: -112 } } });
      expect(clv.book.implied_probability).toBeCloseTo(112 / 212 - 110 / 210, 12);
      expect(clv.book.implied_probability).toBeCloseTo(0.004492, 6);
    });

    test('when no sharp book quoted the game, then the fair close is the consensus of every real book at the line', async () => {
      const res = await post('/clv', [spreadBet]);
      const clv = res.body.data[0];
      expect(clv).toMatchObject({ sharp: null, sharp_book_id: 4999, sharp_missing_reason: 'not_quoted_before_start', book_missing_reason: null });
      // The eight real books' closing pairs at home -11.5 (Consensus and Open are aggregates).
      const closes = await t.get(`${BASE}/closing?game_id=${GAME}&market_type=spread`, key);
      const real = closes.body.data.filter((l: any) => !l.book_is_aggregate && Math.abs(l.point) === 11.5);
      const books = [...new Set(real.map((l: any) => l.book_id))] as number[];
      expect(books).toHaveLength(8);
      const pairs = books.map((b) => {
        const price = (side: string) => real.find((l: any) => l.book_id === b && l.side === side).price.american;
        return devig([americanToDecimal(price('home')), americanToDecimal(price('away'))], 'power');
      });
      const p = consensusProbability(pairs)[0]!;
      expect(clv.fair).toMatchObject({ devig_method: 'power', source: 'consensus', book_count: 8, reference_line: -11.5, point_adjusted: false });
      expect(clv.fair.probability).toBeCloseTo(p, 12);
      expect(clv.fair.clv_ev_percent).toBeCloseTo((p * americanToDecimal(-110) - 1) * 100, 10);
      expect(clv.fair.clv_probability).toBeCloseTo(p - 110 / 210, 12);
    });

    test('when the bet is at another line than the close, then cents are not given and the fair close is moved to the bet\'s line', async () => {
      const res = await post('/clv', { bets: [{ ...spreadBet, line: -10.5 }], devig: 'shin' });
      const clv = res.body.data[0];
      expect(clv.book).toMatchObject({ same_line: false, cents: null, implied_probability: null });
      expect(clv.fair).toMatchObject({ devig_method: 'shin', point_adjusted: true, reference_line: -11.5 });
      const atClose = (await post('/clv', { bets: [spreadBet], devig: 'shin' })).body.data[0].fair.probability;
      // Laying one point fewer wins more often.
      expect(clv.fair.probability).toBeGreaterThan(atClose);
    });

    test('when a moneyline bet took -500 and the book closed -520, then CLV is +20 cents', async () => {
      const res = await post('/clv', { bets: [{ game_id: GAME, book_id: DK, market_type: 'moneyline', side: 'home', price: -500 }] });
      const clv = res.body.data[0];
      expect(clv.book).toMatchObject({ same_line: true, cents: 20 });
      expect(clv.book.implied_probability).toBeCloseTo(520 / 620 - 500 / 600, 12);
      expect(clv.fair.source).toBe('consensus');
    });

    test('when more bets are given, then each gets its own close and CLV, in order (figures of docs/closing-and-grading.md)', async () => {
      const res = await post('/clv', [
        { game_id: GAME, book_id: DK, market_type: 'total', side: 'over', line: 232.5, price: -105 },
        { game_id: 288538, book_id: DK, market_type: 'moneyline', side: 'away', price: 150 },
      ]);
      const [total, playoff] = res.body.data;
      expect(total).toMatchObject({ index: 0, book: { cents: 3, close: { point: 232.5, price: { american: -108 }, captured_at: '2026-01-24T16:41:17.000Z' } }, fair: { book_count: 3 } });
      expect(total.book.implied_probability).toBeCloseTo(108 / 208 - 105 / 205, 12);
      expect(playoff).toMatchObject({ index: 1, game_id: 288538, book: { cents: -200, close: { price: { american: 350 }, captured_at: '2026-04-29T22:34:00.000Z' } }, fair: { book_count: 8 } });
      expect(playoff.book.implied_probability).toBeCloseTo(100 / 450 - 100 / 250, 12);
    });

    test('when the game has no close at all, then the book close is null with the reason', async () => {
      const res = await post('/clv', { bets: [{ game_id: 263561, book_id: DK, market_type: 'moneyline', side: 'home', price: -150 }] });
      expect(res.status).toBe(200);
      expect(res.body.data[0]).toMatchObject({ book: null, fair: null, book_missing_reason: 'no_capture_before_start' });
    });

    test('when asked through GraphQL, then betClv answers the same', async () => {
      const res = await t.graphql(
        `{ betClv(bets: [{ gameId: ${GAME}, bookId: ${DK}, marketType: SPREAD, side: HOME, line: -11.5, price: -110 }], devigMethod: MULTIPLICATIVE) { book { cents } fair { devigMethod source } } }`,
        {},
        key,
      );
      expect(res.body.data.betClv).toEqual([{ book: { cents: 2 }, fair: { devigMethod: 'MULTIPLICATIVE', source: 'CONSENSUS' } }]);
    });

    const bet = (extra: Record<string, unknown>) => ({ bets: [{ ...spreadBet, ...extra }] });
    test.each([
      ['a body that is not JSON', '{"bets": [', 'invalid parameter body: must be JSON'],
      ['an empty body', '', 'invalid parameter body: is required'],
      ['a body that is a number', '5', 'invalid parameter body: must be a JSON object {"bets": [...]} or a JSON array of bets'],
      ['bets that are not a list', { bets: 'x' }, 'invalid parameter bets: must be a list of bets'],
      ['no bets', { bets: [] }, 'invalid parameter bets: must hold at least one bet'],
      ['501 bets', { bets: Array.from({ length: 501 }, () => spreadBet) }, 'invalid parameter bets: must hold at most 500 bets'],
      ['a bet that is not an object', { bets: [7] }, 'invalid parameter bets[0]: must be a JSON object'],
      ['an unknown field', bet({ stake: 10 }), 'invalid parameter bets[0]: unknown field stake'],
      ['an unknown top-level field', { bets: [spreadBet], method: 'power' }, 'invalid parameter body: unknown field method'],
      ['a missing game', bet({ game_id: undefined }), 'invalid parameter bets[0].game_id: is required'],
      ['an unknown market', bet({ market_type: 'corners' }), 'invalid parameter bets[0].market_type: must be one of moneyline, spread, total'],
      ['an unknown side', bet({ side: 'left' }), 'invalid parameter bets[0].side: must be one of home, away, over, under'],
      ['a side of another market', bet({ side: 'over' }), 'invalid parameter bets[0].side: must be one of home, away for a spread bet'],
      ['an unknown period', bet({ period: 'overtime' }), 'invalid parameter bets[0].period: must be one of full, full_game'],
      ['a line on a moneyline', bet({ market_type: 'moneyline' }), 'invalid parameter bets[0].line: must be absent on a moneyline bet'],
      ['no line on a spread', bet({ line: null }), 'invalid parameter bets[0].line: is required on a spread bet'],
      ['a line that is not a half point', bet({ line: -11.3 }), 'invalid parameter bets[0].line: must be a multiple of 0.5'],
      ['a line that is text', bet({ line: '-11.5' }), 'invalid parameter bets[0].line: must be a number'],
      ['a price inside (-100, 100)', bet({ price: 50 }), 'invalid parameter bets[0].price: must be American odds'],
      ['a price that is text', bet({ price: '-110' }), 'invalid parameter bets[0].price: must be American odds'],
      ['a fractional price', bet({ price: -110.5 }), 'invalid parameter bets[0].price: must be American odds'],
      ['an unknown game', bet({ game_id: 999999 }), 'invalid parameter bets[0].game_id: no game 999999'],
      ['an unknown book', bet({ book_id: 424242 }), 'invalid parameter bets[0].book_id: no sportsbook 424242'],
      ['a bet placed after tip-off', bet({ placed_at: '2026-01-24T17:30:00Z' }), 'invalid parameter bets[0].placed_at: must be before game 264314 went live (2026-01-24T17:00:00.000Z)'],
      ['a malformed placed_at', bet({ placed_at: 'yesterday' }), 'invalid parameter bets[0].placed_at: must be an ISO 8601 instant'],
      ['an unknown de-vig method', { bets: [spreadBet], devig: 'magic' }, 'invalid parameter devig: must be one of multiplicative'],
    ])('when the body has %s, then 400 names it', async (_what, body, message) => {
      const res = await post('/clv', body, typeof body === 'string');
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error).toContain(message);
    });

    test('when bodies are generated from hostile values, then every answer is a 200 or a 400 in the envelope, never a 5xx', async () => {
      const value = fc.oneof(
        fc.constantFrom(null, true, -0, 1e308, -1e308, 2 ** 31, -110, 99, 100, 0.5, '', 'SPREAD', 'Spread', ' over ', '__proto__', '2026-02-30T00:00:00Z', '9'.repeat(40)),
        fc.integer(),
        fc.double(),
        fc.string({ maxLength: 12 }),
      );
      const bet = fc.record(
        {
          game_id: fc.oneof(fc.constant(GAME), value),
          book_id: fc.oneof(fc.constant(DK), value),
          market_type: fc.oneof(fc.constantFrom('moneyline', 'spread', 'total', 'player_props'), value),
          prop_type: fc.oneof(fc.constantFrom('points', 'double_double'), value),
          player_id: fc.oneof(fc.constant(1), value),
          period: value,
          side: fc.oneof(fc.constantFrom('home', 'away', 'over', 'under', 'yes', 'no'), value),
          line: fc.oneof(fc.constantFrom(-11.5, 232.5, 18.5), value),
          price: fc.oneof(fc.constant(-110), value),
          placed_at: value,
        },
        { requiredKeys: [] },
      );
      const body = fc.oneof(value, fc.array(bet, { maxLength: 3 }), fc.record({ bets: fc.oneof(value, fc.array(bet, { maxLength: 3 })), devig: value }, { requiredKeys: [] }));
      await fc.assert(
        fc.asyncProperty(body, fc.constantFrom('/clv', '/grade'), async (b, path) => {
          const res = await post(path, b);
          expect([200, 400]).toContain(res.status);
          expect(res.body.success).toBe(res.status === 200);
        }),
        { numRuns: 150, seed: 14 },
      );
    });

    test('when the body is over 100 kB, then 413 in the envelope', async () => {
      const res = await post('/clv', { bets: [spreadBet], pad: 'x'.repeat(110 * 1024) });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ success: false, error: 'request body too large: the limit is 100 kB' });
    });

    test('when the key is missing, then 401 before the body is read', async () => {
      const res = await fetch(t.baseUrl + BASE + '/clv', { method: 'POST', body: JSON.stringify({ bets: [spreadBet] }) });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { success: boolean }).success).toBe(false);
    });
  });

  test('when the three routes answer, then requests and responses validate against /api/v1/openapi.json', async () => {
    const doc = (await t.get('/api/v1/openapi.json')).body;
    const openapi = openApiChecker(doc);
    const check = openapi.check;
    const op = (path: string, method: string) => openapi.op(BASE + path, method);
    // Error responses are shared components ($ref).
    const deref = openapi.deref;
    check(op('/closing', 'get').responses[200].content['application/json'].schema, (await t.get(`${BASE}/closing?game_id=${GAME},263561`, key)).body);
    const clvBody = { bets: [{ game_id: GAME, book_id: DK, market_type: 'spread', side: 'home', line: -10.5, price: -110, placed_at: '2026-01-24T12:00:00Z' }], devig: 'power' };
    check(op('/clv', 'post').requestBody.content['application/json'].schema, clvBody);
    check(op('/clv', 'post').responses[200].content['application/json'].schema, (await post('/clv', clvBody)).body);
    const gradeBody = [{ game_id: GAME, market_type: 'total', side: 'over', line: 232.5, period: 'full_game' }, { game_id: 264313, market_type: 'moneyline', side: 'home' }];
    check(op('/grade', 'post').requestBody.content['application/json'].schema, gradeBody);
    check(op('/grade', 'post').responses[200].content['application/json'].schema, (await post('/grade', gradeBody)).body);
    check(deref(op('/grade', 'post').responses[400]).content['application/json'].schema, (await post('/grade', { bets: [] })).body);
    expect(op('/clv', 'post').responses[413]).toBeDefined();
  });

  describe('POST /grade and outcome results', () => {
    test.each([
      // 264314, final 119-115
      [{ market_type: 'moneyline', side: 'home' }, 'won', 119, 115],
      [{ market_type: 'moneyline', side: 'away' }, 'lost', 119, 115],
      [{ market_type: 'spread', side: 'home', line: -4 }, 'push', 119, 115],
      [{ market_type: 'spread', side: 'home', line: -3.5 }, 'won', 119, 115],
      [{ market_type: 'spread', side: 'away', line: 11.5 }, 'won', 119, 115],
      [{ market_type: 'total', side: 'over', line: 234 }, 'push', 119, 115],
      [{ market_type: 'total', side: 'over', line: 232.5 }, 'won', 119, 115],
      [{ market_type: 'total', side: 'under', line: 232.5 }, 'lost', 119, 115],
      // periods from the boxscore: first half 66-58, first quarter 35-34, second half 53-57
      [{ market_type: 'moneyline', side: 'home', period: 'first_half' }, 'won', 66, 58],
      [{ market_type: 'total', side: 'over', line: 69.5, period: 'first_quarter' }, 'lost', 35, 34],
      [{ market_type: 'spread', side: 'home', line: 4, period: 'second_half' }, 'push', 53, 57],
    ])('when %j is graded on 264314, then it is %s', async (b, result, home, away) => {
      const res = await post('/grade', { bets: [{ game_id: GAME, ...b }] });
      expect(res.status).toBe(200);
      expect(res.body.data[0]).toMatchObject({ index: 0, game_status: 'closed', result, home_points: home, away_points: away });
      expect(res.body.data[0].graded_at).toEqual(expect.any(String));
    });

    test('when bets on other finals are graded, then their results follow the captured scores', async () => {
      const res = await post('/grade', [
        { game_id: 264312, market_type: 'spread', side: 'away', line: 3.5 }, // 109-112
        { game_id: 264312, market_type: 'total', side: 'under', line: 221.5 },
        { game_id: 288538, market_type: 'moneyline', side: 'away' }, // 116-109
        { game_id: 288538, market_type: 'spread', side: 'home', line: -7 },
        { game_id: 288538, market_type: 'moneyline', side: 'home', period: 'first_quarter' }, // 38-26
      ]);
      expect(res.body.data.map((g: any) => [g.result, g.home_points, g.away_points])).toEqual([
        ['won', 109, 112],
        ['won', 109, 112],
        ['lost', 116, 109],
        ['push', 116, 109],
        ['won', 38, 26],
      ]);
    });

    test('when games were postponed or cancelled, then bets are void; when not played yet, ungraded', async () => {
      const res = await post('/grade', [
        { game_id: 264313, market_type: 'moneyline', side: 'home' }, // postponed
        { game_id: 288545, market_type: 'total', side: 'over', line: 210.5 }, // cancelled
        { game_id: 264353, market_type: 'moneyline', side: 'away' }, // scheduled
        { game_id: 288370, market_type: 'moneyline', side: 'home' }, // finished 125-120, not yet official
      ]);
      expect(res.body.data.map((g: any) => [g.game_status, g.result])).toEqual([
        ['postponed', 'void'],
        ['cancelled', 'void'],
        ['scheduled', null],
        ['finished', 'won'],
      ]);
    });

    test.each([
      ['a side of another market', { bets: [{ game_id: GAME, market_type: 'total', side: 'home', line: 200 }] }, 'invalid parameter bets[0].side: must be one of over, under for a total bet'],
      ['no line on a spread', { bets: [{ game_id: GAME, market_type: 'spread', side: 'home' }] }, 'invalid parameter bets[0].line: is required on a spread bet'],
      ['a field of CLV bets only', { bets: [{ game_id: GAME, market_type: 'spread', side: 'home', line: -4, price: -110 }] }, 'invalid parameter bets[0]: unknown field price'],
      ['an unknown game', { bets: [{ game_id: 1, market_type: 'moneyline', side: 'home' }] }, 'invalid parameter bets[0].game_id: no game 1'],
      ['a line on a moneyline', { bets: [{ game_id: GAME, market_type: 'moneyline', side: 'home', line: 1.5 }] }, 'invalid parameter bets[0].line: must be absent on a moneyline bet'],
    ])('when the grade body has %s, then 400 names it', async (_what, body, message) => {
      const res = await post('/grade', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(message);
    });

    test('when a final game\'s markets are read, then each outcome carries its result at its own point', async () => {
      const res = await t.get(`${BASE}/games/${GAME}/markets?book_id=${DK}`, key);
      const outcome = (m: string, side: string) => res.body.data.markets[m].outcomes.find((o: any) => o.side === side);
      expect(outcome('moneyline', 'home')).toMatchObject({ result: 'won' });
      // The current DraftKings quotes are the live ones frozen at the end, graded at their own points.
      for (const m of ['moneyline', 'spread', 'total']) for (const o of res.body.data.markets[m].outcomes) expect(['won', 'lost', 'push']).toContain(o.result);
      expect(outcome('spread', 'home').graded_at).toEqual(expect.any(String));
    });

    test('when the feed corrects a final score, then the grade changes and graded_at moves to the correction', async () => {
      const bets = { bets: [{ game_id: GAME, market_type: 'spread', side: 'home', line: -4 }] };
      const before = (await post('/grade', bets)).body.data[0];
      expect(before.result).toBe('push');
      const captures = readSeries(SERIES[0]!);
      const last = [...captures].reverse().find((c) => c.body.games.some((g: any) => g.id === GAME))!;
      const body = structuredClone(last.body);
      const game = body.games.find((g: any) => g.id === GAME);
      // A stat correction: two points taken from the home side's fourth quarter.
      game.boxscore.total_home_points = 117;
      game.boxscore.total_home_secondhalf_points = 51;
      game.boxscore.linescore[3].home_points = 24;
      const correctedAt = new Date(new Date(last.fetched_at).getTime() + 3_600_000).toISOString();
      await ingestDocuments([doc(body, correctedAt)], { db: t.db });
      const after = (await post('/grade', bets)).body.data[0];
      expect(after).toMatchObject({ result: 'lost', home_points: 117, away_points: 115, graded_at: correctedAt });
      expect(after.graded_at > before.graded_at).toBe(true);
    });
  });
});
