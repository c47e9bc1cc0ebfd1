import { coverProbability, roundToHalfPoint, twoWayBookPrices } from '../../domain';
import { BOOK_ID_PINNACLE, LEAGUE_ID_NBA, teamsOfLeague, type TeamRef } from '../reference-data';
import { SIM_BOOKS } from './books';
import { HOUR } from './calendar';
import { stateAt, type GameState } from './game';
import { sum } from './numbers';
import { Rng } from './random';
import type { GamePlan } from './schedule';

// Player props of the simulated feed (docs/player-props.md, "The demo's props"), written as The Odds
// API's event-odds responses so they travel the real props path (src/ingest/feeds/the-odds-api).
// Everything here is invented and labelled simulated: the players are made-up names on the real
// teams, their averages drawn from the seed. Pure function of (seed, plan, instant), like the rest
// of the simulator.
//
// Volume is kept moderate on purpose (the demo's memory budget and push sizes): 3 players a team,
// 5 prop types, 4 books, 2 sides: 240 prices a game.

/** Players quoted per team. */
export const SIM_PLAYERS_PER_TEAM = 3;

/** Prop markets quoted (The Odds API keys) and the stats they add up. */
export const SIM_PROP_MARKETS = [
  { key: 'player_points', stats: ['points'] },
  { key: 'player_rebounds', stats: ['rebounds'] },
  { key: 'player_assists', stats: ['assists'] },
  { key: 'player_threes', stats: ['threes'] },
  { key: 'player_points_rebounds_assists', stats: ['points', 'rebounds', 'assists'] },
] as const satisfies ReadonlyArray<{ key: string; stats: readonly Stat[] }>;

type Stat = 'points' | 'rebounds' | 'assists' | 'threes';
const STATS: readonly Stat[] = ['points', 'rebounds', 'assists', 'threes'];

/** The Odds API keys of the books that quote props: three retail books and the sharp reference. */
const PROP_BOOKS = [
  { key: 'draftkings', title: 'DraftKings', id: 68 },
  { key: 'fanduel', title: 'FanDuel', id: 69 },
  { key: 'betmgm', title: 'BetMGM', id: 75 },
  { key: 'pinnacle', title: 'Pinnacle', id: BOOK_ID_PINNACLE },
] as const;

/** Props are posted this long before tip-off (inside the poller's schedule: docs/player-props.md). */
export const SIM_PROPS_POSTED_HOURS_BEFORE = 24;

/** Invented names (the simulator labels its data simulated); first x last gives 144 per league, unique. */
const FIRST = ['Avery', 'Jordan', 'Riley', 'Casey', 'Morgan', 'Quinn', 'Reese', 'Skyler', 'Taylor', 'Emery', 'Rowan', 'Dakota'];
const LAST = ['Hollins', 'Marsh', 'Okafor', 'Lindqvist', 'Baptiste', 'Moreau', 'Castellanos', 'Whitfield', 'Nakamura', 'Adeyemi', 'Sorensen', 'Delacroix'];

export interface SimPlayer {
  name: string;
  teamId: number;
  /** Per-game averages of the simulated world (WNBA about 80% of the NBA's). */
  averages: Record<Stat, number>;
}

