import { americanToDecimal } from '../../src/domain';
import { ingestDocuments } from '../../src/ingest/ingest';
import { createSimulator } from '../../src/ingest/simulator';
import { rosterOf, SIM_PLAYERS_PER_TEAM, SIM_PROP_MARKETS } from '../../src/ingest/simulator/props';
import { simulatedDocuments } from '../../src/ingest/simulator/simulated-feed';
import { teamById } from '../../src/ingest/reference-data';
import { startTestApp, type TestApp } from '../support/app';

// The demo's player props (src/ingest/simulator/props.ts, docs/player-props.md): the simulated feed
// with props, ingested at chosen instants of one NBA evening (before tip, in play, after the final),
// read through the public API at each instant.

const BASE = '/api/v1/nba/odds';
const SEED = 7;
const ZONE = 'America/New_York';
const DAY = '2026-01-14';

const sim = createSimulator({ seed: SEED, startDate: DAY, days: 0, timeZone: ZONE });
const game = sim.scheduleGames().find((g) => g.league_id === 4)!;
const tip = Date.parse(game.tip_off_at);
const PREGAME = new Date(tip - 2 * 3_600_000);
const IN_PLAY = new Date(tip + 75 * 60_000);
const AFTER = new Date(Date.parse(game.final_at) + 5 * 60_000);

