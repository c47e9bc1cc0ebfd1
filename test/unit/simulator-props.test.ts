import { normalizeOddsApi } from '../../src/ingest/feeds/the-odds-api/normalize';
import { normalizeEspnSummary } from '../../src/ingest/feeds/espn/normalize';
import { gradeProp } from '../../src/domain';
import { teamsOfLeague, LEAGUE_ID_NBA, LEAGUE_ID_WNBA } from '../../src/ingest/reference-data';
import { createSimulator } from '../../src/ingest/simulator';
import { rosterOf, SIM_PROPS_POSTED_HOURS_BEFORE } from '../../src/ingest/simulator/props';
import { propsPollNextAt } from '../../src/ingest/feeds/the-odds-api/props-schedule';

// The simulator's player props as pure functions of (seed, game, instant): src/ingest/simulator/props.ts.

const SEED = 11;
const sim = createSimulator({ seed: SEED, startDate: '2026-01-14', days: 0, timeZone: 'America/New_York' });
const games = sim.scheduleGames().filter((g) => g.league_id === LEAGUE_ID_NBA);

type Outcome = { name: string; description: string; price: number; point: number; team: string };
type Event = { id: string; bookmakers: Array<{ key: string; markets: Array<{ key: string; outcomes: Outcome[] }> }> };

function eventAt(gameId: number, at: number): Event | undefined {
  for (const events of sim.propEventsAt(new Date(at)).values()) {
    const e = (events as unknown as Event[]).find((x) => x.id === `simulated-${gameId}`);
    if (e) return e;
  }
  return undefined;
}

/** point by book, player and market of an event. */
const lines = (e: Event) => new Map(e.bookmakers.flatMap((b) => b.markets.flatMap((m) => m.outcomes.filter((o) => o.name === 'Over').map((o) => [`${b.key}|${o.description}|${m.key}`, o.point] as const))));

describe('simulated player props', () => {
  test('when rosters are drawn, then every league\'s names are unique, each team has 3 players, and the same seed gives the same rosters', () => {
    for (const league of [LEAGUE_ID_NBA, LEAGUE_ID_WNBA]) {
      const names = teamsOfLeague(league).flatMap((t) => rosterOf(SEED, t).map((p) => p.name));
      expect(new Set(names).size).toBe(names.length);
      expect(names.length).toBe(teamsOfLeague(league).length * 3);
    }
    const team = teamsOfLeague(LEAGUE_ID_NBA)[0]!;
    expect(rosterOf(SEED, team)).toEqual(rosterOf(SEED, team));
  });

  test('when a game is more than a day away, then it has no props; from 24 h before tip it has, pregame lines near the players\' averages', () => {
    const g = games[0]!;
    const tip = Date.parse(g.tip_off_at);
    expect(eventAt(g.id, tip - (SIM_PROPS_POSTED_HOURS_BEFORE + 1) * 3_600_000)).toBeUndefined();
    const e = eventAt(g.id, tip - 3_600_000)!;
    expect(e.bookmakers.map((b) => b.key)).toEqual(['draftkings', 'fanduel', 'betmgm', 'pinnacle']);
    const roster = new Map(
      [...rosterOf(SEED, { id: g.home_team_id, league_id: LEAGUE_ID_NBA } as never), ...rosterOf(SEED, { id: g.away_team_id, league_id: LEAGUE_ID_NBA } as never)].map((p) => [p.name, p]),
    );
    const points = e.bookmakers.find((b) => b.key === 'pinnacle')!.markets.find((m) => m.key === 'player_points')!;
    for (const o of points.outcomes) expect(Math.abs(o.point - roster.get(o.description)!.averages.points)).toBeLessThan(0.2 * roster.get(o.description)!.averages.points + 1);
  });

  test('when a game is played, then each line stays above the stat so far, and the pregame-to-final lines move while the props stay priced as pairs', () => {
    for (const g of games) {
      const tip = Date.parse(g.tip_off_at);
      const end = Date.parse(g.final_at);
      const pre = lines(eventAt(g.id, tip - 60_000)!);
      let moved = 0;
      for (let t = tip + 60_000; t < end; t += 10 * 60_000) {
        const e = eventAt(g.id, t)!;
        for (const b of e.bookmakers) {
          for (const m of b.markets) {
            const over = m.outcomes.filter((o) => o.name === 'Over');
            const under = m.outcomes.filter((o) => o.name === 'Under');
            expect(over.map((o) => o.point)).toEqual(under.map((o) => o.point));
            for (const o of m.outcomes) expect(o.point % 1).toBe(0.5);
          }
        }
        for (const [k, point] of lines(e)) if (pre.get(k) !== point) moved++;
      }
      expect(moved).toBeGreaterThan(0);
      // Taken off at the final.
      expect(eventAt(g.id, end + 60_000)!.bookmakers).toEqual([]);
    }
  });

  test('when a simulated props event is normalised, then it is a props capture whose players name their teams', () => {
    const g = games[0]!;
    const at = Date.parse(g.tip_off_at) + 30 * 60_000;
    const e = eventAt(g.id, at)!;
    const doc = normalizeOddsApi([e], 'sim', { fetchedAt: new Date(at), oddsFormat: 'american' });
    expect(doc.quoteKind).toBe('props');
    expect(doc.quotes.length).toBe(240);
    expect(new Set(doc.quotes.map((q) => q.playerTeamId))).toEqual(new Set([g.home_team_id, g.away_team_id]));
    expect(doc.quotes.every((q) => q.isLive)).toBe(true);
  });
});

