import { answer, apiClient, type ApiClient, type paths } from '../support/api-client';
import { startTestApp, type TestApp } from '../support/app';

// Games, boxscores and per-game markets through HTTP (spec 2.1-2.4, 4.1-4.4), on the real
// 2026-01-24 scoreboard sample: 7 games (2 closed, 1 postponed, 2 in progress, 2 scheduled). Calls go
// through the typed client generated from the OpenAPI document; inputs it would not let through
// (bad values, unknown parameters, 0/1 booleans) go raw with `get`.

const BASE = '/api/v1/nba/odds';
const DAY = '2026-01-24';
let t: TestApp;
let key: string;
let api: ApiClient;

beforeAll(async () => {
  t = await startTestApp({ feeds: ['test/fixtures/feeds/nba-2026-01-24-mixed-status.json'] });
  key = (await t.createKey('pro')).key;
  api = apiClient(t.baseUrl, key);
});
afterAll(() => t.close());

const get = (path: string) => t.get(BASE + path, key);
type Query<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } } ? NonNullable<Q> : never;
type GamesQuery = Query<'/api/v1/nba/odds/games'>;
type GameQuery = Query<'/api/v1/nba/odds/games/{game_id}'>;
type MarketsQuery = Query<'/api/v1/nba/odds/games/{game_id}/markets'>;
const listGames = (query: GamesQuery = {}) => answer(api.GET('/api/v1/nba/odds/games', { params: { query } }));
const game = (game_id: number, query: GameQuery = {}) => answer(api.GET('/api/v1/nba/odds/games/{game_id}', { params: { path: { game_id }, query } }));
const markets = (game_id: number, query: MarketsQuery = {}) => answer(api.GET('/api/v1/nba/odds/games/{game_id}/markets', { params: { path: { game_id }, query } }));

const GAME_FIELDS = [
  'game_id', 'league_id', 'core_id', 'status', 'real_status', 'status_display', 'start_time', 'away_team_id', 'home_team_id',
  'winning_team_id', 'away_team', 'home_team', 'teams', 'league_name', 'type', 'season', 'week', 'attendance', 'coverage',
  'is_free', 'trending', 'away_rotation_number', 'home_rotation_number', 'num_bets', 'boxscore', 'broadcast', 'markets', 'meta',
  'updated_at',
];
const TEAM_FIELDS = ['id', 'full_name', 'display_name', 'short_name', 'location', 'abbr', 'logo', 'primary_color', 'secondary_color', 'conference_type', 'division_type', 'url_slug', 'standings', 'core_id'];
// result and graded_at (grading), confirmed_at and price_changed_at (freshness): extensions (docs/closing-and-grading.md, docs/freshness.md).
const OUTCOME_FIELDS = ['outcome_id', 'book_id', 'market_type', 'side', 'team_id', 'team', 'point', 'odds', 'is_live', 'is_available', 'line_status', 'period', 'result', 'graded_at', 'confirmed_at', 'price_changed_at'];

