/**
 * Deterministic simulator of the upstream v2 scoreboard feed, for demos and tests.
 *
 * It writes documents of exactly the real feed's shape (see feed-types.ts and the samples in
 * the real captures in test/fixtures/feeds/), so simulated and real data travel the same ingest path. Every
 * document and game is labelled: `document.simulated = true`, `game.meta = { simulated: true,
 * simulator_seed }`.
 *
 * Purity: no I/O, no clock, no Math.random. The state of a game at an instant is a pure function of
 * (seed, game, instant): every random quantity is drawn from a small PRNG (mulberry32) seeded with a
 * hash of the seed and a key naming that quantity (game id, book, time bucket...), so any instant can
 * be computed directly without replaying the ones before it.
 *
 * Model, in short:
 * - Schedule: per league and local game day (US Eastern by default) within the league's season window
 *   (reference-data.ts): NBA 6-12 games on regular-season days, WNBA 3-6 (none in November); tip times
 *   19:00-22:30 local by the home team's time zone. The slate of a day depends only on (seed, league,
 *   day), so overlapping windows agree, and game ids are derived from the day
 *   (SIM_GAME_ID_BASE + epochDay * 100 + slot, WNBA slots from 50), far from upstream ids (~300k).
 * - Lines: each team has a seeded strength and pace; a game has a fair margin and total, an opening
 *   number and a closing number; the pregame line drifts from open to close with hourly wobble and is
 *   frozen at tip (closing line). Each book quotes the fair line plus its own small, slowly changing
 *   shift, rounded to half points (so half and whole points both occur), and prices both sides from a
 *   normal model of the margin/total with its own margin (sharp ~2.2%, majors 4.3-5%, live higher).
 *   The moneyline is priced from the same shifted number as the spread, so they agree in direction.
 *   First-half markets use half the margin and ~51% of the total.
 * - Game: tip ~8 min after the scheduled start, 4 quarters (12 min NBA / 10 min WNBA) over ~2h15
 *   (NBA) of real time with quarter breaks and a 15-minute halftime, overtime while tied. Final
 *   scores are drawn around the closing numbers; points arrive as seeded baskets inside each period,
 *   so the linescore at any instant is consistent and the totals are its sums.
 * - Live odds: once in progress, books also quote is_live outcomes (new market ids) centred on the
 *   current margin plus the remaining share of the pregame expectation, with a spread that shrinks
 *   with the time left. They disappear at the final; pregame outcomes stay as the closing prices.
 * - Public betting: ticket and money percentages per pregame outcome (sides sum to 100, the same at
 *   every book, as in the real feed), zero on live outcomes; num_bets grows towards tip, then freezes.
 */

import { MARGIN_STD_DEV, MARKET_TYPES, type MarketType, addDays, decimalToAmerican, localDateOf as localDateOfInstant, localTimeToInstant, normalCdf, probabilityToDecimal } from '../domain';
import type {
  FeedBetInfo,
  FeedBookMarkets,
  FeedBoxscore,
  FeedBroadcast,
  FeedDocument,
  FeedGame,
  FeedGameStatus,
  FeedLeague,
  FeedLinescorePeriod,
  FeedOutcome,
  FeedPeriod,
  FeedPeriodMarkets,
  FeedRealStatus,
  FeedSide,
  FeedStandings,
  FeedTeam,
} from './feed-types';
import {
  BOOK_ID_CONSENSUS,
  BOOK_ID_OPEN,
  BOOK_ID_PINNACLE,
  LEAGUE_ID_NBA,
  LEAGUE_ID_WNBA,
  LEAGUES,
  type LeagueRef,
  type TeamRef,
  isGameDay,
  seasonPhaseOn,
  seasonWindow,
  teamsOfLeague,
} from './reference-data';

// ---------------------------------------------------------------------------------------------------
// Public API

export interface SimulatorOptions {
  /** Any finite number; the same seed gives the same data. */
  seed: number;
  /** First local game day of the window, YYYY-MM-DD (the league's local day, see timeZone). */
  startDate: string;
  /** Further days after startDate: the window is startDate .. startDate + days, inclusive. */
  days: number;
  /** IANA zone of the local game day and tip times; default America/New_York (the NBA's day). */
  timeZone?: string;
}

/** A scheduled game with the instants of its simulated life (ISO strings). */
export interface SimGame {
  id: number;
  league_id: number;
  local_date: string;
  season: number;
  season_type: 'reg' | 'post';
  start_time: string;
  away_team_id: number;
  home_team_id: number;
  /** Lines are posted here; before it the game is listed without markets and num_bets is null. */
  odds_posted_at: string;
  /** `scheduled/created` from here until tip. */
  created_at: string;
  tip_off_at: string;
  /** End of the last period: `complete/complete` from here. */
  final_at: string;
  /** `complete/closed` from here. */
  closed_at: string;
  overtime_periods: number;
}

export interface DocumentsOptions {
  /** Only the slate of this local day (the real scoreboard is per day); default: the whole window. */
  localDate?: string;
}

export interface Simulator {
  readonly options: Readonly<Required<SimulatorOptions>>;
  /** Book ids the simulator quotes, aggregates (15, 30) first. */
  readonly bookIds: readonly number[];
  /** Every game of the window, ordered by start time then id. */
  scheduleGames(): SimGame[];
  /** One scoreboard document per league with games in the window (or on `localDate`), as at `now`. */
  documentsAt(now: Date, opts?: DocumentsOptions): FeedDocument[];
  /** One game as at `now`, or undefined if it is not in the window. */
  gameAt(gameId: number, now: Date): FeedGame | undefined;
}

