import type { MarketType } from '../../domain';
import type { FeedBroadcast } from '../feeds/actionnetwork/schema';
import { LEAGUE_ID_NBA, type LeagueRef, type TeamRef, isGameDay, seasonPhaseOn, seasonWindow, teamsOfLeague } from '../reference-data';
import { MINUTE, HOUR, daysBetween, iso, zonedTimeToMs } from './calendar';
import { CREATED_MINUTES_BEFORE, ODDS_POSTED_HOURS_BEFORE, TEAM_ZONES, TIP_SLOTS, modelOf, type LeagueModel } from './models';
import { at, clampInt } from './numbers';
import { SIM_GAME_ID_BASE, type SimGame, type SimulatorOptions } from './options';
import { Rng } from './random';

// The slate of a day and the plan of each game: matchups and tip times, the expected numbers at the
// opening and at the close, the final score per period with its baskets, the real-time timeline of
// periods and breaks, public betting. The slate of a day depends only on (seed, league, day), so
// overlapping windows agree.

export interface TeamProfile {
  /** Points better than an average team on a neutral court. */
  strength: number;
  /** Points added to an average game total. */
  pace: number;
}

export function teamProfile(seed: number, team: TeamRef): TeamProfile {
  const model = modelOf(team.league_id);
  const r = new Rng(seed, 'team', team.id);
  return { strength: r.normal(0, model.strengthSd), pace: r.normal(0, model.paceSd) };
}

export interface Segment {
  kind: 'period' | 'break';
  /** For periods: the period number (1-based). For breaks: the period that follows. */
  period: number;
  halftime: boolean;
  start: number;
  end: number;
}

export interface ScoringEvent {
  /** Fraction of the period elapsed when the points count. */
  t: number;
  home: boolean;
  points: number;
}

export interface GamePlan {
  game: SimGame;
  league: LeagueRef;
  model: LeagueModel;
  away: TeamRef;
  home: TeamRef;
  startMs: number;
  postedMs: number;
  createdMs: number;
  tipMs: number;
  endMs: number;
  closedMs: number;
  segments: Segment[];
  /** Final points per period (regulation then overtimes). */
  periodAway: number[];
  periodHome: number[];
  events: ScoringEvent[][];
  /** Expected home margin and total: at the opening and at the close (tip). */
  marginOpen: number;
  marginClose: number;
  totalOpen: number;
  totalClose: number;
  /** Public betting, base values (home / over side), and final number of bets. */
  tickets: Record<MarketType, number>;
  money: Record<MarketType, number>;
  numBets: number;
  attendance: number;
  trending: boolean;
  broadcast: FeedBroadcast;
  rotation: [number, number] | null;
}

export function planDay(opts: Required<SimulatorOptions>, league: LeagueRef, localDate: string): GamePlan[] {
  if (!isGameDay(league.id, localDate)) return [];
  const model = modelOf(league.id);
  const { season, phase } = seasonPhaseOn(league.id, localDate);
  const seasonType = phase === 'post' ? 'post' : 'reg';
  const teams = teamsOfLeague(league.id);
  const r = new Rng(opts.seed, 'day', league.id, localDate);

  let count: number;
  let pool: readonly TeamRef[] = teams;
  if (seasonType === 'reg') {
    count = r.int(model.gamesPerDay[0], model.gamesPerDay[1]);
  } else {
    const window = seasonWindow(league.id, season);
    const intoPost = window ? daysBetween(window.postseason.from, localDate) : 0;
    count = intoPost < 16 ? r.int(2, 4) : intoPost < 32 ? r.int(1, 2) : 1;
    // Playoff teams: the strongest half of the league (by seeded strength).
    const playoffTeams = league.id === LEAGUE_ID_NBA ? 16 : 8;
    pool = [...teams]
      .sort((a, b) => teamProfile(opts.seed, b).strength - teamProfile(opts.seed, a).strength)
      .slice(0, playoffTeams);
  }
  count = Math.min(count, Math.floor(pool.length / 2));

  const shuffled = r.shuffle(pool);
  const matchups: { away: TeamRef; home: TeamRef; tipMinutes: number }[] = [];
  for (let i = 0; i < count; i++) {
    const away = at(shuffled, 2 * i);
    const home = at(shuffled, 2 * i + 1);
    const zone = TEAM_ZONES[league.id]?.[home.abbr] ?? 'E';
    matchups.push({ away, home, tipMinutes: r.pick(TIP_SLOTS[zone]) });
  }
  matchups.sort((a, b) => a.tipMinutes - b.tipMinutes || a.home.id - b.home.id);

  const slotBase = league.id === LEAGUE_ID_NBA ? 0 : 50;
  const rotationBase = league.id === LEAGUE_ID_NBA ? 501 : 701;
  return matchups.map((m, slot) => {
    const id = SIM_GAME_ID_BASE + daysBetween('1970-01-01', localDate) * 100 + slotBase + slot;
    const startMs = zonedTimeToMs(localDate, m.tipMinutes, opts.timeZone);
    return planGame(opts.seed, {
      id,
      league,
      model,
      localDate,
      season,
      seasonType,
      away: m.away,
      home: m.home,
      startMs,
      rotation: seasonType === 'reg' ? [rotationBase + 2 * slot, rotationBase + 2 * slot + 1] : null,
    });
  });
}

