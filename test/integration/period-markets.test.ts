import { io as connect } from 'socket.io-client';
import { PERIOD_TABLE, PERIODS, type Period } from '../../src/domain';
import { ingestDocuments } from '../../src/ingest/ingest';
import { readSources, type SourceDocument } from '../../src/ingest/sources';
import { startTestApp, type TestApp } from '../support/app';
import { feedPath } from '../support/feeds';
import { waitFor } from './live-helpers';

// The period markets of The Odds API (`h2h_h1`, `spreads_q3`, `totals_h2`, ... issue 36, point 4)
// end to end: ingested from the event-odds endpoint, served per period by /games/:id/markets, listed
// with value metrics for every period, pushed live, and in the history that line movement reads. No
// real capture carries these keys: the fixture keeps a real game's full-game prices and derives the
// period markets from them in the documented shape (test/fixtures/feeds/theoddsapi/
// make-period-markets.mjs says how), with one off-market price (value) and one arbitrage in it.

const FIXTURE = 'theoddsapi/period-markets-documented.jsonl';
const BASE = '/api/v1/nba/odds';
const KEYS: Record<string, string> = { h2h: 'moneyline', spreads: 'spread', totals: 'total' };
const BOOK_IDS: Record<string, number> = {
  draftkings: 68, fanduel: 69, betmgm: 75, williamhill_us: 123, betrivers: 71, fanatics: 2988,
  betonlineag: 6001, betus: 6002, bovada: 6003, lowvig: 6004, mybookieag: 6005,
};
const PERIOD_OF_SUFFIX = Object.fromEntries(PERIODS.map((p) => [PERIOD_TABLE[p].oddsApiSuffix, p])) as Record<string, Period>;

interface Price {
  key: string;
  period: Period;
  market: string;
  bookId: number;
  side: string;
  american: number;
  point: number | null;
}

/** Every price of a capture's event, keyed as the service keys a quote (book, market, period, side). */
function pricesOf(document: SourceDocument): Price[] {
  const event = document.body as { home_team: string; bookmakers: Array<{ key: string; markets: Array<{ key: string; outcomes: Array<{ name: string; price: number; point?: number }> }> }> };
  const out: Price[] = [];
  for (const book of event.bookmakers) {
    for (const m of book.markets) {
      const [, base, suffix] = /^([a-z0-9]+?)(?:_(h[12]|q[1-4]))?$/.exec(m.key)!;
      const market = KEYS[base!]!;
      const period = PERIOD_OF_SUFFIX[suffix ?? '']!;
      for (const o of m.outcomes) {
        const side = market === 'total' ? o.name.toLowerCase() : o.name === event.home_team ? 'home' : 'away';
        const bookId = BOOK_IDS[book.key]!;
        out.push({ key: `${bookId}|${market}|${period}|${side}`, period, market, bookId, side, american: o.price, point: market === 'moneyline' ? null : (o.point ?? null) });
      }
    }
  }
  return out;
}