/** Simulated game ids are SIM_GAME_ID_BASE + epochDay * 100 + slot (NBA slots 0-49, WNBA 50-99). */
export const SIM_GAME_ID_BASE = 90_000_000;
export const DEFAULT_SIM_TIME_ZONE = 'America/New_York';

/** Lines are posted this long before the scheduled start. */
const ODDS_POSTED_HOURS_BEFORE = 30;
/** `scheduled/created` this long before the scheduled start. */
const CREATED_MINUTES_BEFORE = 6;

interface SimBook {
  id: number;
  /** Two-way pregame margin (sum of implied probabilities - 1). */
  margin: number;
  liveMargin: number;
  /** Standard deviation (points) of the book's disagreement with the fair spread. */
  lineNoise: number;
  /** Upstream `book_parent_id` where the samples show it, else the book id itself. */
  parentId: number;
  offersLive: boolean;
  deeplinks: boolean;
  /** Outcome ids: slot in market_id * 100 + slot * 2 + side. Consensus and Open share slot 0 (as upstream). */
  slot: number;
}

const SIM_BOOKS: readonly SimBook[] = [
  { id: BOOK_ID_CONSENSUS, margin: 0.045, liveMargin: 0.055, lineNoise: 0, parentId: 18, offersLive: true, deeplinks: false, slot: 0 },
  { id: BOOK_ID_OPEN, margin: 0.045, liveMargin: 0.055, lineNoise: 0, parentId: 0, offersLive: false, deeplinks: false, slot: 0 },
  { id: 68, margin: 0.045, liveMargin: 0.06, lineNoise: 0.35, parentId: 10, offersLive: true, deeplinks: true, slot: 1 },
  { id: 69, margin: 0.043, liveMargin: 0.058, lineNoise: 0.35, parentId: 69, offersLive: true, deeplinks: true, slot: 2 },
  { id: 75, margin: 0.048, liveMargin: 0.065, lineNoise: 0.4, parentId: 75, offersLive: true, deeplinks: true, slot: 3 },
  { id: 123, margin: 0.047, liveMargin: 0.065, lineNoise: 0.4, parentId: 123, offersLive: true, deeplinks: true, slot: 4 },
  { id: 71, margin: 0.05, liveMargin: 0.065, lineNoise: 0.45, parentId: 71, offersLive: true, deeplinks: true, slot: 5 },
  { id: 79, margin: 0.044, liveMargin: 0.06, lineNoise: 0.35, parentId: 13, offersLive: true, deeplinks: true, slot: 6 },
  { id: BOOK_ID_PINNACLE, margin: 0.022, liveMargin: 0.03, lineNoise: 0.15, parentId: BOOK_ID_PINNACLE, offersLive: true, deeplinks: true, slot: 7 },
];

/** Parameters of the game model per league. */
interface LeagueModel {
  homeAdvantage: number;
  averageTotal: number;
  strengthSd: number;
  paceSd: number;
  marginSd: number;
  totalSd: number;
  /** Real minutes per regulation quarter (before jitter). */
  quarterRealMinutes: readonly number[];
  overtimeRealMinutes: number;
  quarterBreakMinutes: number;
  halftimeMinutes: number;
  regularSeasonGames: number;
  gamesPerDay: [number, number];
  overtimeMeanPoints: number;
  minTeamPoints: number;
  attendance: [number, number];
  networks: readonly FeedBroadcast[];
}

const MODELS: Record<number, LeagueModel> = {
  [LEAGUE_ID_NBA]: {
    homeAdvantage: 2.3,
    averageTotal: 228,
    strengthSd: 4.5,
    paceSd: 3.5,
    marginSd: MARGIN_STD_DEV.NBA.spread,
    totalSd: MARGIN_STD_DEV.NBA.total,
    quarterRealMinutes: [27, 28, 27, 31],
    overtimeRealMinutes: 12,
    quarterBreakMinutes: 2.5,
    halftimeMinutes: 15,
    regularSeasonGames: 82,
    gamesPerDay: [6, 12],
    overtimeMeanPoints: 10.5,
    minTeamPoints: 70,
    attendance: [15_000, 20_500],
    networks: [
      { network: 'ESPN', network_short: 'ESPN' },
      { network: 'NBC', network_short: 'NBC' },
      { network: 'Prime Video', network_short: 'Prime' },
      { network: 'NBA TV', network_short: 'NBATV' },
      { network: 'NBA League Pass', network_short: 'LP', internet: 'NBA League Pass' },
    ],
  },
  [LEAGUE_ID_WNBA]: {
    homeAdvantage: 2.2,
    averageTotal: 163,
    strengthSd: 4,
    paceSd: 3,
    marginSd: MARGIN_STD_DEV.WNBA.spread,
    totalSd: MARGIN_STD_DEV.WNBA.total,
    quarterRealMinutes: [23, 24, 23, 26],
    overtimeRealMinutes: 11,
    quarterBreakMinutes: 2,
    halftimeMinutes: 15,
    regularSeasonGames: 44,
    gamesPerDay: [3, 6],
    overtimeMeanPoints: 10,
    minTeamPoints: 50,
    attendance: [6_000, 18_000],
    networks: [
      { network: 'ION', network_short: 'ION' },
      { network: 'ESPN', network_short: 'ESPN' },
      { network: 'CBS Sports Network', network_short: 'CBSSN' },
      { network: 'NBA TV', network_short: 'NBATV' },
      { network: 'WNBA League Pass', network_short: 'LP', internet: 'WNBA League Pass' },
    ],
  },
};