export interface PlanInput {
  id: number;
  league: LeagueRef;
  model: LeagueModel;
  localDate: string;
  season: number;
  seasonType: 'reg' | 'post';
  away: TeamRef;
  home: TeamRef;
  startMs: number;
  rotation: [number, number] | null;
}

export function planGame(seed: number, input: PlanInput): GamePlan {
  const { id, league, model, away, home, startMs } = input;
  const pa = teamProfile(seed, away);
  const ph = teamProfile(seed, home);

  // Lines.
  const rl = new Rng(seed, 'lines', id);
  const marginClose = ph.strength - pa.strength + model.homeAdvantage + rl.normal(0, 1);
  const marginOpen = marginClose + rl.normal(0, 1.2);
  const totalClose = model.averageTotal + ph.pace + pa.pace + rl.normal(0, 3);
  const totalOpen = totalClose + rl.normal(0, 2);

  // Result, drawn around the closing numbers.
  const rs = new Rng(seed, 'score', id);
  const total = rs.normal(totalClose, model.totalSd * 0.95);
  const margin = rs.normal(marginClose, model.marginSd);
  const homePts = Math.max(model.minTeamPoints, Math.round((total + margin) / 2));
  const awayPts = Math.max(model.minTeamPoints, Math.round((total - margin) / 2));
  const periodHome = splitPoints(rs, homePts, model.quarterRealMinutes.length);
  const periodAway = splitPoints(rs, awayPts, model.quarterRealMinutes.length);
  let h = homePts;
  let a = awayPts;
  while (h === a) {
    let oh = Math.max(2, Math.round(rs.normal(model.overtimeMeanPoints, 3.5)));
    const oa = Math.max(2, Math.round(rs.normal(model.overtimeMeanPoints, 3.5)));
    if (periodHome.length - model.quarterRealMinutes.length >= 4 && oh === oa) oh += 1; // end it after 5 OTs
    periodHome.push(oh);
    periodAway.push(oa);
    h += oh;
    a += oa;
  }
  const events = periodHome.map((ptsHome, i) => scoringEvents(rs, ptsHome, at(periodAway, i)));

  // Timeline.
  const rt = new Rng(seed, 'clock', id);
  const tipMs = startMs + (7 + rt.int(0, 5)) * MINUTE + rt.int(0, 59) * 1000;
  const segments: Segment[] = [];
  let cursor = tipMs;
  const regulation = model.quarterRealMinutes.length;
  for (let p = 1; p <= periodHome.length; p++) {
    if (p > 1) {
      const halftime = p === regulation / 2 + 1;
      const breakMin = halftime ? model.halftimeMinutes : model.quarterBreakMinutes;
      const len = Math.round((breakMin + rt.normal(0, breakMin * 0.08)) * 60) * 1000; // whole seconds
      segments.push({ kind: 'break', period: p, halftime, start: cursor, end: cursor + len });
      cursor += len;
    }
    const baseMin = p <= regulation ? at(model.quarterRealMinutes, p - 1) : model.overtimeRealMinutes;
    const len = Math.round((baseMin + rt.normal(0, 1.2)) * 60) * 1000;
    segments.push({ kind: 'period', period: p, halftime: false, start: cursor, end: cursor + len });
    cursor += len;
  }
  const endMs = cursor;
  const closedMs = endMs + (15 + rt.int(0, 15)) * MINUTE;
  const postedMs = startMs - ODDS_POSTED_HOURS_BEFORE * HOUR - rt.int(0, 6 * 60) * MINUTE;
  const createdMs = startMs - CREATED_MINUTES_BEFORE * MINUTE;

  // Public betting: the favourite and the over draw more tickets; money deviates (sharper bets).
  const rb = new Rng(seed, 'public', id);
  const favTilt = 12 * Math.tanh(marginClose / 6);
  const ticketsMl = clampInt(50 + favTilt + rb.normal(0, 9), 8, 92);
  const ticketsSpread = clampInt(50 + favTilt * 0.8 + rb.normal(0, 9), 10, 90);
  const ticketsTotal = clampInt(60 + rb.normal(0, 10), 15, 90);
  const money = {
    moneyline: clampInt(ticketsMl + rb.normal(0, 10), 5, 95),
    spread: clampInt(ticketsSpread + rb.normal(0, 9), 5, 95),
    total: clampInt(ticketsTotal + rb.normal(0, 9), 5, 95),
  };
  const isNba = league.id === LEAGUE_ID_NBA;
  const popularity = 1 + (Math.abs(ph.strength) + Math.abs(pa.strength)) / 20;
  const numBets = Math.round((isNba ? rb.int(9_000, 28_000) : rb.int(2_000, 9_000)) * popularity * (input.seasonType === 'post' ? 1.8 : 1));

  const rm = new Rng(seed, 'misc', id);
  const attendance = rm.int(model.attendance[0], model.attendance[1]);
  const trending = rm.next() < 0.1;
  const broadcast = { ...rm.pick(model.networks) };

  const game: SimGame = {
    id,
    league_id: league.id,
    local_date: input.localDate,
    season: input.season,
    season_type: input.seasonType,
    start_time: iso(startMs),
    away_team_id: away.id,
    home_team_id: home.id,
    odds_posted_at: iso(postedMs),
    created_at: iso(createdMs),
    tip_off_at: iso(tipMs),
    final_at: iso(endMs),
    closed_at: iso(closedMs),
    overtime_periods: periodHome.length - regulation,
  };

  return {
    game,
    league,
    model,
    away,
    home,
    startMs,
    postedMs,
    createdMs,
    tipMs,
    endMs,
    closedMs,
    segments,
    periodAway,
    periodHome,
    events,
    marginOpen,
    marginClose,
    totalOpen,
    totalClose,
    tickets: { moneyline: ticketsMl, spread: ticketsSpread, total: ticketsTotal },
    money,
    numBets,
    attendance,
    trending,
    broadcast,
    rotation: input.rotation,
  };
}