/** A team's simulated roster of prop players: the same for a seed, names unique in the league. */
export function rosterOf(seed: number, team: TeamRef): SimPlayer[] {
  const teams = teamsOfLeague(team.league_id);
  const index = teams.findIndex((t) => t.id === team.id);
  const scale = team.league_id === LEAGUE_ID_NBA ? 1 : 0.8;
  const out: SimPlayer[] = [];
  for (let slot = 0; slot < SIM_PLAYERS_PER_TEAM; slot++) {
    const n = index * SIM_PLAYERS_PER_TEAM + slot;
    const r = new Rng(seed, 'prop-player', team.id, slot);
    // The first slot is the team's scorer, the others role players.
    const star = slot === 0 ? 1.5 : 1;
    out.push({
      name: `${FIRST[n % FIRST.length]!} ${LAST[Math.floor(n / FIRST.length) % LAST.length]!}`,
      teamId: team.id,
      averages: {
        points: round1(scale * star * (12 + 8 * r.next())),
        rebounds: round1(scale * (3 + 7 * r.next())),
        assists: round1(scale * (1.5 + 6 * r.next())),
        threes: round1(scale * star * (0.8 + 2 * r.next())),
      },
    });
  }
  return out;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** A game's minutes played so far as a share of regulation (0 before tip, 1 at and after the end). */
export function playedShare(plan: GamePlan, s: GameState): number {
  const regulation = plan.model.quarterRealMinutes.length;
  if (s.phase === 'scheduled' || s.phase === 'created') return 0;
  if (s.phase === 'final' || s.phase === 'closed') return 1;
  const minutes = plan.league.period_minutes;
  const done = Math.min(regulation, s.phase === 'halftime' ? s.period : s.period - 1) * minutes;
  const current = s.phase === 'period' && s.period <= regulation ? minutes - s.secondsLeft / 60 : 0;
  return Math.min(1, (done + current) / (regulation * minutes));
}

/**
 * A player's stats so far: points are the player's share of the team's points on the scoreboard (so
 * they follow the baskets), the other stats accrue with the minutes, scaled by the player's form of
 * the night (drawn per game). Never decreasing within a game.
 */
export function statsSoFar(seed: number, plan: GamePlan, player: SimPlayer, s: GameState): Record<Stat, number> {
  const form = 0.6 + 0.8 * new Rng(seed, 'prop-form', plan.game.id, player.name).next();
  const teamPoints = sum(player.teamId === plan.home.id ? s.home : s.away);
  const teamExpected = (plan.totalClose + (player.teamId === plan.home.id ? 1 : -1) * plan.marginClose) / 2;
  const share = playedShare(plan, s);
  return {
    points: Math.floor((teamPoints * player.averages.points * form) / Math.max(1, teamExpected)),
    rebounds: Math.floor(player.averages.rebounds * form * share),
    assists: Math.floor(player.averages.assists * form * share),
    threes: Math.floor(player.averages.threes * form * share),
  };
}

/** Standard deviation of a stat over a game: overdispersed counts (about 1.2 sqrt(mean) + 1). */
const statSd = (mean: number) => 1.2 * Math.sqrt(Math.max(0.3, mean)) + 1;

interface OddsApiOutcome {
  name: 'Over' | 'Under';
  description: string;
  price: number;
  point: number;
  /** Not in The Odds API's responses: only the simulator names the player's team (docs/player-props.md). */
  team: string;
}

/**
 * One game's props as The Odds API's event-odds response at `nowMs` (instants unshifted), or
 * undefined when the game is not yet in the props window (24 h before tip) or is closed. From the
 * final on, the event has no bookmakers: the capture takes the game's props off.
 */
export function propEvent(seed: number, plan: GamePlan, nowMs: number): Record<string, unknown> | undefined {
  const tipMs = plan.tipMs;
  if (nowMs < Math.max(plan.postedMs, tipMs - SIM_PROPS_POSTED_HOURS_BEFORE * HOUR) || nowMs >= plan.closedMs) return undefined;
  const s = stateAt(plan, nowMs);
  const event = {
    id: `simulated-${plan.game.id}`,
    sport_key: plan.league.id === LEAGUE_ID_NBA ? 'basketball_nba' : 'basketball_wnba',
    sport_title: plan.league.id === LEAGUE_ID_NBA ? 'NBA' : 'WNBA',
    // Tip-off, not the scheduled start: The Odds API's props turn live at commence_time.
    commence_time: new Date(tipMs).toISOString(),
    home_team: plan.home.full_name,
    away_team: plan.away.full_name,
    simulated: true,
  };
  if (s.phase === 'final' || s.phase === 'closed') return { ...event, bookmakers: [] };
  const live = nowMs >= tipMs;
  const share = playedShare(plan, s);
  const hour = Math.floor(nowMs / HOUR);
  const players = [...rosterOf(seed, plan.away), ...rosterOf(seed, plan.home)];
  const lastUpdate = new Date(Math.floor(nowMs / 60_000) * 60_000).toISOString().replace('.000Z', 'Z');
  const bookmakers = PROP_BOOKS.map((b) => {
    const simBook = SIM_BOOKS.find((x) => x.id === b.id)!;
    const margin = live ? simBook.liveMargin : simBook.margin;
    const markets = SIM_PROP_MARKETS.map((m) => {
      const outcomes: OddsApiOutcome[] = [];
      for (const p of players) {
        const team = p.teamId === plan.home.id ? plan.home : plan.away;
        const so = live ? statsSoFar(seed, plan, p, s) : undefined;
        // Pregame the expectation drifts a little by the hour (news, money); live it is what is on the
        // scoreboard plus the average over the minutes left.
        const drift = live ? 1 : 1 + 0.04 * new Rng(seed, 'prop-drift', plan.game.id, p.name, m.key, hour).normal();
        const scored = so ? sum(m.stats.map((k) => so[k])) : 0;
        const mean = scored + drift * (1 - share) * sum(m.stats.map((k) => p.averages[k]));
        const sd = Math.max(0.5, Math.sqrt(1 - share) * Math.hypot(...m.stats.map((k) => statSd(p.averages[k]))));
        // Books disagree: a half point either way on some lines, and a little on the price.
        const r = new Rng(seed, 'prop-book', plan.game.id, p.name, m.key, b.key, live ? Math.floor(nowMs / (10 * 60_000)) : hour);
        const shift = b.id === BOOK_ID_PINNACLE ? 0 : r.pick([-0.5, 0, 0, 0.5]);
        const point = Math.max(scored + 0.5, roundToHalfPoint(mean) + shift);
        // A whole-number line would allow a push: books quote half points on props.
        const line = Number.isInteger(point) ? point + 0.5 : point;
        const pOver = Math.min(0.97, Math.max(0.03, coverProbability(mean, sd, line, true) + (b.id === BOOK_ID_PINNACLE ? 0 : 0.015 * r.normal())));
        const [over, under] = twoWayBookPrices(pOver, margin);
        outcomes.push({ name: 'Over', description: p.name, price: over, point: line, team: team.full_name });
        outcomes.push({ name: 'Under', description: p.name, price: under, point: line, team: team.full_name });
      }
      return { key: m.key, last_update: lastUpdate, outcomes };
    });
    return { key: b.key, title: b.title, last_update: lastUpdate, markets };
  });
  return { ...event, bookmakers };
}


/** ESPN's box-score columns the simulator writes (names and keys as ESPN's summary has them). */
const SUMMARY_COLUMNS = {
  names: ['MIN', '3PT', 'REB', 'AST', 'STL', 'BLK', 'TO', 'PTS'],
  keys: ['minutes', 'threePointFieldGoalsMade-threePointFieldGoalsAttempted', 'rebounds', 'assists', 'steals', 'blocks', 'turnovers', 'points'],
} as const;

/**
 * A final game's box score as ESPN's summary document (src/ingest/feeds/espn), between the final
 * buzzer and the game going official (closedMs), or undefined: the score the scoreboard shows, and
 * each prop player's line, the statistics statsSoFar gives at the final (the ones its props were
 * priced on in play), so the demo's props grade (docs/simulator.md). Only the prop players are
 * listed: a box score leaves nobody out that a prop names. Event ids are `simulated-<game id>`.
 */
export function summaryEvent(seed: number, plan: GamePlan, nowMs: number): Record<string, unknown> | undefined {
  if (nowMs < plan.endMs || nowMs >= plan.closedMs) return undefined;
  const s = stateAt(plan, nowMs);
  if (s.phase !== 'final' && s.phase !== 'closed') return undefined;
  const competitor = (team: TeamRef, side: 'home' | 'away') => ({ homeAway: side, team: { abbreviation: team.abbr, displayName: team.full_name }, score: String(sum(side === 'home' ? s.home : s.away)) });
  const players = (team: TeamRef) => ({
    team: { abbreviation: team.abbr, displayName: team.full_name },
    statistics: [
      {
        ...SUMMARY_COLUMNS,
        labels: SUMMARY_COLUMNS.names,
        athletes: rosterOf(seed, team).map((p, slot) => {
          const stats = statsSoFar(seed, plan, p, s);
          const r = new Rng(seed, 'box-line', plan.game.id, p.name);
          const line = [
            String(24 + r.int(0, 12)), `${stats.threes}-${stats.threes + r.int(0, 4)}`, String(stats.rebounds), String(stats.assists),
            String(r.int(0, 3)), String(r.int(0, 2)), String(r.int(0, 4)), String(stats.points),
          ];
          // Athlete ids of the simulated world: from the team and slot, stable for a seed.
          return { active: false, athlete: { id: String(9_000_000 + team.id * 10 + slot), displayName: p.name }, starter: true, didNotPlay: false, ejected: false, stats: line };
        }),
      },
    ],
  });
  return {
    header: {
      id: `simulated-${plan.game.id}`,
      league: { slug: plan.league.id === LEAGUE_ID_NBA ? 'nba' : 'wnba' },
      competitions: [
        {
          id: `simulated-${plan.game.id}`,
          date: new Date(plan.tipMs).toISOString(),
          status: { type: { name: 'STATUS_FINAL', state: 'post', completed: true, description: 'Final' } },
          competitors: [competitor(plan.home, 'home'), competitor(plan.away, 'away')],
        },
      ],
    },
    boxscore: { players: [players(plan.away), players(plan.home)] },
  };
}
