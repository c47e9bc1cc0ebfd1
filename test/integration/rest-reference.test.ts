import { answer, apiClient, type ApiClient } from '../support/api-client';
import { startTestApp, type TestApp } from '../support/app';

// Teams, leagues, sportsbooks, consensus and betting-info (spec 2.5-2.7, 2.10, 4.11-4.15), through the
// typed client generated from the OpenAPI document; inputs it cannot express go raw with `get`.

const BASE = '/api/v1/nba/odds';
const DAY = '2026-01-24';
let t: TestApp;
let key: string;
let api: ApiClient;

beforeAll(async () => {
  // "today" is the sample's day, so the date defaults are testable
  t = await startTestApp({ feeds: ['test/fixtures/feeds/nba-2026-01-24-mixed-status.json'], now: () => new Date('2026-01-24T18:00:00Z') });
  key = (await t.createKey('starter')).key;
  api = apiClient(t.baseUrl, key);
});
afterAll(() => t.close());

const get = (path: string) => t.get(BASE + path, key);

test('teams: every field, filters by league, ids (comma/repeated), conference and division', async () => {
  const all = await answer(api.GET('/api/v1/nba/odds/teams'));
  expect(all.status).toBe(200);
  expect(all.body.count).toBe(all.body.data.length);
  const team = all.body.data[0];
  for (const f of ['id', 'full_name', 'display_name', 'short_name', 'location', 'abbr', 'logo', 'primary_color', 'secondary_color', 'conference_type', 'division_type', 'url_slug', 'standings', 'core_id']) {
    expect(team).toHaveProperty(f);
  }
  expect(Object.keys(team.standings).sort()).toEqual(['draw', 'loss', 'overtime_losses', 'ties', 'win']);
  const nba = await answer(api.GET('/api/v1/nba/odds/teams', { params: { query: { league_id: 4 } } }));
  expect(nba.body.count).toBe(30);
  const ids = await get('/teams?team_id=157,158&team_id=162');
  expect(ids.body.data.map((x: any) => x.id)).toEqual([157, 158, 162]);
  const east = await answer(api.GET('/api/v1/nba/odds/teams', { params: { query: { league_id: 4, conference: 'east' } } }));
  expect(east.body.count).toBe(15);
  expect(east.body.data.every((x: any) => x.conference_type === 'EASTERN')).toBe(true);
  const division = east.body.data[0].division_type as string;
  const inDivision = await answer(api.GET('/api/v1/nba/odds/teams', { params: { query: { division: division.toLowerCase() } } }));
  expect(inDivision.body.data.every((x: any) => x.division_type === division)).toBe(true);
  expect((await get('/teams?team_id=x')).status).toBe(400);
});

test('leagues: spec fields, filters', async () => {
  const res = await answer(api.GET('/api/v1/nba/odds/leagues'));
  expect(res.body.data.map((l: any) => l.id)).toEqual([4, 5]);
  expect(Object.keys(res.body.data[0]).sort()).toEqual(['current_season', 'current_season_type', 'description', 'id', 'is_active', 'logo', 'name', 'sport'].sort());
  expect((await answer(api.GET('/api/v1/nba/odds/leagues', { params: { query: { league_id: 5 } } }))).body.data.map((l: any) => l.id)).toEqual([5]);
  expect((await answer(api.GET('/api/v1/nba/odds/leagues', { params: { query: { sport: 'basketball', is_active: true } } }))).body.count).toBe(2);
  expect((await answer(api.GET('/api/v1/nba/odds/leagues', { params: { query: { sport: 'hockey' } } }))).body.count).toBe(0);
  expect((await get('/leagues?is_active=maybe')).status).toBe(400);
});

test('sportsbooks: id and name, ordered by id, with their kind', async () => {
  const res = await answer(api.GET('/api/v1/nba/odds/sportsbooks'));
  expect(res.body.data[0]).toEqual({ id: 15, name: 'Consensus', kind: 'aggregate', name_known: true });
  const byId = new Map(res.body.data.map((b: any) => [b.id, b]));
  expect(byId.get(4999)).toEqual({ id: 4999, name: 'Pinnacle', kind: 'sportsbook', name_known: true });
  expect(byId.get(6020)).toEqual({ id: 6020, name: 'Betfair Exchange (AU)', kind: 'exchange', name_known: true });
  expect(byId.get(6030)).toMatchObject({ name: 'Kalshi', kind: 'prediction_market' });
  const ids = res.body.data.map((b: any) => b.id);
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
});

test('when the feed quotes books it names nowhere, then /sportsbooks lists them under a neutral name that says it is not known upstream', async () => {
  const books = (await get('/sportsbooks')).body.data;
  for (const id of [510, 645, 647, 1901, 1904, 3151]) {
    expect(books.find((b: any) => b.id === id)).toEqual({ id, name: `Sportsbook ${id}`, kind: 'sportsbook', name_known: false });
  }
  expect(books.filter((b: any) => /^Book \d/.test(String(b.name)))).toEqual([]);
  const best: { book_id: number; book_name: string | null }[] = [];
  for (const game of (await get('/games')).body.data) {
    for (const type of ['moneyline', 'spread', 'total']) if (game.markets[type]?.best_odds) best.push(game.markets[type].best_odds);
  }
  const unnamed = best.filter((b) => [510, 645, 647, 1901, 1904, 3151].includes(b.book_id));
  expect(unnamed.length).toBeGreaterThan(0);
  expect(unnamed.map((b) => b.book_name)).toEqual(unnamed.map((b) => `Sportsbook ${b.book_id}`));
});