/** Split a team's points over n periods with seeded weights (largest remainder, sums exactly). */
export function splitPoints(r: Rng, points: number, n: number): number[] {
  const weights = Array.from({ length: n }, () => Math.max(0.5, 1 + r.normal(0, 0.12)));
  const sum = weights.reduce((s, w) => s + w, 0);
  const raw = weights.map((w) => (points * w) / sum);
  const out = raw.map(Math.floor);
  let left = points - out.reduce((s, x) => s + x, 0);
  const order = raw.map((x, i) => ({ i, frac: x - Math.floor(x) })).sort((p, q) => q.frac - p.frac);
  for (const { i } of order) {
    if (left <= 0) break;
    out[i] = at(out, i) + 1;
    left--;
  }
  return out;
}

/** Baskets (1, 2 or 3 points) of both teams inside one period, at seeded times, sorted by time. */
export function scoringEvents(r: Rng, home: number, away: number): ScoringEvent[] {
  const events: ScoringEvent[] = [];
  for (const [isHome, total] of [[true, home], [false, away]] as const) {
    let left = total;
    while (left > 0) {
      const u = r.next();
      const pts = Math.min(left, u < 0.34 ? 3 : u < 0.86 ? 2 : 1);
      events.push({ t: r.next(), home: isHome, points: pts });
      left -= pts;
    }
  }
  return events.sort((x, y) => x.t - y.t);
}
