import { FEED } from '../../src/ingest/feeds/actionnetwork/schema';
import { marketsCertainlyValid } from '../../src/ingest/feeds/actionnetwork/markets-check';
import { normalizeDocument, parseFeedDocument } from '../../src/ingest/feeds/actionnetwork/normalize';
import { readFeed, readSeries } from '../support/feeds';
import { simulatedEvening } from '../support/simulated';

// The hand-written markets check of the ingest's fast path (src/ingest/feeds/actionnetwork/markets-check.ts)
// must never accept what the zod schema refuses (a refusal then falls back to zod for its message), and
// must accept the real captures (else the fast path is never taken).

/** A real outcome of the full shape (with bet_info) and the markets it sits in. */
function realMarkets(): { markets: any; outcome: any } {
  const doc = readFeed('nba-2026-01-08-scheduled.json');
  for (const game of doc.games) {
    for (const periods of Object.values<any>(game.markets ?? {})) {
      for (const outcome of periods.event?.spread ?? []) if (outcome.bet_info) return { markets: game.markets, outcome };
    }
  }
  throw new Error('no outcome with bet_info in the capture');
}

const WRONG_VALUES: unknown[] = [undefined, null, 'x', '', 1.5, 2, -0, Number.NaN, Infinity, 2 ** 60, 2 ** 31, -(2 ** 31) - 1, 2 ** 40, true, {}, [], [1], { percent: 'x' }];
const FIELDS = ['outcome_id', 'book_id', 'side', 'team_id', 'odds', 'value', 'is_live', 'line_status', 'is_alt_market', 'bet_info'];

describe('the markets check of the ingest fast path', () => {
  test('when every game of the real series is checked, then the check accepts its markets as zod does', () => {
    let games = 0;
    for (const file of ['nba-2026-01-24.jsonl.gz', 'nba-2026-04-29-playoffs.jsonl.gz']) {
      for (const { body } of readSeries(file)) {
        for (const game of (body as any).games) {
          games++;
          expect(FEED.markets.nullish().safeParse(game.markets).success).toBe(true);
          expect(marketsCertainlyValid(game.markets)).toBe(true);
        }
      }
    }
    expect(games).toBeGreaterThan(100);
  });

  test('when the simulator writes an evening of documents, then their markets take the fast path too', () => {
    let games = 0;
    for (const body of simulatedEvening()) {
      for (const game of body.games) {
        games++;
        expect(marketsCertainlyValid(game.markets)).toBe(true);
      }
    }
    expect(games).toBeGreaterThan(0);
  });

  test.each(FIELDS)('when outcome field %s takes each wrong or odd value, then the check never accepts what zod refuses', (field) => {
    const { markets, outcome } = realMarkets();
    const original = outcome[field];
    let refusedByZod = 0;
    for (const value of WRONG_VALUES) {
      if (value === undefined) delete outcome[field];
      else outcome[field] = value;
      const zodAccepts = FEED.markets.safeParse(markets).success;
      if (!zodAccepts) {
        refusedByZod++;
        expect([field, value, marketsCertainlyValid(markets)]).toEqual([field, value, false]);
      }
      outcome[field] = original;
    }
    expect(refusedByZod).toBeGreaterThan(0);
  });

  test.each([
    ['tickets', 'x'],
    ['tickets', { percent: 'x' }],
    ['money', { percent: Number.NaN }],
    ['money', [1]],
  ])('when bet_info.%s is %p, then the check refuses it as zod does', (figure, value) => {
    const { markets, outcome } = realMarkets();
    outcome.bet_info[figure] = value;
    expect(FEED.markets.safeParse(markets).success).toBe(false);
    expect(marketsCertainlyValid(markets)).toBe(false);
  });

  test.each([
    ['markets that are a list', () => [1]],
    ['a book id that is not a number', (m: any) => ({ draftkings: Object.values(m)[0] })],
    ['a period that is a list', (m: any) => ({ [Object.keys(m)[0]!]: [] })],
    ['outcomes that are not a list', (m: any) => ({ [Object.keys(m)[0]!]: { event: { spread: {} } } })],
    ['an outcome that is a hole in its list', (m: any) => ({ [Object.keys(m)[0]!]: { event: { spread: new Array(2) } } })],
  ])('when the markets have %s, then the check refuses them as zod does', (_what, make) => {
    const markets = make(realMarkets().markets);
    expect(FEED.markets.safeParse(markets).success).toBe(false);
    expect(marketsCertainlyValid(markets)).toBe(false);
  });

  test('when an outcome is not a plain object, then the check is unsure and the document gets the whole zod parse', () => {
    const body = readFeed('nba-2026-01-08-scheduled.json');
    const book = Object.keys(body.games[0].markets)[0]!;
    const outcomes = body.games[0].markets[book].event.spread;
    // zod takes any object for an object; the check takes only plain ones, so this one goes to zod
    outcomes[0] = Object.assign(new Date(0), outcomes[0]);
    expect(marketsCertainlyValid(body.games[0].markets)).toBe(false);
    expect(FEED.markets.safeParse(body.games[0].markets).success).toBe(true);
    expect(normalizeDocument(body, 'unsure.json').quotes).toEqual(normalizeDocument(readFeed('nba-2026-01-08-scheduled.json'), 'plain.json').quotes);
  });

  test('when a document passes the fast path, then it normalises to the same rows as the whole zod parse', () => {
    for (const { body } of readSeries('nba-2026-01-24.jsonl.gz').slice(0, 20)) {
      const fast = normalizeDocument(body, 'fast.json');
      const viaZod = FEED.document.parse(body);
      expect(parseFeedDocument(body, 'fast.json').games.map((g) => g.id)).toEqual(viaZod.games.map((g) => g.id));
      expect(fast).toEqual(normalizeDocument(viaZod, 'zod.json'));
    }
  });

  test('when an outcome deep in a document is malformed, then the refusal names it as the whole zod parse does', () => {
    const body = readFeed('nba-2026-01-08-scheduled.json');
    const book = Object.keys(body.games[1].markets)[0]!;
    body.games[1].markets[book].event.moneyline[0].odds = '-110';
    expect(() => normalizeDocument(body, 'bad.json')).toThrow(`bad.json: games[1].markets["${book}"].event.moneyline[0].odds: Invalid input: expected number, received string`);
  });
});