/** Home team time zone, for tip times (E/C/M/P), by league and abbreviation; default Eastern. */
const TEAM_ZONES: Record<number, Record<string, 'E' | 'C' | 'M' | 'P'>> = {
  [LEAGUE_ID_NBA]: {
    CHI: 'C', MIL: 'C', MIN: 'C', HOU: 'C', DAL: 'C', MEM: 'C', NOP: 'C', OKC: 'C', SAS: 'C',
    DEN: 'M', UTA: 'M', PHX: 'M',
    GSW: 'P', LAL: 'P', LAC: 'P', SAC: 'P', POR: 'P',
  },
  [LEAGUE_ID_WNBA]: { CHI: 'C', DAL: 'C', MIN: 'C', PHX: 'M', LV: 'P', LA: 'P', SEA: 'P', GSV: 'P', POR: 'P' },
};

/** Local tip times (minutes after midnight) by home zone: 19:00-22:30 US Eastern. */
const TIP_SLOTS: Record<'E' | 'C' | 'M' | 'P', readonly number[]> = {
  E: [19 * 60, 19 * 60 + 30],
  C: [20 * 60, 20 * 60 + 30],
  M: [21 * 60, 21 * 60 + 30],
  P: [22 * 60, 22 * 60 + 30],
};

const FIRST_HALF_MARGIN_SHARE = 0.5;
const FIRST_HALF_TOTAL_SHARE = 0.51;
const FIRST_HALF_SD_SHARE = 0.72;

export function createSimulator(options: SimulatorOptions): Simulator {
  const opts = validateOptions(options);
  const plans = new Map<number, GamePlan>();
  let schedule: GamePlan[] | undefined;

  const allPlans = (): GamePlan[] => {
    if (!schedule) {
      schedule = [];
      for (let d = 0; d <= opts.days; d++) {
        const localDate = addDays(opts.startDate, d);
        for (const league of LEAGUES) {
          for (const plan of planDay(opts, league, localDate)) {
            plans.set(plan.game.id, plan);
            schedule.push(plan);
          }
        }
      }
      schedule.sort((a, b) => a.startMs - b.startMs || a.game.id - b.game.id);
    }
    return schedule;
  };

  return {
    options: opts,
    bookIds: SIM_BOOKS.map((b) => b.id),
    scheduleGames: () => allPlans().map((p) => ({ ...p.game })),
    documentsAt(now: Date, docOpts?: DocumentsOptions): FeedDocument[] {
      const nowMs = instantMs(now);
      const wanted = allPlans().filter((p) => !docOpts?.localDate || p.game.local_date === docOpts.localDate);
      const docs: FeedDocument[] = [];
      for (const league of LEAGUES) {
        const games = wanted.filter((p) => p.league.id === league.id);
        if (games.length === 0) continue;
        docs.push({
          league: leagueObject(league, localDateOf(nowMs, opts.timeZone)),
          games: games.map((p) => buildGame(opts, p, nowMs)),
          market_rules: {},
          content_live_count: 0,
          simulated: true,
        });
      }
      return docs;
    },
    gameAt(gameId: number, now: Date): FeedGame | undefined {
      allPlans();
      const plan = plans.get(gameId);
      return plan ? buildGame(opts, plan, instantMs(now)) : undefined;
    },
  };
}

function validateOptions(o: SimulatorOptions): Required<SimulatorOptions> {
  if (!Number.isFinite(o.seed)) throw new RangeError(`seed must be a finite number, got ${String(o.seed)}`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(o.startDate) || Number.isNaN(Date.parse(`${o.startDate}T00:00:00Z`))) {
    throw new RangeError(`startDate must be YYYY-MM-DD, got ${o.startDate}`);
  }
  if (!Number.isInteger(o.days) || o.days < 0 || o.days > 366) {
    throw new RangeError(`days must be an integer in 0..366, got ${String(o.days)}`);
  }
  const timeZone = o.timeZone ?? DEFAULT_SIM_TIME_ZONE;
  // Throws RangeError for an unknown zone.
  new Intl.DateTimeFormat('en-US', { timeZone });
  return { seed: o.seed, startDate: o.startDate, days: o.days, timeZone };
}

function instantMs(now: Date): number {
  const ms = now.getTime();
  if (Number.isNaN(ms)) throw new RangeError('now is an invalid Date');
  return ms;
}

// ---------------------------------------------------------------------------------------------------
// Seeded randomness