describe('period markets of The Odds API: ingested, served, listed, pushed and in the history', () => {
  let t: TestApp;
  let key: string;
  let gameId: number;
  const captures: SourceDocument[] = [];
  // Between the second pregame capture and tip-off (23:30Z), until the in-play capture is ingested.
  let now = new Date('2026-07-17T23:05:00Z');

  beforeAll(async () => {
    for await (const d of readSources(feedPath(FIXTURE))) captures.push(d);
    t = await startTestApp({ now: () => now });
    await ingestDocuments(captures.slice(0, 2), { db: t.db, bus: t.bus });
    const game = await t.db.prisma.game.findFirstOrThrow({ where: { meta: { path: ['source_ids', 'the-odds-api'], equals: '4a1af047b50cc335d69665ae9b499206' } } });
    gameId = game.id;
    key = (await t.createKey('pro')).key;
  }, 120_000);
  afterAll(() => t?.close());

  test('when a game is asked for one period, then /games/:id/markets serves that period of every market at every book, as last captured', async () => {
    const expected = pricesOf(captures[1]!);
    expect(new Set(expected.map((p) => p.period))).toEqual(new Set(PERIODS));
    for (const period of PERIODS) {
      const res = await t.get(`${BASE}/games/${gameId}/markets?period=${period}`, key);
      expect(res.status).toBe(200);
      const served = ['moneyline', 'spread', 'total'].flatMap((m) => res.body.data.markets[m].outcomes as any[]);
      const got = served.map((o) => `${o.book_id}|${o.market_type}|${o.period}|${o.side}|${Number(o.odds.american)}|${o.point}`).sort();
      const want = expected.filter((p) => p.period === period).map((p) => `${p.key}|${p.american}|${p.point}`).sort();
      expect(got).toEqual(want);
      expect(got.length).toBe(11 * 6);
    }
  });

  test('when a listing is asked for a period, then its entries are that period with value metrics: the off-market price is profitable, the two books make an arbitrage', async () => {
    for (const period of PERIODS) {
      const res = await t.get(`${BASE}/markets/spread?date=2026-07-17&period=${period}`, key);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBe(22);
      expect(res.body.data.every((e: any) => e.period === period && e.game_id === gameId && typeof e.ev.ev_per_100 === 'number')).toBe(true);
    }
    // FanDuel's home spread of the first quarter at +120 against a market near -110.
    const q1 = await t.get(`${BASE}/markets/spread?date=2026-07-17&period=first_quarter`, key);
    const value = q1.body.data.filter((e: any) => e.ev.profitable);
    expect(value.map((e: any) => [e.book_id, e.side, e.odds.american])).toEqual([[69, 'home', '+120']]);
    expect(q1.body.data[0]).toMatchObject({ book_id: 69, side: 'home' }); // sorted by value
    // Under +105 at one book makes an arbitrage with every over at -104 or better at that line (the
    // over +110 put beside it, and one book's -104): 1/2.05 + 1/1.9615 < 1. No other price does.
    const h2 = await t.get(`${BASE}/markets/total?date=2026-07-17&period=second_half`, key);
    const arbitrage = h2.body.data.filter((e: any) => e.ev.arbitrage);
    expect(arbitrage.map((e: any) => [e.side, e.odds.american]).sort()).toEqual([['over', '+110'], ['over', '-104'], ['under', '+105']]);
    expect(new Set(arbitrage.map((e: any) => e.point)).size).toBe(1);
    // An unknown period is refused with the list.
    const bad = await t.get(`${BASE}/markets/total?period=fifth_quarter`, key);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('period');
  });

  test('when the game starts and is captured in play, then a live client is pushed every period and ends with GET /live, and movement reads each period from the history', async () => {
    const socket = connect(`${t.baseUrl}/live-odds`, { auth: { apiKey: key }, transports: ['websocket'], reconnection: false, forceNew: true });
    const changes: any[] = [];
    socket.on('odds_change', (d) => changes.push(d));
    try {
      await waitFor('the snapshot', () => socket.connected);
      await new Promise((resolve) => socket.once('live_odds', resolve));
      now = new Date('2026-07-18T00:16:00Z');
      await ingestDocuments(captures.slice(2), { db: t.db, bus: t.bus });
      await waitFor('the delta of the game going live', () => changes.some((d) => d.quotes?.some((q: any) => q.game_id === gameId && q.is_live)), 10_000);
      const pushed = changes.flatMap((d) => (d.quotes as any[]).filter((q) => q.game_id === gameId && q.is_live));
      expect(new Set(pushed.map((q) => q.period))).toEqual(new Set(PERIODS));
      // GET /live serves one period at a time (full game by default): the in-play prices, and the last
      // pregame price of a book the in-play capture does not carry (a game shows a book's pregame
      // row until it has a live one: services/quotes.ts).
      const inPlayOnly = pricesOf(captures[2]!);
      const live = new Set(inPlayOnly.map((p) => p.key));
      const inPlay = [...inPlayOnly, ...pricesOf(captures[1]!).filter((p) => !live.has(p.key))];
      expect(inPlay.length).toBeGreaterThan(inPlayOnly.length);
      for (const period of PERIODS) {
        const res = await t.get(`${BASE}/live?period=${period}`, key);
        expect(res.status).toBe(200);
        const game = res.body.data.find((g: any) => g.game_id === gameId);
        const outcomes = ['moneyline', 'spread', 'total'].flatMap((m) => game.markets[m].outcomes as any[]);
        const want = inPlay.filter((p) => p.period === period).map((p) => `${p.key}|${p.american}`).sort();
        expect(outcomes.map((o) => `${o.book_id}|${o.market_type}|${o.period}|${o.side}|${Number(o.odds.american)}`).sort()).toEqual(want);
      }
    } finally {
      socket.disconnect();
    }
    // Line movement of the games being played, read from the history: one record per book quoting
    // in play, market, period and side, its current line the in-play capture's.
    const inPlay = pricesOf(captures[2]!);
    for (const period of PERIODS.slice(1)) {
      const res = await t.get(`${BASE}/live/movement?period=${period}&market_type=spread`, key);
      expect(res.status).toBe(200);
      const records = (res.body.data as any[]).filter((r) => r.game_id === gameId);
      const want = inPlay.filter((p) => p.period === period && p.market === 'spread');
      expect(records.length).toBe(want.length);
      expect(records.every((r) => r.period === period)).toBe(true);
    }
  });
});