describe('simulated player props through the public API', () => {
  let t: TestApp;
  let key: string;
  let clock = PREGAME;
  const answers = new Map<Date, { live: any; markets: any; listing: any }>();

  beforeAll(async () => {
    t = await startTestApp({ now: () => clock });
    key = (await t.createKey('pro')).key;
    for (const at of [PREGAME, IN_PLAY, AFTER]) {
      clock = at;
      const docs = simulatedDocuments(at, { seed: SEED, timeZone: ZONE, days: 0, props: true });
      expect(await ingestDocuments(docs, { db: t.db, bus: t.bus })).toMatchObject({ rejected: 0 });
      answers.set(at, {
        live: (await t.get(`${BASE}/live?market_type=player_props&game_id=${game.id}`, key)).body,
        markets: (await t.get(`${BASE}/games/${game.id}/markets?market_type=player_props`, key)).body,
        listing: (await t.get(`${BASE}/markets/player_props?game_id=${game.id}&limit=1000`, key)).body,
      });
    }
  }, 180_000);
  afterAll(() => t?.close());

  const home = teamById(game.home_team_id)!;
  const away = teamById(game.away_team_id)!;
  const expectedPrices = 2 * SIM_PLAYERS_PER_TEAM * SIM_PROP_MARKETS.length * 4 * 2; // teams x players x props x books x sides

  test('when the game is two hours from tip, then its pregame props are listed for every player, prop and book with -110-like prices, and nothing is live', async () => {
    const { live, markets, listing } = answers.get(PREGAME)!;
    expect(live.data).toEqual([]);
    const outcomes = markets.data.markets.player_props.outcomes.filter((o: any) => o.is_available);
    expect(outcomes).toHaveLength(expectedPrices);
    expect(outcomes.every((o: any) => o.is_live === false)).toBe(true);
    expect(listing.data.length).toBe(expectedPrices);
    checkPairs(outcomes);
  });

  test('when the game is in play, then /live?market_type=player_props lists its live props, every player with the team of the roster', async () => {
    const { live } = answers.get(IN_PLAY)!;
    expect(live.data).toHaveLength(1);
    // The props attached to the simulated scoreboard's game: no game of their own.
    expect(await t.db.prisma.game.count({ where: { simulated: false } })).toBe(0);
    const props = live.data[0].markets.player_props;
    expect(props.outcomes.length).toBe(expectedPrices);
    expect(props.outcomes.every((o: any) => o.is_live === true)).toBe(true);
    const roster = new Map([...rosterOf(SEED, home), ...rosterOf(SEED, away)].map((p) => [p.name, p.teamId]));
    for (const o of props.outcomes) {
      expect(o.player.team_id).toBe(roster.get(o.player.name));
      expect(o.point % 1).toBe(0.5);
    }
    checkPairs(props.outcomes);
    // The lines moved from pregame (the minutes played and the stats so far).
    const pre = new Map<string, number>(answers.get(PREGAME)!.markets.data.markets.player_props.outcomes.map((o: any) => [`${o.book_id}|${o.player.id}|${o.prop_type}|${o.side}`, o.point]));
    const moved = props.outcomes.filter((o: any) => pre.get(`${o.book_id}|${o.player.id}|${o.prop_type}|${o.side}`) !== o.point);
    expect(moved.length).toBeGreaterThan(props.outcomes.length / 4);
  });

  test('when the game has ended, then its props are taken off', async () => {
    const { live, markets, listing } = answers.get(AFTER)!;
    expect(live.data).toEqual([]);
    expect((markets.data.markets.player_props?.outcomes ?? []).filter((o: any) => o.is_available)).toEqual([]);
    expect(listing.data).toEqual([]);
  });

  test('when the game has ended, then its box score is in and its players\' in-play props grade from their lines (the demo grades props)', async () => {
    const box = await t.get(`${BASE}/games/${game.id}/boxscore`, key);
    expect(box.status).toBe(200);
    const lines = box.body.data.players.flatMap((team: any) => team.players);
    expect(lines).toHaveLength(2 * SIM_PLAYERS_PER_TEAM);
    expect(box.body.data.players.every((team: any) => team.final)).toBe(true);
    const outcomes = answers.get(IN_PLAY)!.live.data[0].markets.player_props.outcomes.filter((o: any) => o.prop_type === 'points');
    const res = await t.request('POST', `${BASE}/grade`, key, {
      bets: outcomes.map((o: any) => ({ game_id: game.id, market_type: 'player_props', prop_type: 'points', player_id: o.player.id, side: o.side, line: o.point })),
    });
    expect(res.status).toBe(200);
    res.body.data.forEach((g: any, i: number) => {
      const points = lines.find((l: any) => l.player_id === outcomes[i].player.id).points;
      expect({ result: g.result, value: g.player_value }).toEqual({ result: (outcomes[i].side === 'over') === points > outcomes[i].point ? 'won' : 'lost', value: points });
    });
  });

  test('when /players is asked by team, then the simulated roster is there with its team', async () => {
    const res = await t.get(`${BASE}/players?team_id=${home.id}`, key);
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: any) => p.name).sort()).toEqual(rosterOf(SEED, home).map((p) => p.name).sort());
    expect(res.body.data.every((p: any) => p.team_id === home.id && p.league_id === 4)).toBe(true);
  });

  test('when a source names a player with another team, then the player stays one player with the new team', async () => {
    const player = rosterOf(SEED, home)[0]!;
    const before = (await t.get(`${BASE}/players?name=${encodeURIComponent(player.name)}`, key)).body.data;
    expect(before).toEqual([expect.objectContaining({ name: player.name, team_id: home.id })]);
    // The same player on the away team in a later props capture of the same game.
    clock = IN_PLAY;
    const event = {
      id: `simulated-${game.id}`, sport_key: 'basketball_nba', commence_time: new Date(tip).toISOString(), home_team: home.full_name, away_team: away.full_name,
      bookmakers: [{ key: 'draftkings', title: 'DraftKings', markets: [{ key: 'player_points', outcomes: [
        { name: 'Over', description: player.name, price: -110, point: 20.5, team: away.full_name },
        { name: 'Under', description: player.name, price: -110, point: 20.5, team: away.full_name },
      ] }] }],
    };
    const summary = await ingestDocuments([{ name: 'moved', fetchedAt: IN_PLAY, body: [event], envelope: { source: 'the-odds-api' } }], { db: t.db });
    expect(summary).toMatchObject({ rejected: 0 });
    const after = (await t.get(`${BASE}/players?name=${encodeURIComponent(player.name)}`, key)).body.data;
    expect(after).toEqual([{ ...before[0], team_id: away.id }]);
  });
});

/** Over and under of each book, player and prop share a line, and their vig is a book's (2-8%). */
function checkPairs(outcomes: any[]): void {
  const pairs = new Map<string, any[]>();
  for (const o of outcomes) {
    const k = `${o.book_id}|${o.player.id}|${o.prop_type}`;
    pairs.set(k, [...(pairs.get(k) ?? []), o]);
  }
  const books = new Set<number>();
  for (const pair of pairs.values()) {
    expect(pair.map((o) => o.side).sort()).toEqual(['over', 'under']);
    expect(pair[0].point).toBe(pair[1].point);
    const overround = pair.reduce((s, o) => s + 1 / americanToDecimal(Number(o.odds.american)), 0) - 1;
    expect(overround).toBeGreaterThan(0.015);
    expect(overround).toBeLessThan(0.08);
    books.add(pair[0].book_id);
  }
  expect([...books].sort((a, b) => a - b)).toEqual([68, 69, 75, 4999]);
}