test('consensus: one record per game of today by default, American prices from averaged probabilities', async () => {
  const res = await answer(api.GET('/api/v1/nba/odds/consensus'));
  expect(res.status).toBe(200);
  expect(res.body.count).toBe(7);
  const explicit = await answer(api.GET('/api/v1/nba/odds/consensus', { params: { query: { date: DAY } } }));
  expect(explicit.body).toEqual(res.body);
  const record = res.body.data.find((r: any) => r.game_id === 264317);
  expect(Object.keys(record).sort()).toEqual(['away_team', 'game_id', 'home_team', 'markets', 'start_time', 'status']);
  expect(Object.keys(record.away_team).sort()).toEqual(['abbr', 'id']);
  const ml = record.markets.moneyline;
  expect(typeof ml.consensus_home).toBe('number');
  expect(typeof ml.consensus_away).toBe('number');
  expect(Math.abs(ml.consensus_home)).toBeGreaterThanOrEqual(100);
  expect(Object.keys(ml.public_betting).sort()).toEqual(['away_percentage', 'home_percentage', 'total_bets']);
  expect(typeof record.markets.spread.consensus_line).toBe('number');

  // the consensus price is 1/mean(1/d) of the real books' home prices, never a mean of American numbers
  const markets = await answer(api.GET('/api/v1/nba/odds/games/{game_id}/markets', { params: { path: { game_id: 264317 }, query: { market_type: ['moneyline'] } } }));
  const home = markets.body.data.markets.moneyline.outcomes.filter((o: any) => o.side === 'home' && o.is_available && o.book_id !== 15 && o.book_id !== 30);
  const decimal = home.length / home.reduce((s: number, o: any) => s + 1 / o.odds.decimal, 0);
  const american = decimal >= 2 ? Math.round((decimal - 1) * 100) : -Math.round(100 / (decimal - 1));
  expect(ml.consensus_home).toBe(american);
  // spread consensus_line is the median home line
  const spread = await answer(api.GET('/api/v1/nba/odds/games/{game_id}/markets', { params: { path: { game_id: 264317 }, query: { market_type: ['spread'] } } }));
  const lines = spread.body.data.markets.spread.outcomes
    .filter((o: any) => o.side === 'home' && o.is_available && o.book_id !== 15 && o.book_id !== 30)
    .map((o: any) => o.point)
    .sort((a: number, b: number) => a - b);
  const mid = Math.floor(lines.length / 2);
  expect(record.markets.spread.consensus_line).toBe(lines.length % 2 ? lines[mid] : (lines[mid - 1] + lines[mid]) / 2);
});

test('consensus: market_type narrows the markets, game_id the games, bad values 400', async () => {
  const res = await answer(api.GET('/api/v1/nba/odds/consensus', { params: { query: { market_type: ['moneyline'], game_id: [264317] } } }));
  expect(res.body.count).toBe(1);
  expect(Object.keys(res.body.data[0].markets)).toEqual(['moneyline']);
  expect((await answer(api.GET('/api/v1/nba/odds/consensus', { params: { query: { date: '2026-13-01' } } }))).status).toBe(400);
  expect((await get('/consensus?market_type=props')).status).toBe(400);
  expect((await answer(api.GET('/api/v1/nba/odds/consensus', { params: { query: { date: '2025-01-01' } } }))).body).toEqual({ success: true, data: [], count: 0 });
});

test('betting-info: per game and market, tickets and money percentages per side and bets; filters', async () => {
  const res = await answer(api.GET('/api/v1/nba/odds/betting-info'));
  expect(res.status).toBe(200);
  expect(res.body.count).toBe(7);
  const withBets = res.body.data.find((g: any) => g.markets.length > 0);
  expect(Object.keys(withBets).sort()).toEqual(['away_team', 'game_id', 'home_team', 'markets', 'num_bets', 'start_time', 'status']);
  const market = withBets.markets[0];
  expect(Object.keys(market).sort()).toEqual(['book_id', 'book_name', 'market_type', 'num_bets', 'period', 'sides']);
  expect(Object.keys(market.sides[0]).sort()).toEqual(['money_percentage', 'num_bets', 'side', 'team_id', 'tickets_percentage']);
  const filtered = await answer(api.GET('/api/v1/nba/odds/betting-info', { params: { query: { date: DAY, game_id: [withBets.game_id], market_type: ['spread'], book_id: [15] } } }));
  expect(filtered.body.count).toBe(1);
  expect(filtered.body.data[0].markets.every((m: any) => m.market_type === 'spread' && m.book_id === 15)).toBe(true);
  expect((await get('/betting-info?book_id=abc')).status).toBe(400);
});
