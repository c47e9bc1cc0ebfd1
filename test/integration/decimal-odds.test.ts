import { localDateOf } from '../../src/domain/local-day';
import { ingestDocuments } from '../../src/ingest/ingest';
import { startTestApp, type TestApp } from '../support/app';
import { capture, type GameSpec } from './live-helpers';

// Decimal odds are answered with at most 4 decimals, without the float noise of the conversion
// (1 + 168/100 = 2.6799999999999997 is 2.68; -9900 is 1.0101), on every route that carries them,
// while the math behind EV and consensus keeps full precision.

const start = new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
const spec: GameSpec = {
  id: 7301,
  status: 'inprogress',
  start,
  books: {
    68: { moneyline: [-9900, 2400], spread: [-3.5, -112, -108], total: [221.5, 168, -210] },
    69: { moneyline: [-9000, 1800], spread: [-3.5, -105, -115] },
    79: { moneyline: [-8000, 1600], total: [221.5, 155, -195] },
  },
};

/** Every number under a key that names decimal odds, with where it was found. */
function decimals(value: unknown, path = '$', out: { path: string; value: number }[] = []): { path: string; value: number }[] {
  if (Array.isArray(value)) value.forEach((v, i) => decimals(v, `${path}[${i}]`, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'number' && ['decimal', 'decimal_odds', 'decimalOdds'].includes(k)) out.push({ path: `${path}.${k}`, value: v });
      else decimals(v, `${path}.${k}`, out);
    }
  }
  return out;
}
const places = (x: number) => (String(x).split('.')[1] ?? '').length;

describe('decimal odds in answers', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp();
    key = (await t.createKey('pro')).key;
    await ingestDocuments([capture(new Date(Date.now() - 5000).toISOString(), spec)], { db: t.db, bus: t.bus });
  });
  afterAll(async () => {
    await t?.close();
  });

  test.each([
    '/api/v1/nba/odds/games/7301',
    '/api/v1/nba/odds/games/7301/markets',
    // The game's day in the league's time zone (which `date` reads), not in UTC: from midnight UTC
    // until the zone's own midnight the two differ.
    '/api/v1/nba/odds/games?date={league day}&game_id=7301',
    '/api/v1/nba/odds/markets/moneyline?game_id=7301',
    '/api/v1/nba/odds/markets/total?game_id=7301',
    '/api/v1/nba/odds/markets/spread?game_id=7301',
    '/api/v1/nba/odds/live',
    '/api/v1/nba/odds/live/movement?game_id=7301',
  ])('when %s is read, then no decimal odds carry more than 4 decimals', async (path) => {
    const { status, body } = await t.get(path.replace('{league day}', localDateOf(new Date(start), t.config.leagueTimeZone)), key);
    expect(status).toBe(200);
    const found = decimals(body);
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((d) => places(d.value) > 4)).toEqual([]);
  });

  test('when +168 and -9900 are answered, then their decimals read 2.68 and 1.0101', async () => {
    const { body } = await t.get('/api/v1/nba/odds/games/7301/markets', key);
    const outcomes = Object.values<any>(body.data.markets ?? body.data).flatMap((m: any) => m?.outcomes ?? []);
    const byAmerican = (a: number) => outcomes.find((o: any) => o.book_id === 68 && o.odds.original === a).odds.decimal;
    expect(byAmerican(168)).toBe(2.68);
    expect(byAmerican(-9900)).toBe(1.0101);
    expect(byAmerican(2400)).toBe(25);
  });

  test('when GraphQL is asked for odds, value and consensus, then decimals are rounded there too', async () => {
    const { body } = await t.graphql(
      `{ game(gameId: 7301) { markets { moneyline { bestOdds { decimal } consensus { averageOdds { decimal } sides { decimal } } outcomes { odds { decimal } } } } }
         marketListing(marketType: TOTAL, gameId: [7301]) { odds { decimal } ev { decimalOdds arbitrageDetail { complement { decimal } } } } }`,
      {},
      key,
    );
    expect(body.errors).toBeUndefined();
    const found = decimals(body.data);
    expect(found.length).toBeGreaterThan(5);
    expect(found.filter((d) => places(d.value) > 4)).toEqual([]);
  });
});
