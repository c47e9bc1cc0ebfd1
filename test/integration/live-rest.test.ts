import { ingestDocuments } from '../../src/ingest/ingest';
import { startTestApp, type TestApp } from '../support/app';
import { AWAY, capture, HOME } from './live-helpers';

// GET /odds/live: the games being played, their markets, the filters and updated_at.

describe('GET /odds/live', () => {
  let t: TestApp;
  let starter: string;
  const path = '/api/v1/nba/odds/live';

  beforeAll(async () => {
    t = await startTestApp();
    starter = (await t.createKey('starter')).key;
    await ingestDocuments(
      [
        capture('2026-01-24T01:00:00.000Z', { id: 6001, status: 'inprogress', start: '2026-01-24T00:30:00.000Z', books: { 15: { spread: [-3, -110, -110], moneyline: [-150, 130], live: { spread: [-5.5, -110, -110] } }, 68: { total: [220.5, -105, -115] } } }),
        capture('2026-01-24T01:00:00.000Z', { id: 6002, status: 'scheduled', start: '2026-01-25T00:30:00.000Z', books: { 15: { spread: [-1, -110, -110] } } }),
        // Book 68 is seen later than book 15's last quote of game 6001.
        capture('2026-01-24T01:05:00.000Z', { id: 6001, status: 'inprogress', start: '2026-01-24T00:30:00.000Z', books: { 15: { spread: [-3, -110, -110], moneyline: [-150, 130], live: { spread: [-5.5, -110, -110] } }, 68: { total: [221.5, -105, -115] } } }),
      ],
      { db: t.db },
    );
  });
  afterAll(() => t.close());

  test('when a Starter key asks, then only games in progress come back, with teams, markets and updated_at', async () => {
    const res = await t.get(path, starter);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, count: 1, updated_at: '2026-01-24T01:05:00.000Z' });
    const game = res.body.data[0];
    expect(game).toMatchObject({ game_id: 6001, status: 'in_progress', start_time: '2026-01-24T00:30:00.000Z', home_team_id: HOME, away_team_id: AWAY });
    expect(game.teams.map((x: any) => x.id)).toEqual([AWAY, HOME]);
    expect(Object.keys(game.markets).sort()).toEqual(['moneyline', 'spread', 'total']);
    // The live price is shown while the game is being played.
    const home = game.markets.spread.outcomes.find((o: any) => o.side === 'home');
    expect(home).toMatchObject({ point: -5.5, is_live: true, label: 'H1 -5.5' });
    expect(home.odds.implied_probability).toBeCloseTo(110 / 210, 9);
    expect(game.markets.total.outcomes.find((o: any) => o.side === 'over').label).toBe('Over 221.5');
    expect(game.markets.moneyline.outcomes.find((o: any) => o.side === 'away').label).toBe('A2');
  });

  test('when market_type is given, then markets carry only that type and updated_at covers only it', async () => {
    const res = await t.get(`${path}?market_type=spread`, starter);
    expect(Object.keys(res.body.data[0].markets)).toEqual(['spread']);
    expect(res.body.updated_at).toBe('2026-01-24T01:05:00.000Z');
  });

  test('when market_type is player_props and no book quotes a prop of the game, then its markets hold player_props null and nothing else', async () => {
    const res = await t.get(`${path}?market_type=player_props`, starter);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, count: 1, updated_at: null });
    expect(res.body.data[0].markets).toEqual({ player_props: null }); // no book quotes a prop for this game
  });

  test('when book_id and game_id are given, then they narrow the outcomes and the games', async () => {
    const res = await t.get(`${path}?book_id=68`, starter);
    const markets = res.body.data[0].markets;
    expect(markets.spread.outcomes).toEqual([]);
    expect(markets.total.outcomes.every((o: any) => o.book_id === 68)).toBe(true);
    expect((await t.get(`${path}?game_id=6002`, starter)).body.count).toBe(0);
  });

  test('when a parameter is invalid, then 400 names it; without a key 401; with an expired subscription 403', async () => {
    const bad = await t.get(`${path}?market_type=props`, starter);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/market_type/);
    expect((await t.get(path)).status).toBe(401);
    const expired = await t.createKey('elite', { expiresAt: new Date('2020-01-01T00:00:00Z') });
    expect((await t.get(path, expired.key)).status).toBe(403);
  });

  test('when GraphQL asks liveGames, then it answers like the REST route', async () => {
    const res = await t.graphql('{ liveGames(marketType: TOTAL) { count updatedAt reason games { gameId } } }', {}, starter);
    expect(res.body.data.liveGames).toEqual({ count: 1, updatedAt: '2026-01-24T01:05:00.000Z', reason: 'snapshot', games: [{ gameId: 6001 }] });
  });
});
