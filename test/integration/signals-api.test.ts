import { feedPath } from '../support/feeds';
import { startTestApp, type TestApp } from '../support/app';

// Line-movement signals detected at ingest and served (issue 23; docs/signals.md): the real series of
// 2026-01-24 and 2026-04-29 ingested capture by capture, then /signals and Query.lineSignals read
// what the ingest stored.

const BASE = '/api/v1/nba/odds';

describe('GET /signals on the real series', () => {
  let t: TestApp;
  let pro: string;
  let starter: string;

  beforeAll(async () => {
    t = await startTestApp({ feeds: [feedPath('nba-2026-01-24.jsonl.gz'), feedPath('nba-2026-04-29-playoffs.jsonl.gz')] });
    pro = (await t.createKey('pro')).key;
    starter = (await t.createKey('starter')).key;
  }, 300_000);
  afterAll(() => t.close());

  const signals = async (query: string) => {
    const res = await t.get(`${BASE}/signals?${query}`, pro);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(res.body.data.length);
    return res.body.data as any[];
  };

  test.each([['2026-01-24'], ['2026-04-29']])('when the signals of %s are read, then the ingest stored steam, RLM and leader events of that day, newest first', async (day) => {
    const data = await signals(`date=${day}`);
    const byKind = (k: string) => data.filter((s) => s.kind === k);
    expect(byKind('steam').length).toBeGreaterThan(0);
    expect(byKind('reverse_line_movement').length).toBeGreaterThan(0);
    expect(byKind('market_leader').length).toBeGreaterThan(0);
    for (let i = 1; i < data.length; i++) expect(Date.parse(data[i - 1].at)).toBeGreaterThanOrEqual(Date.parse(data[i].at));
    for (const s of byKind('steam')) {
      expect(new Set(s.data.moves.map((m: any) => m.book_id)).size).toBeGreaterThanOrEqual(3);
      expect(Date.parse(s.detected_at)).toBeGreaterThanOrEqual(Date.parse(s.at));
    }
    for (const s of byKind('reverse_line_movement')) {
      expect(s.data.majority_tickets_percent).toBeGreaterThanOrEqual(60);
      expect(s.data.toward_side).not.toBe(s.data.majority_side);
      expect(s.side).toBe(s.data.toward_side);
    }
  });

  test('when filtered by kind and market_type, then only those come back; GraphQL answers the same', async () => {
    const steamTotals = await signals('date=2026-01-24&kind=steam&market_type=total');
    expect(steamTotals.length).toBeGreaterThan(0);
    expect(steamTotals.every((s) => s.kind === 'steam' && s.market_type === 'total')).toBe(true);
    const res = await t.graphql(`{ lineSignals(date: "2026-01-24", kind: [STEAM], marketType: [TOTAL]) { kind gameId at } }`, {}, pro);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.lineSignals).toEqual(steamTotals.map((s) => ({ kind: s.kind, gameId: s.game_id, at: s.at })));
  });

  test('when a starter key asks, then 403; a bad kind, then 400 naming it', async () => {
    expect((await t.get(`${BASE}/signals?date=2026-01-24`, starter)).status).toBe(403);
    const bad = await t.get(`${BASE}/signals?kind=whale`, pro);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('invalid parameter kind');
  });
});