/** 32-bit hash of a key (FNV-1a over its text, then the murmur3 finaliser for avalanche). */
function hashKey(parts: readonly (string | number)[]): number {
  const text = parts.join('|');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** mulberry32 stream with a few distributions. */
class Rng {
  private state: number;

  constructor(...key: (string | number)[]) {
    this.state = hashKey(key);
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  normal(mean = 0, sd = 1): number {
    const u = 1 - this.next(); // (0, 1]
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  pick<T>(items: readonly T[]): T {
    return at(items, Math.floor(this.next() * items.length));
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [at(out, j), at(out, i)];
    }
    return out;
  }
}

function at<T>(items: readonly T[], i: number): T {
  const v = items[i];
  if (v === undefined) throw new RangeError(`index ${String(i)} out of range 0..${String(items.length - 1)}`);
  return v;
}

// ---------------------------------------------------------------------------------------------------
// Dates and zones (pure: Intl is only used to read zone offsets)

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The instant of a local wall-clock time (date + minutes after midnight) in a zone. */
function zonedTimeToMs(localDate: string, minutes: number, timeZone: string): number {
  return localTimeToInstant(localDate, minutes, timeZone).getTime();
}

function localDateOf(ms: number, timeZone: string): string {
  return localDateOfInstant(new Date(ms), timeZone);
}

function dayMs(localDate: string): number {
  const [y, m, d] = localDate.split('-').map(Number);
  return Date.UTC(y ?? NaN, (m ?? NaN) - 1, d ?? NaN);
}

function daysBetween(from: string, to: string): number {
  return Math.round((dayMs(to) - dayMs(from)) / DAY);
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

// ---------------------------------------------------------------------------------------------------
// Teams and schedule

interface TeamProfile {
  /** Points better than an average team on a neutral court. */
  strength: number;
  /** Points added to an average game total. */
  pace: number;
}

function teamProfile(seed: number, team: TeamRef): TeamProfile {
  const model = modelOf(team.league_id);
  const r = new Rng(seed, 'team', team.id);
  return { strength: r.normal(0, model.strengthSd), pace: r.normal(0, model.paceSd) };
}

function modelOf(leagueId: number): LeagueModel {
  const m = MODELS[leagueId];
  if (!m) throw new RangeError(`no simulation model for league ${String(leagueId)}`);
  return m;
}

interface Segment {
  kind: 'period' | 'break';
  /** For periods: the period number (1-based). For breaks: the period that follows. */
  period: number;
  halftime: boolean;
  start: number;
  end: number;
}

interface ScoringEvent {
  /** Fraction of the period elapsed when the points count. */
  t: number;
  home: boolean;
  points: number;
}

interface GamePlan {
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
  tickets: Record<'moneyline' | 'spread' | 'total', number>;
  money: Record<'moneyline' | 'spread' | 'total', number>;
  numBets: number;
  attendance: number;
  trending: boolean;
  broadcast: FeedBroadcast;
  rotation: [number, number] | null;
}

function planDay(opts: Required<SimulatorOptions>, league: LeagueRef, localDate: string): GamePlan[] {
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

interface PlanInput {
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

function planGame(seed: number, input: PlanInput): GamePlan {
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

function clampInt(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, Math.round(x)));
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

/** Split a team's points over n periods with seeded weights (largest remainder, sums exactly). */
function splitPoints(r: Rng, points: number, n: number): number[] {
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
function scoringEvents(r: Rng, home: number, away: number): ScoringEvent[] {
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

// ---------------------------------------------------------------------------------------------------
// Game state at an instant

type Phase = 'scheduled' | 'created' | 'period' | 'break' | 'halftime' | 'final' | 'closed';

interface GameState {
  phase: Phase;
  /** Current period (1-based); for breaks the period about to start; when final the last period. */
  period: number;
  /** Seconds left on the clock of the current period. */
  secondsLeft: number;
  /** Points so far per started period (index = period - 1). */
  away: number[];
  home: number[];
}

function periodSeconds(plan: GamePlan, period: number): number {
  const regulation = plan.model.quarterRealMinutes.length;
  return (period <= regulation ? plan.league.period_minutes : plan.league.overtime_minutes) * 60;
}

function stateAt(plan: GamePlan, now: number): GameState {
  if (now < plan.createdMs) return { phase: 'scheduled', period: 1, secondsLeft: periodSeconds(plan, 1), away: [], home: [] };
  if (now < plan.tipMs) return { phase: 'created', period: 1, secondsLeft: periodSeconds(plan, 1), away: [], home: [] };
  const last = plan.periodHome.length;
  if (now >= plan.endMs) {
    return {
      phase: now >= plan.closedMs ? 'closed' : 'final',
      period: last,
      secondsLeft: 0,
      away: [...plan.periodAway],
      home: [...plan.periodHome],
    };
  }
  const seg = plan.segments.find((s) => now >= s.start && now < s.end) ?? at(plan.segments, plan.segments.length - 1);
  const away: number[] = [];
  const home: number[] = [];
  const completed = seg.kind === 'period' ? seg.period - 1 : seg.period - 1;
  for (let p = 1; p <= completed; p++) {
    away.push(at(plan.periodAway, p - 1));
    home.push(at(plan.periodHome, p - 1));
  }
  if (seg.kind === 'break') {
    if (seg.halftime) return { phase: 'halftime', period: seg.period - 1, secondsLeft: 0, away, home };
    // Between quarters the feed already shows the next period, full clock, 0 points.
    away.push(0);
    home.push(0);
    return { phase: 'break', period: seg.period, secondsLeft: periodSeconds(plan, seg.period), away, home };
  }
  const frac = (now - seg.start) / (seg.end - seg.start);
  let pa = 0;
  let ph = 0;
  for (const e of at(plan.events, seg.period - 1)) {
    if (e.t > frac) break;
    if (e.home) ph += e.points;
    else pa += e.points;
  }
  away.push(pa);
  home.push(ph);
  const full = periodSeconds(plan, seg.period);
  return { phase: 'period', period: seg.period, secondsLeft: Math.max(0, Math.ceil(full * (1 - frac))), away, home };
}

const sum = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0);

function periodName(plan: GamePlan, period: number): { abbr: string; display: string; full: string } {
  const regulation = plan.model.quarterRealMinutes.length;
  if (period <= regulation) {
    const ord = at(['1st', '2nd', '3rd', '4th'], period - 1);
    return { abbr: String(period), display: ord, full: `${ord} Quarter` };
  }
  const ot = period - regulation;
  if (ot === 1) return { abbr: 'OT', display: 'OT', full: 'Overtime' };
  const ord = ot === 2 ? '2nd' : ot === 3 ? '3rd' : `${String(ot)}th`;
  return { abbr: `${String(ot)}OT`, display: `${String(ot)}OT`, full: `${ord} Overtime` };
}

function statusOf(plan: GamePlan, s: GameState): { status: FeedGameStatus; real: FeedRealStatus; display: string | null } {
  switch (s.phase) {
    case 'scheduled':
      return { status: 'scheduled', real: 'scheduled', display: null };
    case 'created':
      return { status: 'scheduled', real: 'created', display: null };
    case 'halftime':
      return { status: 'inprogress', real: 'halftime', display: 'Half' };
    case 'period':
    case 'break': {
      const m = Math.floor(s.secondsLeft / 60);
      return { status: 'inprogress', real: 'inprogress', display: `${periodName(plan, s.period).display} ${String(m)}:${pad2(s.secondsLeft % 60)}` };
    }
    case 'final':
    case 'closed': {
      const ot = plan.periodHome.length - plan.model.quarterRealMinutes.length;
      const display = ot === 0 ? 'Final' : ot === 1 ? 'Final - OT' : `Final - ${String(ot)}OT`;
      return { status: 'complete', real: s.phase === 'final' ? 'complete' : 'closed', display };
    }
  }
}

function boxscoreOf(plan: GamePlan, s: GameState): FeedBoxscore | undefined {
  if (s.phase === 'scheduled') return undefined;
  const regulation = plan.model.quarterRealMinutes.length;
  const shown = Math.max(regulation, s.home.length);
  const linescore: FeedLinescorePeriod[] = [];
  for (let p = 1; p <= shown; p++) {
    const n = periodName(plan, p);
    linescore.push({
      id: p,
      abbr: n.abbr,
      display_name: n.display,
      full_name: n.full,
      away_points: s.away[p - 1] ?? null,
      home_points: s.home[p - 1] ?? null,
    });
  }
  const half = regulation / 2;
  // Key order as upstream; second-half totals include overtime.
  return {
    clock: `${pad2(Math.floor(s.secondsLeft / 60))}:${pad2(s.secondsLeft % 60)}`,
    period: s.period,
    linescore,
    total_away_points: sum(s.away),
    total_home_points: sum(s.home),
    ...(s.phase === 'halftime' ? { halftime: true } : {}),
    total_away_firsthalf_points: sum(s.away.slice(0, half)),
    total_home_firsthalf_points: sum(s.home.slice(0, half)),
    total_away_secondhalf_points: sum(s.away.slice(half)),
    total_home_secondhalf_points: sum(s.home.slice(half)),
    total_away_firstfive_points: 0,
  };
}

// ---------------------------------------------------------------------------------------------------
// Odds


/** What a book prices for one period at one instant. */
interface MarketView {
  /** Expected home margin and its standard deviation. */
  margin: number;
  marginSd: number;
  /** Expected total and its standard deviation. */
  total: number;
  totalSd: number;
  /** Margin and total already in (live); 0 pregame. */
  scoredMargin: number;
  scoredTotal: number;
  /** Moneyline can end tied (first half): ties push. */
  tiePushes: boolean;
}

/** Round to the nearest half point. */
function roundHalf(x: number): number {
  const r = Math.round(x * 2) / 2;
  return r === 0 ? 0 : r; // no -0
}

/**
 * P(side wins) for a two-way market, pushes excluded (a push returns the stake):
 * `value` is the home handicap (spread), the total line, or 0 (moneyline).
 */
function twoWayProbability(type: MarketType, v: MarketView, value: number): number {
  if (type === 'total') return coverProbability(v.total, v.totalSd, value, true);
  if (type === 'moneyline' && !v.tiePushes) return 1 - normalCdf(-v.margin / v.marginSd);
  // Home covers when margin + handicap > 0, i.e. margin > -value.
  return coverProbability(v.margin, v.marginSd, -value, true);
}

/** P(X > line | X != line) for X ~ N(mu, sd) discretised to integers (continuity correction). */
function coverProbability(mu: number, sd: number, line: number, integerOutcomes: boolean): number {
  if (!integerOutcomes || !Number.isInteger(line)) return 1 - normalCdf((line - mu) / sd);
  const over = 1 - normalCdf((line + 0.5 - mu) / sd);
  const under = normalCdf((line - 0.5 - mu) / sd);
  return over / (over + under);
}

/** American price of a probability already including the book's margin, rounded like books do. */
function bookAmerican(q: number): number {
  let a = decimalToAmerican(probabilityToDecimal(q));
  if (Math.abs(a) >= 1000) a = Math.round(a / 50) * 50;
  else if (Math.abs(a) >= 200) a = Math.round(a / 5) * 5;
  return a;
}

/**
 * Prices of a two-way market: the fair probabilities plus half the margin each (additive, which
 * shades longshots like real books); a capped favourite hands its share to the other side.
 */
function priceTwoWay(pFirst: number, margin: number): [number, number] {
  const p = clamp(pFirst, 0.005, 0.995);
  let q1 = p + margin / 2;
  let q2 = 1 - p + margin / 2;
  if (q1 > 0.99) {
    q1 = 0.99;
    q2 = 1 + margin - q1;
  } else if (q2 > 0.99) {
    q2 = 0.99;
    q1 = 1 + margin - q2;
  }
  return [bookAmerican(q1), bookAmerican(q2)];
}

/** The pregame view of the fair numbers at `t` (frozen at tip). */
function pregameView(seed: number, plan: GamePlan, t: number, period: FeedPeriod): MarketView {
  const tt = clamp(t, plan.postedMs, plan.tipMs);
  const progress = (tt - plan.postedMs) / (plan.tipMs - plan.postedMs);
  const eased = progress * progress * (3 - 2 * progress);
  const hourBucket = Math.floor(tt / HOUR);
  const w = new Rng(seed, 'wobble', plan.game.id, hourBucket);
  const fade = 1 - eased;
  const margin = plan.marginOpen + (plan.marginClose - plan.marginOpen) * eased + w.normal(0, 0.5) * fade;
  const total = plan.totalOpen + (plan.totalClose - plan.totalOpen) * eased + w.normal(0, 0.8) * fade;
  const full: MarketView = {
    margin,
    marginSd: plan.model.marginSd,
    total,
    totalSd: plan.model.totalSd,
    scoredMargin: 0,
    scoredTotal: 0,
    tiePushes: false,
  };
  return period === 'firsthalf' ? firstHalfOf(full) : full;
}

function firstHalfOf(v: MarketView): MarketView {
  return {
    margin: v.margin * FIRST_HALF_MARGIN_SHARE,
    marginSd: v.marginSd * FIRST_HALF_SD_SHARE,
    total: v.total * FIRST_HALF_TOTAL_SHARE,
    totalSd: v.totalSd * FIRST_HALF_SD_SHARE,
    scoredMargin: 0,
    scoredTotal: 0,
    tiePushes: true,
  };
}

/** The live view at an in-progress state, or undefined when the period's market is decided. */
function liveView(plan: GamePlan, s: GameState, period: FeedPeriod): MarketView | undefined {
  const regulation = plan.model.quarterRealMinutes.length;
  const regSeconds = regulation * plan.league.period_minutes * 60;
  const half = regulation / 2;
  // Seconds played in this period's scope.
  let remaining: number;
  let scopeSeconds: number;
  let awayPts: number;
  let homePts: number;
  if (period === 'firsthalf') {
    if (s.phase === 'halftime' || s.period > half) return undefined;
    scopeSeconds = half * plan.league.period_minutes * 60;
    remaining = s.secondsLeft + (half - s.period) * plan.league.period_minutes * 60;
    awayPts = sum(s.away.slice(0, half));
    homePts = sum(s.home.slice(0, half));
  } else {
    scopeSeconds = regSeconds;
    remaining =
      s.period <= regulation ? s.secondsLeft + (regulation - s.period) * plan.league.period_minutes * 60 : s.secondsLeft;
    if (s.phase === 'halftime') remaining = half * plan.league.period_minutes * 60;
    awayPts = sum(s.away);
    homePts = sum(s.home);
  }
  const r = Math.max(remaining / scopeSeconds, 0);
  // The closing (tip) numbers of the scope: pregameView at tip has no wobble left.
  const closing: MarketView = {
    margin: plan.marginClose,
    marginSd: plan.model.marginSd,
    total: plan.totalClose,
    totalSd: plan.model.totalSd,
    scoredMargin: 0,
    scoredTotal: 0,
    tiePushes: false,
  };
  const base = period === 'firsthalf' ? firstHalfOf(closing) : closing;
  const preMargin = base.margin;
  const preTotal = base.total;
  const preMarginSd = base.marginSd;
  const preTotalSd = base.totalSd;
  const scoredMargin = homePts - awayPts;
  const scoredTotal = homePts + awayPts;
  const played = 1 - r;
  // Remaining points: the pregame rate, nudged by the pace seen so far once a fair share is played.
  const paceTotal = played > 0.15 ? scoredTotal / played : preTotal;
  const remainingTotal = r * (0.75 * preTotal + 0.25 * paceTotal);
  return {
    margin: scoredMargin + r * preMargin,
    marginSd: Math.max(preMarginSd * Math.sqrt(r), 0.6),
    total: scoredTotal + remainingTotal,
    totalSd: Math.max(preTotalSd * Math.sqrt(r), 0.8),
    scoredMargin,
    scoredTotal,
    tiePushes: period === 'firsthalf',
  };
}

interface QuoteContext {
  seed: number;
  plan: GamePlan;
  book: SimBook;
  period: FeedPeriod;
  live: boolean;
  /** Time used for the book's line shift (pregame: min(now, tip); live: now). */
  t: number;
}

/** The book's own view: the fair view shifted by its slowly changing disagreement. */
function bookView(ctx: QuoteContext, v: MarketView): MarketView {
  if (ctx.book.lineNoise === 0) return v;
  const bucket = ctx.live ? Math.floor(ctx.t / (2 * MINUTE)) : Math.floor(ctx.t / (3 * HOUR));
  const r = new Rng(ctx.seed, 'shift', ctx.plan.game.id, ctx.book.id, ctx.period, ctx.live ? 'live' : 'pre', bucket);
  const scale = ctx.period === 'firsthalf' ? 0.6 : 1;
  return {
    ...v,
    margin: v.margin + r.normal(0, ctx.book.lineNoise * scale),
    total: v.total + r.normal(0, ctx.book.lineNoise * 1.6 * scale),
  };
}

function marketId(plan: GamePlan, period: FeedPeriod, type: MarketType, live: boolean): number {
  const periodIdx = period === 'event' ? 0 : 1;
  return plan.game.id * 100 + periodIdx * 10 + MARKET_TYPES.indexOf(type) * 2 + (live ? 1 : 0);
}

interface Quote {
  side: FeedSide;
  teamId: number | undefined;
  odds: number;
  value: number;
  q: number;
}

/** Both sides of one market at one book, or undefined when suspended. */
function quoteMarket(ctx: QuoteContext, type: MarketType, fair: MarketView): Quote[] | undefined {
  const v = bookView(ctx, fair);
  const margin = ctx.live ? ctx.book.liveMargin : ctx.book.margin;
  const { plan } = ctx;
  if (type === 'moneyline') {
    const p = twoWayProbability('moneyline', v, 0);
    if (ctx.live && (p > 0.99 || p < 0.01)) return undefined; // books suspend decided games
    const [home, away] = priceTwoWay(p, margin);
    return [
      { side: 'away', teamId: plan.away.id, odds: away, value: 0, q: impliedOf(away) },
      { side: 'home', teamId: plan.home.id, odds: home, value: 0, q: impliedOf(home) },
    ];
  }
  if (type === 'spread') {
    const homeValue = roundHalf(-v.margin);
    const p = twoWayProbability('spread', v, homeValue);
    const [home, away] = priceTwoWay(p, margin);
    return [
      { side: 'away', teamId: plan.away.id, odds: away, value: roundHalf(-homeValue), q: impliedOf(away) },
      { side: 'home', teamId: plan.home.id, odds: home, value: homeValue, q: impliedOf(home) },
    ];
  }
  const line = Math.max(roundHalf(v.total), v.scoredTotal + 0.5);
  const p = twoWayProbability('total', v, line);
  const [over, under] = priceTwoWay(p, margin);
  return [
    { side: 'over', teamId: undefined, odds: over, value: line, q: impliedOf(over) },
    { side: 'under', teamId: undefined, odds: under, value: line, q: impliedOf(under) },
  ];
}

function impliedOf(american: number): number {
  return american > 0 ? 100 / (american + 100) : -american / (-american + 100);
}

/** Public betting on the home/over side of a pregame market at `t` (frozen at tip). */
function publicSplit(seed: number, plan: GamePlan, type: MarketType, period: FeedPeriod, t: number): { tickets: number; money: number } {
  const tt = Math.min(t, plan.tipMs);
  const r = new Rng(seed, 'public-drift', plan.game.id, type, period, Math.floor(tt / (3 * HOUR)));
  const shift = period === 'firsthalf' ? 3 : 0;
  return {
    tickets: clampInt(plan.tickets[type] + shift + r.normal(0, 1.5), 1, 99),
    money: clampInt(plan.money[type] + shift + r.normal(0, 2), 1, 99),
  };
}

function betInfo(tickets: number, money: number): FeedBetInfo {
  return { tickets: { value: 0, percent: tickets }, money: { value: 0, percent: money } };
}

function fullOutcome(
  ctx: QuoteContext,
  type: MarketType,
  quote: Quote,
  sideIdx: number,
  split: { tickets: number; money: number } | null,
): FeedOutcome {
  const mId = marketId(ctx.plan, ctx.period, type, ctx.live);
  const outcomeId = String(mId * 100 + ctx.book.slot * 2 + sideIdx);
  const isFirstSide = quote.side === 'home' || quote.side === 'over';
  // Key order as upstream.
  return {
    outcome_id: outcomeId,
    market_id: String(mId),
    event_type: 'game',
    event_id: ctx.plan.game.id,
    league_id: ctx.plan.league.id,
    book_id: ctx.book.id,
    book_parent_id: ctx.book.parentId,
    type,
    side: quote.side,
    period: ctx.period,
    ...(quote.teamId !== undefined ? { team_id: quote.teamId } : {}), // absent on totals, as upstream
    odds: quote.odds,
    value: quote.value,
    is_live: ctx.live,
    deeplink_id: ctx.book.deeplinks ? `ML${outcomeId}` : '',
    line_status: 'normal',
    // Public betting on pregame outcomes only; live outcomes carry zeros upstream.
    bet_info: split
      ? betInfo(isFirstSide ? split.tickets : 100 - split.tickets, isFirstSide ? split.money : 100 - split.money)
      : betInfo(0, 0),
    // Upstream semantics unknown: null on moneylines, -10000 at the consensus, a small score elsewhere.
    odds_coefficient_score:
      type === 'moneyline'
        ? null
        : ctx.book.id === BOOK_ID_CONSENSUS
          ? -10000
          : Math.round((type === 'spread' ? quote.q : quote.q - 0.5) * 1e6) / 1e6,
    is_alt_market: false,
  };
}

/** The opening line's reduced outcome shape (book 30), with the upstream key order. */
function openOutcome(ctx: QuoteContext, type: MarketType, quote: Quote, sideIdx: number): FeedOutcome {
  const mId = marketId(ctx.plan, ctx.period, type, false);
  return {
    event_id: ctx.plan.game.id,
    value: quote.value,
    side: quote.side,
    odds: quote.odds,
    type,
    book_id: ctx.book.id,
    period: ctx.period,
    player_id: 0,
    competitor_id: 0,
    team_id: quote.teamId ?? 0,
    event_type: 'game',
    market_id: String(mId),
    outcome_id: String(mId * 100 + ctx.book.slot * 2 + sideIdx),
    option_type_id: 0,
  };
}

function marketsOf(seed: number, plan: GamePlan, s: GameState, now: number): Record<string, FeedBookMarkets> {
  if (now < plan.postedMs) return {};
  const inPlay = s.phase === 'period' || s.phase === 'break' || s.phase === 'halftime';
  const periods: FeedPeriod[] = ['event', 'firsthalf'];
  const out: Record<string, FeedBookMarkets> = {};
  for (const book of SIM_BOOKS) {
    const bookMarkets: FeedBookMarkets = {};
    for (const period of periods) {
      const pm: FeedPeriodMarkets = {};
      for (const type of MARKET_TYPES) {
        const outcomes: FeedOutcome[] = [];
        if (book.id === BOOK_ID_OPEN) {
          const ctx: QuoteContext = { seed, plan, book, period, live: false, t: plan.postedMs };
          const quotes = quoteMarket(ctx, type, pregameView(seed, plan, plan.postedMs, period));
          quotes?.forEach((q, i) => outcomes.push(openOutcome(ctx, type, q, i)));
        } else {
          const t = Math.min(now, plan.tipMs);
          const ctx: QuoteContext = { seed, plan, book, period, live: false, t };
          const split = publicSplit(seed, plan, type, period, now);
          const quotes = quoteMarket(ctx, type, pregameView(seed, plan, t, period));
          quotes?.forEach((q, i) => outcomes.push(fullOutcome(ctx, type, q, i, split)));
          if (inPlay && book.offersLive) {
            const view = liveView(plan, s, period);
            const liveCtx: QuoteContext = { seed, plan, book, period, live: true, t: now };
            const liveQuotes = view ? quoteMarket(liveCtx, type, view) : undefined;
            liveQuotes?.forEach((q, i) => outcomes.push(fullOutcome(liveCtx, type, q, i, null)));
          }
        }
        if (outcomes.length > 0) pm[type] = outcomes;
      }
      bookMarkets[period] = pm;
    }
    out[String(book.id)] = bookMarkets;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Documents

function standingsOf(seed: number, team: TeamRef, localDate: string): FeedStandings {
  const model = modelOf(team.league_id);
  const { season, phase } = seasonPhaseOn(team.league_id, localDate);
  const w = seasonWindow(team.league_id, season);
  let played = 0;
  if (w && phase === 'reg') {
    const length = daysBetween(w.regular_season.from, w.regular_season.to) + 1;
    played = Math.round((model.regularSeasonGames * daysBetween(w.regular_season.from, localDate)) / length);
  } else if (phase === 'post' || phase === 'off') {
    played = model.regularSeasonGames;
  }
  const profile = teamProfile(seed, team);
  const winPct = clamp(0.5 + profile.strength / (model.marginSd * 2.4), 0.15, 0.85);
  const luck = new Rng(seed, 'luck', team.id, season).normal(0, 1.5);
  const win = clampInt(played * winPct + luck, 0, played);
  return { win, loss: played - win, ties: null, overtime_losses: null, draw: null };
}

function teamObject(seed: number, team: TeamRef, localDate: string): FeedTeam {
  return {
    id: team.id,
    full_name: team.full_name,
    display_name: team.display_name,
    short_name: team.short_name,
    location: team.location,
    abbr: team.abbr,
    logo: team.logo,
    primary_color: team.primary_color,
    secondary_color: team.secondary_color,
    conference_type: team.conference_type,
    division_type: team.division_type,
    url_slug: team.url_slug,
    standings: standingsOf(seed, team, localDate),
    core_id: team.core_id,
  };
}

function buildGame(opts: Required<SimulatorOptions>, plan: GamePlan, now: number): FeedGame {
  const { seed } = opts;
  const s = stateAt(plan, now);
  const st = statusOf(plan, s);
  const done = s.phase === 'final' || s.phase === 'closed';
  const homeTotal = sum(plan.periodHome);
  const awayTotal = sum(plan.periodAway);
  const hoursToTip = (plan.tipMs - Math.min(now, plan.tipMs)) / HOUR;
  const box = boxscoreOf(plan, s);
  // Key order as upstream.
  return {
    id: plan.game.id,
    league_id: plan.league.id,
    status: st.status,
    real_status: st.real,
    status_display: st.display,
    start_time: plan.game.start_time,
    away_team_id: plan.away.id,
    home_team_id: plan.home.id,
    winning_team_id: done ? (homeTotal > awayTotal ? plan.home.id : plan.away.id) : null,
    league_name: plan.league.name,
    type: plan.game.season_type,
    season: plan.game.season,
    week: null,
    attendance: done ? plan.attendance : 0,
    coverage: 'full',
    is_free: false,
    trending: plan.trending,
    ...(plan.rotation ? { away_rotation_number: plan.rotation[0], home_rotation_number: plan.rotation[1] } : {}),
    teams: [teamObject(seed, plan.away, plan.game.local_date), teamObject(seed, plan.home, plan.game.local_date)],
    meta: { simulated: true, simulator_seed: seed },
    // Grows towards tip, frozen after it; null before lines are posted.
    num_bets: now < plan.postedMs ? null : Math.max(1, Math.round(plan.numBets * Math.exp(-hoursToTip / 4.5))),
    core_id: plan.game.id + 10_000_000,
    ...(box ? { boxscore: box } : {}),
    broadcast: { ...plan.broadcast },
    markets: marketsOf(seed, plan, s, now),
  };
}

/** Midnight US Pacific of a local date as an instant: the feed's convention for season boundaries. */
function feedDayStart(localDate: string): string {
  return iso(zonedTimeToMs(localDate, 0, 'America/Los_Angeles'));
}

function feedDayEnd(localDate: string): string {
  return iso(zonedTimeToMs(addDays(localDate, 1), 0, 'America/Los_Angeles') - 1000);
}

function leagueObject(league: LeagueRef, localDate: string): FeedLeague {
  const { season, phase } = seasonPhaseOn(league.id, localDate);
  const w = seasonWindow(league.id, season);
  const blacklist: string[] = [];
  for (const b of w?.breaks ?? []) {
    for (let d = b.from; d <= b.to; d = addDays(d, 1)) blacklist.push(feedDayStart(d));
  }
  // Key order as upstream.
  return {
    id: league.id,
    sport: league.sport,
    name: league.name,
    description: league.description,
    logo: league.logo,
    current_season: String(season),
    current_season_type: phase === 'off' ? 'reg' : phase,
    ...(w
      ? {
          pre_season_start: feedDayStart(w.preseason.from),
          pre_season_end: feedDayEnd(w.preseason.to),
          reg_season_start: feedDayStart(w.regular_season.from),
          reg_season_end: feedDayEnd(w.regular_season.to),
          post_season_start: feedDayStart(w.postseason.from),
          post_season_end: feedDayEnd(w.postseason.to),
        }
      : {}),
    blacklist_dates: blacklist,
    calendar_info: {},
    current_week: -1,
    updated_at: feedDayStart(localDate),
    is_active: league.is_active,
    conferences: league.conferences.map((c) => ({ id: c, display: c })),
    divisions: league.divisions.map((d) => ({ ...d })),
  };
}

/** Exposed for tests and tools: standard normal CDF used by the pricing model. */
export { normalCdf };
