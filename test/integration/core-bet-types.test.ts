import { startTestApp, type TestApp } from '../support/app';
import { readFeed, readSeries } from '../support/feeds';

// The core team-score markets (spec 2.3 `core_bet_types`): the feed's team totals
// (`core_bet_type_6_team_score`) through ingest to REST and GraphQL, on the real playoff capture of
// 2026-04-29 (288370 final, 288371 in progress with live team totals, 288374 cancelled without any).
// Expected values are read from the raw capture, not written down.

const BASE = '/api/v1/nba/odds';
const FIXTURE = 'nba-2026-04-29-playoffs-subset.json';
const AGGREGATE_BOOKS = new Set([15, 30]);
let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp({ feeds: [`test/fixtures/feeds/${FIXTURE}`] });
  key = (await t.createKey('pro')).key;
});
afterAll(() => t.close());

const get = (path: string) => t.get(BASE + path, key);

interface RawTeamTotal {
  book: number;
  side: string;
  value: number;
  odds: number;
  isLive: boolean;
}

/** The raw team-total outcomes of one team of one game, full game, as the capture has them. */
function rawTeamTotals(gameId: number, teamId: number): RawTeamTotal[] {
  const game = readFeed(FIXTURE).games.find((g: any) => g.id === gameId);
  const out: RawTeamTotal[] = [];
  for (const [book, periods] of Object.entries<any>(game.markets)) {
    for (const o of periods.event?.core_bet_type_6_team_score ?? []) {
      if (o.team_id === teamId) out.push({ book: Number(book), side: o.side, value: o.value, odds: o.odds, isLive: o.is_live ?? false });
    }
  }
  return out;
}

/** One row per book and side, the live one while the game is played (as a game shows its quotes). */
function displayed(raw: RawTeamTotal[], live: boolean): RawTeamTotal[] {
  const chosen = new Map<string, RawTeamTotal>();
  for (const r of raw) {
    const k = `${r.book}|${r.side}`;
    const current = chosen.get(k);
    if (!current || (current.isLive !== r.isLive && r.isLive === live)) chosen.set(k, r);
  }
  return [...chosen.values()].sort((a, b) => a.book - b.book || (a.side < b.side ? -1 : 1));
}

const rawGame = (gameId: number) => readFeed(FIXTURE).games.find((g: any) => g.id === gameId);

describe('GET /games/:game_id: markets.core_bet_types', () => {
  test.each([
    [288370, false],
    [288371, true],
  ])('when game %i has team totals, then core_bet_types holds one over/under market per team with every book of the capture', async (gameId, live) => {
    const raw = rawGame(gameId);
    const res = await get(`/games/${gameId}`);
    expect(res.status).toBe(200);
    const core = res.body.data.markets.core_bet_types;
    expect(Object.keys(core).sort()).toEqual(['away_team_total', 'home_team_total']);
    for (const [field, teamId] of [['home_team_total', raw.home_team_id], ['away_team_total', raw.away_team_id]] as const) {
      const market = core[field];
      expect(market.market_type).toBe(field);
      const expected = displayed(rawTeamTotals(gameId, teamId), live);
      expect(market.count).toBe(expected.length);
      expect(market.outcomes.map((o: any) => [o.book_id, o.side, o.point, o.odds.original, o.is_live])).toEqual(
        expected.map((r) => [r.book, r.side, r.value, r.odds, r.isLive]),
      );
      for (const o of market.outcomes) {
        expect(o).toMatchObject({ market_type: field, team_id: teamId, team: { id: teamId }, period: 'full_game' });
      }
      // Best odds and consensus count real books only (never the Consensus or Open aggregate).
      const real = expected.filter((r) => !AGGREGATE_BOOKS.has(r.book));
      const bestDecimal = Math.max(...real.map((r) => (r.odds > 0 ? 1 + r.odds / 100 : 1 + 100 / -r.odds)));
      if (live) {
        expect(market.best_odds.decimal).toBeCloseTo(bestDecimal, 4);
        expect(AGGREGATE_BOOKS.has(market.best_odds.book_id)).toBe(false);
      } else {
        // 288370 is final: its shown prices are pregame prices of a started game, none can be bet (issue 23).
        expect(market.best_odds).toBeNull();
      }
      expect(market.consensus.book_count).toBe(new Set(real.map((r) => r.book)).size);
    }
  });

  test('when the game is final, then each team-total outcome is graded on that team\'s points alone', async () => {
    const raw = rawGame(288370);
    const res = await get('/games/288370');
    const core = res.body.data.markets.core_bet_types;
    const own = { home_team_total: raw.boxscore.total_home_points, away_team_total: raw.boxscore.total_away_points } as Record<string, number>;
    for (const field of ['home_team_total', 'away_team_total']) {
      for (const o of core[field].outcomes) {
        const margin = o.side === 'over' ? own[field]! - o.point : o.point - own[field]!;
        expect(o.result).toBe(margin > 0 ? 'won' : margin < 0 ? 'lost' : 'push');
      }
    }
  });

  test('when a game has no team total, then core_bet_types is null', async () => {
    expect(rawTeamTotals(288374, rawGame(288374).home_team_id)).toHaveLength(0);
    const res = await get('/games/288374');
    expect(res.status).toBe(200);
    expect(res.body.data.markets.core_bet_types).toBeNull();
  });

  test('when a period has no team total, then core_bet_types is null for it', async () => {
    const res = await get('/games/288370/markets?period=first_half');
    expect(res.status).toBe(200);
    expect(res.body.data.markets.core_bet_types).toBeNull();
  });
});