describe('GET /games', () => {
  test('when listing a day, then every game has every spec field, ordered by start_time then game_id', async () => {
    const res = await listGames({ date: DAY });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, count: 7, pagination: { limit: 100, offset: 0, total: 7, has_more: false } });
    const games = res.body.data as any[];
    expect(games).toHaveLength(7);
    for (const game of games) {
      expect(Object.keys(game).sort()).toEqual([...GAME_FIELDS].sort());
      expect(Object.keys(game.away_team).sort()).toEqual(['abbr', 'full_name', 'id', 'logo', 'short_name']);
      expect(game.teams).toHaveLength(2);
      for (const team of game.teams) expect(Object.keys(team).sort()).toEqual([...TEAM_FIELDS].sort());
      expect(Object.keys(game.markets).sort()).toEqual(['core_bet_types', 'moneyline', 'spread', 'total']);
      expect(game.markets.core_bet_types).toBeNull();
    }
    const keys = games.map((g) => [g.start_time, g.game_id]);
    expect(keys).toEqual([...keys].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1])));
  });

  test('when a game has prices, then its market has best odds from a real book and consensus from probabilities', async () => {
    const res = await listGames({ date: DAY, game_id: [264317] });
    const spread = res.body.data[0].markets.spread;
    expect(Object.keys(spread).sort()).toEqual(['available_count', 'best_odds', 'consensus', 'count', 'market_type', 'outcomes'].sort());
    expect(spread.market_type).toBe('spread');
    expect(spread.count).toBe(spread.outcomes.length);
    expect(spread.best_odds.book_id).not.toBe(15);
    expect(spread.best_odds.book_id).not.toBe(30);
    expect(typeof spread.best_odds.american).toBe('string');
    const real = spread.outcomes.filter((o: any) => o.book_id !== 15 && o.book_id !== 30 && o.is_available);
    expect(spread.best_odds.decimal).toBe(Math.max(...real.map((o: any) => o.odds.decimal)));
    expect(spread.consensus.book_count).toBe(new Set(spread.outcomes.filter((o: any) => o.book_id !== 15 && o.book_id !== 30).map((o: any) => o.book_id)).size);
    const harmonic = real.length / real.reduce((s: number, o: any) => s + 1 / o.odds.decimal, 0);
    expect(spread.consensus.average_odds.decimal).toBeCloseTo(harmonic, 3); // both from decimals answered to 4 places
    const outcome = spread.outcomes[0];
    expect(Object.keys(outcome).sort()).toEqual([...OUTCOME_FIELDS].sort());
    expect(outcome.odds.american).toMatch(/^[+-]\d+$/);
    expect(Object.keys(outcome.odds).sort()).toEqual(['american', 'decimal', 'fractional', 'original']);
    expect(outcome.period).toBe('full_game');
  });

  test('when include_markets and include_boxscore are false (or 0), then those objects are omitted', async () => {
    for (const res of [await listGames({ date: DAY, include_markets: false, include_boxscore: false }), await get(`/games?date=${DAY}&include_markets=0&include_boxscore=0`)]) {
      expect(res.status).toBe(200);
      for (const g of res.body.data) {
        expect(g).not.toHaveProperty('markets');
        expect(g).not.toHaveProperty('boxscore');
        expect(g).toHaveProperty('broadcast');
      }
    }
  });

  test('when paging, then total counts all matches, has_more is right and pages never overlap', async () => {
    const seen: number[] = [];
    for (let offset = 0; offset < 7; offset += 3) {
      const res = await listGames({ date: DAY, limit: 3, offset, include_markets: false });
      expect(res.body.pagination).toEqual({ limit: 3, offset, total: 7, has_more: offset + 3 < 7 });
      expect(res.body.count).toBe(res.body.data.length);
      seen.push(...res.body.data.map((g: any) => g.game_id));
    }
    const all = (await listGames({ date: DAY, include_markets: false })).body.data.map((g: any) => g.game_id);
    expect(seen).toEqual(all);
    const beyond = await listGames({ date: DAY, offset: 50 });
    expect(beyond.body).toMatchObject({ data: [], count: 0, pagination: { total: 7, has_more: false } });
  });

  test('when filtering by ids comma-separated and repeated, then both forms combine', async () => {
    const res = await get('/games?game_id=264314,264312&game_id=264318&include_markets=false');
    expect(res.body.data.map((g: any) => g.game_id).sort()).toEqual([264312, 264314, 264318]);
    const byTeam = await listGames({ team_id: [157], include_markets: false });
    expect(byTeam.body.data.every((g: any) => g.home_team_id === 157 || g.away_team_id === 157)).toBe(true);
    expect(byTeam.body.count).toBeGreaterThan(0);
  });

  test('when filtering by status word, then scheduled/live/finished select their stored statuses', async () => {
    const statuses = async (s: GamesQuery['status']) => (await listGames({ status: s, include_markets: false })).body.data.map((g: any) => g.status);
    expect(await statuses('scheduled')).toEqual(['scheduled', 'scheduled']);
    expect(await statuses('live')).toEqual(['in_progress', 'in_progress']);
    expect((await statuses('finished')).length).toBe(2);
    expect(await statuses('postponed')).toEqual(['postponed']);
  });

  test('when the date is a league-local day, then games after midnight UTC still belong to it', async () => {
    // 264318 starts 2026-01-25T02:30Z, i.e. 21:30 in New York on the 24th
    const res = await listGames({ date: DAY, game_id: [264318], include_markets: false });
    expect(res.body.count).toBe(1);
    const next = await listGames({ date: '2026-01-25', game_id: [264318], include_markets: false });
    expect(next.body.count).toBe(0);
    const range = await listGames({ start_date: '2026-01-23', end_date: '2026-01-24', include_markets: false });
    expect(range.body.pagination.total).toBe(7);
  });

  test.each([
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=99999999999999999999', 'limit'],
    ['offset=-1', 'offset'],
    ['date=2026-02-30', 'date'],
    ['date=2026-1-5', 'date'],
    ['date=%27%3B%20DROP%20TABLE%20games%3B--', 'date'],
    ['game_id=', 'game_id'],
    ['game_id=1,,2', 'game_id'],
    ['game_id=-5', 'game_id'],
    ['game_id=3000000000', 'game_id'],
    ['game_id=%F0%9F%8F%80', 'game_id'],
    ['team_id=abc', 'team_id'],
    ['league_id=1.5', 'league_id'],
    ['include_markets=yes', 'include_markets'],
    ['status=bogus', 'status'],
    ['limit=1&limit=2', 'limit'],
    ['start_date=2026-01-25&end_date=2026-01-24', 'start_date'],
  ])('when %s, then 400 naming %s', async (query, name) => {
    const res = await get(`/games?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toContain(name);
  });

  test('when unknown parameters are sent, then they are ignored', async () => {
    const res = await get(`/games?date=${DAY}&foo=bar&include_markets=false`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(7);
  });
});

describe('GET /games/:game_id', () => {
  test('when the game exists, then data is the same game object as in the list', async () => {
    const one = await game(264315);
    const list = await listGames({ game_id: [264315] });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ success: true, data: list.body.data[0] });
  });

  test('when include flags are false, then markets and boxscore are omitted', async () => {
    const res = await get('/games/264315?include_markets=false&include_boxscore=0');
    expect(res.body.data).not.toHaveProperty('markets');
    expect(res.body.data).not.toHaveProperty('boxscore');
  });

  test('when the game is unknown, not on the given date, or the id is not a number, then 404 / 400', async () => {
    expect((await game(1)).status).toBe(404);
    expect((await game(1)).body).toEqual({ success: false, error: 'game not found' });
    expect((await game(264315, { date: '2026-01-20' })).status).toBe(404);
    expect((await game(264315, { date: '2026-01-24' })).status).toBe(200);
    expect((await get('/games/abc')).status).toBe(400);
    expect((await get('/games/99999999999999999999')).status).toBe(400);
  });
});

describe('GET /games/:game_id/boxscore', () => {
  test('when the game is in progress, then its live boxscore is served', async () => {
    const res = await answer(api.GET('/api/v1/nba/odds/games/{game_id}/boxscore', { params: { path: { game_id: 264315 } } }));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['boxscore', 'game_id', 'players', 'status']);
    expect(res.body.data.status).toBe('in_progress');
    expect(res.body.data.boxscore).toMatchObject({ period: expect.any(Number), home_score: expect.any(Number), away_score: expect.any(Number) });
    expect(res.body.data.boxscore.period_scores[0]).toEqual({ period: 1, home: expect.any(Number), away: expect.any(Number) });
  });

  test('when the game is unknown, then 404 game not found', async () => {
    const res = await answer(api.GET('/api/v1/nba/odds/games/{game_id}/boxscore', { params: { path: { game_id: 42 } } }));
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/game not found/);
  });
});

describe('GET /games/:game_id/markets', () => {
  test('when no filter, then the three markets carry only market_type, count and outcomes (core_bet_types null: this capture has no team totals)', async () => {
    const res = await markets(264317);
    expect(res.status).toBe(200);
    expect(res.body.data.game_id).toBe(264317);
    expect(Object.keys(res.body.data.markets).sort()).toEqual(['core_bet_types', 'moneyline', 'spread', 'total']);
    expect(res.body.data.markets.core_bet_types).toBeNull();
    for (const market of [res.body.data.markets.moneyline, res.body.data.markets.spread, res.body.data.markets.total]) {
      expect(Object.keys(market).sort()).toEqual(['count', 'market_type', 'outcomes']);
      expect(market.count).toBe(market.outcomes.length);
    }
  });

  test('when filtered by market_type, book_id and period, then only those are served', async () => {
    const res = await markets(264317, { market_type: ['spread', 'total'], book_id: [68] });
    expect(Object.keys(res.body.data.markets).sort()).toEqual(['spread', 'total']);
    const outcomes = [...res.body.data.markets.spread.outcomes, ...res.body.data.markets.total.outcomes];
    expect(outcomes.length).toBeGreaterThan(0);
    expect(outcomes.every((o: any) => o.book_id === 68)).toBe(true);
    const full = await markets(264317, { market_type: ['moneyline'], period: 'full' });
    expect(full.body.data.markets.moneyline.outcomes.every((o: any) => o.period === 'full_game')).toBe(true);
    const half = await markets(264317, { period: 'first_half' });
    expect(half.status).toBe(200);
    const { core_bet_types: coreBetTypes, ...three } = half.body.data.markets;
    expect(coreBetTypes).toBeNull();
    for (const m of Object.values(three) as any[]) expect(m.outcomes.every((o: any) => o.period === 'first_half')).toBe(true);
  });

  test('when a filter value is invalid or the game unknown, then 400 / 404', async () => {
    expect((await get('/games/264317/markets?market_type=props')).body.error).toContain('market_type');
    expect((await get('/games/264317/markets?period=third_half')).body.error).toContain('period');
    expect((await get('/games/264317/markets?book_id=x')).status).toBe(400);
    expect((await markets(7)).status).toBe(404);
  });
});

test('when the route is unknown, then 404 in the envelope', async () => {
  const res = await get('/nope');
  expect(res.status).toBe(404);
  expect(res.body).toEqual({ success: false, error: 'route not found' });
});