describe('propsPollNextAt', () => {
  const start = new Date('2026-07-20T23:00:00Z');
  const at = (minutesBefore: number) => new Date(start.getTime() - minutesBefore * 60_000);
  test('when a game is beyond the window, then it is next due when it enters it; when past, never', () => {
    expect(propsPollNextAt(start, at(30 * 60), null)).toBe(start.getTime() - 24 * 3_600_000);
    expect(propsPollNextAt(start, at(-181), null)).toBeNull();
  });
  test('when a game is in the window, then it is due now if never polled, else at its last poll plus its interval', () => {
    expect(propsPollNextAt(start, at(120), null)).toBe(at(120).getTime());
    expect(propsPollNextAt(start, at(120), at(125))).toBe(at(110).getTime());
    expect(propsPollNextAt(start, at(120), at(200))).toBe(at(120).getTime());
  });

  test('when a game is final, then its box score (ESPN\'s summary shape) has the scoreboard\'s score and a line for every prop player, so that the last in-play lines grade', () => {
    for (const g of games) {
      const end = Date.parse(g.final_at);
      expect(sim.summariesAt(new Date(end - 60_000)).some((b: any) => b.header.id === `simulated-${g.id}`)).toBe(false);
      const body = sim.summariesAt(new Date(end + 60_000)).find((b: any) => b.header.id === `simulated-${g.id}`)!;
      expect(body).toBeDefined();
      const doc = normalizeEspnSummary(body, 'sim', { simulated: true });
      const final = sim.gameAt(g.id, new Date(end + 60_000))!;
      expect(doc.boxscores[0]).toMatchObject({ homeScore: final.boxscore!.total_home_points, awayScore: final.boxscore!.total_away_points });
      expect(doc.games[0]).toMatchObject({ simulated: true, status: 'finished' });
      const box = doc.playerBoxscores![0]!;
      expect(box.final).toBe(true);
      const last = eventAt(g.id, end - 60_000)!;
      const players = new Set(last.bookmakers.flatMap((b) => b.markets.flatMap((m) => m.outcomes.map((o) => o.description))));
      expect(new Set(box.lines.map((l) => l.name))).toEqual(players);
      // The line of the last in-play capture stays above what the player had then: every over is graded, none pushes.
      for (const b of last.bookmakers) {
        for (const m of b.markets) {
          for (const o of m.outcomes) {
            const line = box.lines.find((l) => l.name === o.description)!.line;
            expect(gradeProp({ marketType: m.key, side: o.name.toLowerCase(), point: o.point }, line)?.result).toMatch(/^(won|lost)$/);
          }
        }
      }
      // Gone once the game is official.
      expect(sim.summariesAt(new Date(Date.parse(g.closed_at) + 60_000)).some((b: any) => b.header.id === `simulated-${g.id}`)).toBe(false);
    }
  });
});
