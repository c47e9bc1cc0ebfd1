import { ingestDocuments } from '../../src/ingest/ingest';
import { startTestApp, type TestApp } from '../support/app';
import { capture, type GameSpec } from './live-helpers';

// Freshness of every price (docs/freshness.md): confirmed_at and age on each quote, and a book whose
// in-play prices stopped moving while the others moved flagged stale (book_frozen), with EV and
// arbitrage marked. Crafted captures of games being played, three books, times chosen by the test.

const T0 = Date.parse('2026-01-24T02:00:00.000Z');
const at = (minutes: number, seconds = 0) => new Date(T0 + minutes * 60_000 + seconds * 1000);

/** Game 8801: book 69 (FanDuel) keeps -150/+130 while books 68 and 75 drift a little (the consensus stays near). */
const drifting = (home: number, away: number): GameSpec => ({
  id: 8801,
  status: 'inprogress',
  start: '2026-01-24T01:00:00.000Z',
  books: { 69: { live: { moneyline: [-150, 130] } }, 68: { live: { moneyline: [home, away] } }, 75: { live: { moneyline: [home, away] } } },
});
/** Game 8802: book 69 (FanDuel) keeps -110/-110 while the others swing to -300/+250: an arbitrage with a stale leg. */
const swinging = (home: number, away: number): GameSpec => ({
  id: 8802,
  status: 'inprogress',
  start: '2026-01-24T01:00:00.000Z',
  home: 9041,
  away: 9042,
  books: { 69: { live: { moneyline: [-110, -110] } }, 68: { live: { moneyline: [home, away] } }, 75: { live: { moneyline: [home, away] } } },
});

describe('freshness of prices', () => {
  let t: TestApp;
  let key: string;
  let now = at(0);
  const ingest = (minutes: number, ...games: GameSpec[]) => ingestDocuments([capture(at(minutes).toISOString(), ...games)], { db: t.db, bus: t.bus });
  const listing = async (gameId: number) => {
    const res = await t.get(`/api/v1/nba/odds/markets/moneyline?game_id=${gameId}`, key);
    expect(res.status).toBe(200);
    return res.body.data as any[];
  };
  const entry = (rows: any[], book: number, side: string) => rows.find((r) => r.book_id === book && r.side === side && r.is_live);

  beforeAll(async () => {
    t = await startTestApp({ now: () => now });
    key = (await t.createKey('pro')).key;
  });
  afterAll(() => t.close());

  test('when the other books moved only 3 minutes after a book, then its prices are fresh, confirmed by the last capture', async () => {
    await ingest(0, drifting(-150, 130), swinging(-110, -110));
    await ingest(3, drifting(-155, 135), swinging(-115, -105));
    now = at(3, 10);
    const rows = await listing(8801);
    const book69 = entry(rows, 69, 'home');
    expect(book69).toMatchObject({ confirmed_at: at(3).toISOString(), age_seconds: 10 });
    expect(book69.ev).toMatchObject({ stale: false, stale_reason: null });
  });

  test('when the others kept moving for more than 5 minutes after a book, then that book is flagged book_frozen and the movers are not', async () => {
    await ingest(8, drifting(-160, 140), swinging(-300, 250));
    now = at(8, 10);
    const rows = await listing(8801);
    for (const side of ['home', 'away']) {
      const frozen = entry(rows, 69, side);
      // Still carried by every capture (confirmed 10 s ago), but it has not moved since the first one.
      expect(frozen).toMatchObject({ confirmed_at: at(8).toISOString(), age_seconds: 10 });
      expect(frozen.ev).toMatchObject({ stale: true, stale_reason: 'book_frozen' });
      expect(entry(rows, 68, side).ev).toMatchObject({ stale: false, stale_reason: null });
    }
  });

  test('when an arbitrage would lean on a stale price, then it is no arbitrage: a stale price cannot be bet (issue 23)', async () => {
    const rows = await listing(8802);
    expect(entry(rows, 68, 'away').ev).toMatchObject({ stale: false, bettable: true, arbitrage: false, arbitrage_detail: null });
    // Book 69 is far from the market now: the distance is the first reason that applies.
    expect(entry(rows, 69, 'home').ev).toMatchObject({ stale: true, stale_reason: 'off_market', bettable: false, not_bettable_reason: 'stale', arbitrage: false });
  });

  test('when a game\'s markets are read, then every quote carries when the feed confirmed it and when its price last moved', async () => {
    const res = await t.get('/api/v1/nba/odds/games/8801/markets', key);
    expect(res.status).toBe(200);
    const outcomes = res.body.data.markets.moneyline.outcomes.filter((o: any) => o.is_live);
    const of = (book: number) => outcomes.find((o: any) => o.book_id === book && o.side === 'home');
    expect(of(69)).toMatchObject({ confirmed_at: at(8).toISOString(), price_changed_at: at(0).toISOString() });
    expect(of(68)).toMatchObject({ confirmed_at: at(8).toISOString(), price_changed_at: at(8).toISOString() });
  });

  test('when the clock passes the confirmation window without a capture, then the age grows and not_confirmed comes first', async () => {
    now = at(9, 30);
    const rows = await listing(8801);
    expect(entry(rows, 68, 'home')).toMatchObject({ age_seconds: 90 });
    expect(entry(rows, 68, 'home').ev).toMatchObject({ stale: true, stale_reason: 'not_confirmed' });
    expect(entry(rows, 69, 'home').ev).toMatchObject({ stale: true, stale_reason: 'not_confirmed' });
  });

  test('when GraphQL asks, then confirmedAt, ageSeconds, priceChangedAt and staleReason are there in its own convention', async () => {
    const res = await t.graphql(
      '{ game(gameId: 8801) { markets { moneyline { outcomes { bookId isLive confirmedAt ageSeconds priceChangedAt } } } } }',
      {},
      key,
    );
    expect(res.body.errors).toBeUndefined();
    const outcome = res.body.data.game.markets.moneyline.outcomes.find((o: any) => o.bookId === 69 && o.isLive);
    expect(outcome).toEqual({ bookId: 69, isLive: true, confirmedAt: at(8).toISOString(), ageSeconds: 90, priceChangedAt: at(0).toISOString() });
    const listed = await t.graphql('{ marketListing(marketType: MONEYLINE, gameId: [8801]) { bookId isLive ageSeconds ev { stale staleReason } } }', {}, key);
    expect(listed.body.errors).toBeUndefined();
    const frozen = listed.body.data.marketListing.find((o: any) => o.bookId === 69 && o.isLive);
    expect(frozen).toEqual({ bookId: 69, isLive: true, ageSeconds: 90, ev: { stale: true, staleReason: 'not_confirmed' } });
  });
});