describe('GET /games/:game_id/markets: core_bet_types', () => {
  test('when no market_type is given, then core_bet_types carries only market_type, count and outcomes per team', async () => {
    const res = await get('/games/288370/markets');
    expect(Object.keys(res.body.data.markets).sort()).toEqual(['core_bet_types', 'moneyline', 'spread', 'total']);
    for (const market of Object.values(res.body.data.markets.core_bet_types) as any[]) {
      expect(Object.keys(market).sort()).toEqual(['count', 'market_type', 'outcomes']);
      expect(market.count).toBe(market.outcomes.length);
    }
  });

  test('when market_type=core_bet_types (alone or with another), then only those are served; a book filter narrows them', async () => {
    const only = await get('/games/288370/markets?market_type=core_bet_types');
    expect(only.status).toBe(200);
    expect(Object.keys(only.body.data.markets)).toEqual(['core_bet_types']);
    const mixed = await get('/games/288370/markets?market_type=total,core_bet_types&book_id=68');
    expect(Object.keys(mixed.body.data.markets).sort()).toEqual(['core_bet_types', 'total']);
    const outcomes = [...mixed.body.data.markets.core_bet_types.home_team_total.outcomes, ...mixed.body.data.markets.core_bet_types.away_team_total.outcomes];
    expect(outcomes).toHaveLength(4);
    expect(outcomes.every((o: any) => o.book_id === 68)).toBe(true);
    const without = await get('/games/288370/markets?market_type=spread');
    expect(Object.keys(without.body.data.markets)).toEqual(['spread']);
  });

  test('when market_type names an unknown market, then 400 naming the accepted words', async () => {
    const res = await get('/games/288370/markets?market_type=team_totals');
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('market_type');
    expect(res.body.error).toContain('core_bet_types');
  });
});

describe('GraphQL Markets.coreBetTypes', () => {
  test('when asked for a team total, then its consensus line is the median of the real books and each outcome names its team', async () => {
    const res = await t.graphql(
      `{ game(gameId: 288370) { homeTeamId markets { coreBetTypes { homeTeamTotal { marketType consensus { sides { side point } } outcomes { teamId team { id } } } } } } }`,
      {},
      key,
    );
    expect(res.body.errors).toBeUndefined();
    const game = res.body.data.game;
    const market = game.markets.coreBetTypes.homeTeamTotal;
    expect(market.marketType).toBe('home_team_total');
    const points = rawTeamTotals(288370, game.homeTeamId)
      .filter((r) => !AGGREGATE_BOOKS.has(r.book) && r.side === 'over')
      .map((r) => r.value)
      .sort((a, b) => a - b);
    const mid = points.length / 2;
    const median = points.length % 2 ? points[Math.floor(mid)]! : (points[mid - 1]! + points[mid]!) / 2;
    expect(market.consensus.sides.find((s: any) => s.side === 'over').point).toBe(median);
    expect(market.outcomes.every((o: any) => o.teamId === game.homeTeamId && o.team.id === game.homeTeamId)).toBe(true);
  });
});

describe('listings across markets keep to the three markets', () => {
  test('when line movement, the live snapshot or closing lines are asked without a market filter, then no team total appears', async () => {
    const movement = await get('/live/movement?game_id=288371');
    expect(movement.status).toBe(200);
    expect(JSON.stringify(movement.body)).not.toContain('team_total');
    const live = await get('/live?game_id=288371');
    expect(live.status).toBe(200);
    expect(live.body.data).toHaveLength(1);
    expect(JSON.stringify(live.body)).not.toContain('team_total');
    const closing = await get('/closing?game_id=288370');
    expect(closing.status).toBe(200);
    expect(closing.body.data.length).toBeGreaterThan(0);
    expect(JSON.stringify(closing.body)).not.toContain('team_total');
  });
});

describe('history of team totals (the recorded playoff series)', () => {
  let h: TestApp;
  let hKey: string;
  beforeAll(async () => {
    h = await startTestApp({ feeds: ['test/fixtures/feeds/nba-2026-04-29-playoffs.jsonl.gz'] });
    hKey = (await h.createKey('pro')).key;
  }, 180_000);
  afterAll(() => h.close());

  test('when the closing snapshot of a game is asked, then core_bet_types holds each book\'s last pregame team total before the start', async () => {
    const captures = readSeries('nba-2026-04-29-playoffs.jsonl.gz');
    const game = captures.flatMap((c) => c.body.games).find((g: any) => g.id === 288370);
    // The last pregame home over of book 68 in a capture before the start (the game had no live price earlier).
    let expected: { value: number; odds: number } | undefined;
    for (const c of captures) {
      if (Date.parse(c.fetched_at) >= Date.parse(game.start_time)) continue;
      const g = c.body.games.find((x: any) => x.id === 288370);
      const o = (g?.markets?.['68']?.event?.core_bet_type_6_team_score ?? []).find((x: any) => x.team_id === game.home_team_id && x.side === 'over' && !x.is_live);
      if (o) expected = { value: o.value, odds: o.odds };
    }
    expect(expected).toBeDefined();
    const res = await h.get(`${BASE}/historical?start_date=2026-04-29&end_date=2026-04-29&game_id=288370`, hKey);
    expect(res.status).toBe(200);
    const core = res.body.data[0].game.markets.core_bet_types;
    const over = core.home_team_total.outcomes.find((o: any) => o.book_id === 68 && o.side === 'over');
    expect([over.point, over.odds.original, over.is_live]).toEqual([expected!.value, expected!.odds, false]);
    // Asked for the three markets only, the snapshot has no team total.
    const spreadOnly = await h.get(`${BASE}/historical?start_date=2026-04-29&end_date=2026-04-29&game_id=288370&market_type=spread`, hKey);
    expect(spreadOnly.body.data[0].game.markets.core_bet_types).toBeNull();
  });
});
