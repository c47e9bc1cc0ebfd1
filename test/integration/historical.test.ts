import { ingestDocuments } from '../../src/ingest/ingest';
import { startTestApp, type TestApp } from '../support/app';
import { capture, type GameSpec } from './live-helpers';

// GET /odds/historical from crafted history: closing lines, point-in-time snapshots, the 400s.

// 00:30 UTC on the 24th is the evening of the 23rd in New York: the snapshot's date is 20260123.
const START_A = '2026-01-24T00:30:00.000Z';
const START_B = '2026-01-25T00:00:00.000Z';
const a = (status: GameSpec['status'], books: GameSpec['books']): GameSpec => ({ id: 8001, status, start: START_A, books });
const b = (status: GameSpec['status'], books: GameSpec['books']): GameSpec => ({ id: 8002, status, start: START_B, books, home: 9011, away: 9012 });

describe('historical odds', () => {
  let t: TestApp;
  let pro: string;
  const path = '/api/v1/nba/odds/historical';

  beforeAll(async () => {
    t = await startTestApp();
    pro = (await t.createKey('pro')).key;
    await ingestDocuments(
      [
        capture('2026-01-23T15:00:00.000Z', a('scheduled', { 15: { spread: [-3, -110, -110], total: [220.5, -110, -110] } }), b('scheduled', { 15: { moneyline: [120, -140] } })),
        capture('2026-01-23T20:00:00.000Z', a('scheduled', { 15: { spread: [-4, -110, -110], total: [221, -110, -110] } }), b('scheduled', { 15: { moneyline: [120, -140] } })),
        // After the start: the pregame prices are frozen, live prices appear and move.
        capture('2026-01-24T01:00:00.000Z', a('inprogress', { 15: { spread: [-4, -110, -110], total: [221, -110, -110], live: { spread: [-6, -110, -110] } } })),
        capture('2026-01-24T01:30:00.000Z', a('inprogress', { 15: { spread: [-4, -110, -110], total: [221, -110, -110], live: { spread: [-9, -120, 100] } } })),
        capture('2026-01-24T22:00:00.000Z', b('scheduled', { 15: { moneyline: [110, -130] } })),
      ],
      { db: t.db },
    );
  });
  afterAll(() => t.close());

  const snapshot = (body: any, id: number) => body.data.find((s: any) => s.game.game_id === id);
  const outcome = (s: any, market: string, side: string) => s.game.markets[market].outcomes.find((o: any) => o.side === side);

  test('when no instant is given, then each game has one snapshot: its closing line, fetched when that line was last changed', async () => {
    const res = await t.get(`${path}?start_date=2026-01-23&end_date=2026-01-24`, pro);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, count: 2, pagination: { limit: 100, offset: 0, total: 2, has_more: false } });
    const sa = snapshot(res.body, 8001);
    expect(sa).toMatchObject({ date: '20260123', fetched_at: '2026-01-23T20:00:00.000Z' });
    expect(outcome(sa, 'spread', 'home')).toMatchObject({ point: -4, is_live: false, odds: { american: '-110' } });
    expect(outcome(sa, 'total', 'over')).toMatchObject({ point: 221 });
    expect(sa.game.markets.spread.count).toBe(2);
    const sb = snapshot(res.body, 8002);
    expect(sb).toMatchObject({ date: '20260124', fetched_at: '2026-01-24T22:00:00.000Z' });
    expect(outcome(sb, 'moneyline', 'home').odds.american).toBe('+110');
  });

  test('when `at` falls before the start, then the snapshot shows the prices of that moment', async () => {
    const res = await t.get(`${path}?start_date=2026-01-23&end_date=2026-01-23&at=2026-01-23T16:00:00Z`, pro);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    const s = res.body.data[0];
    expect(s.fetched_at).toBe('2026-01-23T16:00:00.000Z');
    expect(outcome(s, 'spread', 'home').point).toBe(-3);
    expect(outcome(s, 'total', 'under').point).toBe(220.5);
  });

  test('when `at` falls during the game, then the live prices of that moment are shown', async () => {
    const res = await t.get(`${path}?start_date=2026-01-23&end_date=2026-01-23&at=2026-01-24T01:10:00Z&market_type=spread`, pro);
    const s = res.body.data[0];
    expect(outcome(s, 'spread', 'home')).toMatchObject({ point: -6, is_live: true });
    expect(s.game.markets.total.count).toBe(0);
    const later = await t.get(`${path}?start_date=2026-01-23&end_date=2026-01-23&at=2026-01-24T02:00:00Z`, pro);
    expect(outcome(later.body.data[0], 'spread', 'away')).toMatchObject({ point: 9, odds: { american: '+100' } });
  });

  test('when `at` is before any price of a game, then the game has no snapshot', async () => {
    const res = await t.get(`${path}?start_date=2026-01-23&end_date=2026-01-24&at=2026-01-22T00:00:00Z`, pro);
    expect(res.body).toMatchObject({ success: true, count: 0, data: [] });
  });

  test('when pages are asked for, then limit and offset page the snapshots in start order', async () => {
    const first = await t.get(`${path}?start_date=2026-01-23&end_date=2026-01-24&limit=1`, pro);
    expect(first.body).toMatchObject({ count: 1, pagination: { limit: 1, offset: 0, total: 2, has_more: true } });
    expect(first.body.data[0].game.game_id).toBe(8001);
    const second = await t.get(`${path}?start_date=2026-01-23&end_date=2026-01-24&limit=1&offset=1`, pro);
    expect(second.body.data[0].game.game_id).toBe(8002);
    expect((await t.get(`${path}?start_date=2026-01-23&end_date=2026-01-24&limit=1001`, pro)).status).toBe(400);
  });

  test('when game_id and book_id narrow the request, then only those snapshots and outcomes remain', async () => {
    const res = await t.get(`${path}?start_date=2026-01-23&end_date=2026-01-24&game_id=8002`, pro);
    expect(res.body.data.map((s: any) => s.game.game_id)).toEqual([8002]);
    expect((await t.get(`${path}?start_date=2026-01-23&end_date=2026-01-24&book_id=999`, pro)).body.count).toBe(0);
  });

  test.each([
    ['?end_date=2026-01-24', /start_date/],
    ['?start_date=2026-01-24', /end_date/],
    ['?start_date=2026-01-24&end_date=2026-01-23', /end_date.*before start_date/],
    ['?start_date=2026-01-01&end_date=2026-02-01', /at most 31 days/],
    ['?start_date=2026-01-23&end_date=2026-01-24&at=yesterday', /at|DateTime/],
    ['?start_date=2026-02-30&end_date=2026-03-01', /start_date/],
  ])('when the query is %s, then 400 says what is wrong', async (query, message) => {
    const res = await t.get(path + query, pro);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: expect.stringMatching(message) });
  });

  test('when the range is exactly 31 days, then it is accepted', async () => {
    expect((await t.get(`${path}?start_date=2026-01-01&end_date=2026-01-31`, pro)).status).toBe(200);
  });

  test('when a Starter key asks, then 403 names the plans; without a key 401', async () => {
    const res = await t.get(`${path}?start_date=2026-01-23&end_date=2026-01-24`, (await t.createKey('starter')).key);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/historical.*Pro or Elite/);
    expect((await t.get(`${path}?start_date=2026-01-23&end_date=2026-01-24`)).status).toBe(401);
  });
});
