import { ingestDocuments } from '../../src/ingest/ingest';
import { startTestApp, type TestApp } from '../support/app';
import { AWAY, capture, HOME, type GameSpec } from './live-helpers';

// GET /odds/live/movement from crafted history: a game opens, moves pregame, goes live.

const START = '2026-01-24T00:30:00.000Z';
const game = (status: GameSpec['status'], books: GameSpec['books']): GameSpec => ({ id: 7001, status, start: START, books });

describe('line movement', () => {
  let t: TestApp;
  let pro: string;

  beforeAll(async () => {
    t = await startTestApp();
    pro = (await t.createKey('pro')).key;
    await ingestDocuments(
      [
        capture('2026-01-23T18:00:00.000Z', game('scheduled', { 15: { spread: [-3, -110, -110], moneyline: [-150, 130], total: [220.5, -110, -110], firstHalfSpread: [-1.5, -110, -110] }, 68: { spread: [-2.5, -110, -110] } })),
        capture('2026-01-23T22:00:00.000Z', game('scheduled', { 15: { spread: [-4.5, -110, -110], moneyline: [-170, 150], total: [223, -110, -110], firstHalfSpread: [-1.5, -110, -110] }, 68: { spread: [-2.5, -120, 100] } })),
        // In play: book 15 quotes live spread prices; the pregame ones stay as the closing prices.
        capture('2026-01-24T01:00:00.000Z', game('inprogress', {
          15: { spread: [-4.5, -110, -110], moneyline: [-170, 150], total: [223, -110, -110], firstHalfSpread: [-1.5, -110, -110], live: { spread: [-8, -115, -105] } },
          68: { spread: [-2.5, -120, 100] },
        })),
        // A game that is not being played is not listed.
        capture('2026-01-24T01:00:00.000Z', { id: 7002, status: 'scheduled', start: '2026-01-25T00:30:00.000Z', books: { 15: { spread: [-1, -110, -110] } } }),
      ],
      { db: t.db },
    );
  });
  afterAll(() => t.close());

  const records = async (query = '') => {
    const res = await t.get(`/api/v1/nba/odds/live/movement${query}`, pro);
    expect(res.status).toBe(200);
    return res.body;
  };
  const find = (body: any, bookId: number, market: string, side: string, period = 'full_game') =>
    body.data.find((r: any) => r.book_id === bookId && r.market_type === market && r.side === side && r.period === period);

  test('when a pregame spread moved from -3 to -4.5 and went live at -8, then the home record opens at -3 and is now -8 towards the favorite', async () => {
    const body = await records();
    expect(body.success).toBe(true);
    const home = find(body, 15, 'spread', 'home');
    expect(home).toMatchObject({
      game_id: 7001,
      league_id: 4,
      team_id: HOME,
      value: -8,
      is_live: true,
      odds: { american: '-115', original: -115 },
      line_movement: { open_line: -3, current_line: -8, absolute_change: 5, direction: 'towards_favorite', open_price: -110, current_price: -115 },
      game: { away_team_id: AWAY, home_team_id: HOME, start_time: START, status: 'in_progress' },
    });
    expect(find(body, 15, 'spread', 'away').line_movement).toMatchObject({ open_line: 3, current_line: 8, direction: 'towards_underdog' });
  });

  test('when a moneyline went from -150 to -170, then it moved 20 cents towards the favorite; the +130 to +150 side towards the underdog', async () => {
    const body = await records();
    expect(find(body, 15, 'moneyline', 'home')).toMatchObject({ value: -170, line_movement: { open_line: -150, current_line: -170, absolute_change: 20, direction: 'towards_favorite' } });
    expect(find(body, 15, 'moneyline', 'away').line_movement).toMatchObject({ open_price: 130, current_price: 150, absolute_change: 20, direction: 'towards_underdog' });
  });

  test('when a total rose from 220.5 to 223, then both sides moved 2.5 towards the over', async () => {
    const body = await records();
    for (const side of ['over', 'under']) {
      expect(find(body, 15, 'total', side)).toMatchObject({ team_id: null, value: 223, line_movement: { absolute_change: 2.5, direction: 'towards_over' } });
    }
  });

  test('when only the price moved (-110 to -120 at -2.5), then the change is 0 and the direction follows the price', async () => {
    const body = await records();
    expect(find(body, 68, 'spread', 'home').line_movement).toMatchObject({ open_line: -2.5, current_line: -2.5, absolute_change: 0, direction: 'towards_favorite' });
    expect(find(body, 15, 'spread', 'home', 'first_half').line_movement).toMatchObject({ absolute_change: 0, direction: 'none' });
  });

  test('when nothing is filtered, then there is one record per game, book, market, period and side of live games only, and updated_at is the last time seen', async () => {
    const body = await records();
    // book 15: spread, moneyline, total, first-half spread (2 sides each); book 68: spread
    expect(body.count).toBe(10);
    expect(body.data).toHaveLength(10);
    expect(new Set(body.data.map((r: any) => r.game_id))).toEqual(new Set([7001]));
    expect(body.updated_at).toBe('2026-01-24T01:00:00.000Z');
  });

  test('when filters are given, then they narrow the records', async () => {
    expect((await records('?market_type=spread&side=home&book_id=15')).data.map((r: any) => r.period).sort()).toEqual(['first_half', 'full_game']);
    expect((await records('?market_type=spread&period=full')).count).toBe(4);
    expect((await records('?game_id=7002')).count).toBe(0);
    expect((await records('?market_type=player_props')).count).toBe(0);
  });

  test('when games=upcoming, then the games not started get their pregame opening -> current per book with times, and no live game', async () => {
    const body = await records('?games=upcoming');
    expect(new Set(body.data.map((r: any) => r.game_id))).toEqual(new Set([7002]));
    expect(body.data.find((r: any) => r.book_id === 15 && r.side === 'home')).toMatchObject({
      is_live: false,
      game: { status: 'scheduled' },
      line_movement: { open_line: -1, current_line: -1, opened_at: '2026-01-24T01:00:00.000Z', changed_at: '2026-01-24T01:00:00.000Z' },
      signals: [],
    });
    expect((await records('?games=live')).data.every((r: any) => r.game_id === 7001)).toBe(true);
    const bad = await t.get('/api/v1/nba/odds/live/movement?games=finished', pro);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('games');
  });

  test('when a filter value is not allowed, then 400 names the parameter', async () => {
    const res = await t.get('/api/v1/nba/odds/live/movement?side=left', pro);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: expect.stringContaining('side') });
  });

  test('when a Starter key asks, then 403 names the plans that include it; Elite may', async () => {
    const starter = await t.createKey('starter');
    const res = await t.get('/api/v1/nba/odds/live/movement', starter.key);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/Pro or Elite/);
    expect((await t.get('/api/v1/nba/odds/live/movement', (await t.createKey('elite')).key)).status).toBe(200);
    expect((await t.get('/api/v1/nba/odds/live/movement')).status).toBe(401);
  });
});
