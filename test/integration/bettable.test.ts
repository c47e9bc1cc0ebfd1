import { feedPath } from '../support/feeds';
import { startTestApp, type TestApp } from '../support/app';

// Bettable prices only (issue 23) on the real capture series of 2026-01-24 and 2026-04-29
// (test/fixtures/feeds), read with as_of inside the games: the feed keeps carrying the pregame prices
// of games being played, and none of them may be flagged profitable, be an arbitrage leg or be the
// best odds. docs/value-metrics.md, "Bettable prices".

const BASE = '/api/v1/nba/odds';
const MARKETS = ['moneyline', 'spread', 'total'] as const;
const DAYS = [
  { day: '2026-01-24', feed: 'nba-2026-01-24.jsonl.gz' },
  { day: '2026-04-29', feed: 'nba-2026-04-29-playoffs.jsonl.gz' },
];

describe('bettable prices on the real series', () => {
  let t: TestApp;
  let pro: string;

  beforeAll(async () => {
    t = await startTestApp({ feeds: DAYS.map((d) => feedPath(d.feed)) });
    pro = (await t.createKey('pro')).key;
  }, 300_000);
  afterAll(() => t.close());

  /** One instant an hour after each distinct start of the day's games: inside those games. */
  async function instantsInside(day: string): Promise<Array<{ at: string; started: Map<number, boolean> }>> {
    const res = await t.get(`${BASE}/games?date=${day}&include_markets=false&include_boxscore=false&limit=100`, pro);
    expect(res.status).toBe(200);
    const games = res.body.data as Array<{ game_id: number; start_time: string }>;
    const starts = [...new Set(games.map((g) => Date.parse(g.start_time)))].sort();
    return starts.map((s) => {
      const at = new Date(s + 60 * 60 * 1000);
      return { at: at.toISOString(), started: new Map(games.map((g) => [g.game_id, Date.parse(g.start_time) <= at.getTime()])) };
    });
  }

  for (const { day } of DAYS) {
    test(`when the ${day} listings are read with as_of inside games, then no pregame price of a started game is profitable, an arbitrage leg or the best odds`, async () => {
      let pregameOfStarted = 0;
      let wouldHaveBeenValue = 0;
      let bestChecked = 0;
      for (const { at, started } of await instantsInside(day)) {
        for (const market of MARKETS) {
          const res = await t.get(`${BASE}/markets/${market}?date=${day}&as_of=${at}`, pro);
          expect(res.status).toBe(200);
          const entries = res.body.data as any[];
          const key = (book: number, side: string, point: number | null, gameId: number) => `${gameId}|${book}|${side}|${point}`;
          const pregameStarted = new Set(entries.filter((e) => !e.is_live && started.get(e.game_id)).map((e) => key(e.book_id, e.side, e.point, e.game_id)));
          for (const e of entries) {
            expect(typeof e.is_live).toBe('boolean');
            if (!e.is_live && started.get(e.game_id)) {
              pregameOfStarted++;
              if (e.ev.ev_per_100 > 0) wouldHaveBeenValue++;
              expect(e.ev).toMatchObject({ profitable: false, arbitrage: false, bettable: false, not_bettable_reason: 'game_started', arbitrage_detail: null });
            }
            if (e.ev.profitable || e.ev.arbitrage) expect(e.ev.bettable).toBe(true);
            const c = e.ev.arbitrage_detail?.complement;
            if (c) expect(pregameStarted.has(key(c.book_id, c.side, c.point, e.game_id))).toBe(false);
          }
        }
        // The games' best odds at the same instant: never a pregame price of a started game.
        const games = await t.get(`${BASE}/games?date=${day}&include_boxscore=false&limit=100&as_of=${at}`, pro);
        expect(games.status).toBe(200);
        for (const g of games.body.data as any[]) {
          if (!started.get(g.game_id)) continue;
          for (const market of MARKETS) {
            const m = g.markets?.[market];
            if (!m?.best_odds) continue;
            // REST's best_odds names the book and price: the shown outcome it is (pregame and live rows never both shown).
            const shown = m.outcomes.filter((o: any) => o.book_id === m.best_odds.book_id && o.odds.decimal === m.best_odds.decimal && o.is_available);
            expect(shown.length).toBeGreaterThan(0);
            expect(shown.some((o: any) => o.is_live)).toBe(true);
            bestChecked++;
          }
        }
      }
      // The rule is exercised: the feed does carry pregame prices of started games, some with a positive figure.
      expect(pregameOfStarted).toBeGreaterThan(0);
      expect(wouldHaveBeenValue).toBeGreaterThan(0);
      expect(bestChecked).toBeGreaterThan(0);
    }, 120_000);
  }

  test('when live=live or live=pregame is asked, then only those prices are listed; all (the default) lists both', async () => {
    const { at } = (await instantsInside('2026-01-24')).at(-1)!;
    const read = async (live?: string) => {
      const res = await t.get(`${BASE}/markets/spread?date=2026-01-24&as_of=${at}${live ? `&live=${live}` : ''}`, pro);
      expect(res.status).toBe(200);
      return res.body.data as any[];
    };
    const [all, byDefault, live, pregame] = await Promise.all([read('all'), read(), read('live'), read('pregame')]);
    expect(byDefault).toEqual(all);
    expect(live.length).toBeGreaterThan(0);
    expect(pregame.length).toBeGreaterThan(0);
    expect(live.every((e) => e.is_live)).toBe(true);
    expect(pregame.every((e) => !e.is_live)).toBe(true);
    expect(live.length + pregame.length).toBe(all.length);
  });

  test('when live is not one of pregame, live, all, then 400 names the parameter', async () => {
    const res = await t.get(`${BASE}/markets/total?live=yes`, pro);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('live');
  });

  test('when asked through GraphQL, then marketListing(live:) filters and each outcome says bettable and why not', async () => {
    const { at } = (await instantsInside('2026-01-24')).at(-1)!;
    const res = await t.graphql(
      `query ($at: DateTime) { marketListing(marketType: MONEYLINE, date: "2026-01-24", asOf: $at, live: PREGAME) { isLive ev { bettable notBettableReason profitable } } }`,
      { at },
      pro,
    );
    expect(res.body.errors).toBeUndefined();
    const list = res.body.data.marketListing as any[];
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((e) => !e.isLive)).toBe(true);
    expect(list.some((e) => e.ev.notBettableReason === 'game_started')).toBe(true);
  });
});
