import { PUBLISHED_STD_DEV } from '../../domain';
import type { FeedBroadcast } from '../feeds/actionnetwork/schema';
import { LEAGUE_ID_NBA, LEAGUE_ID_WNBA } from '../reference-data';

// Parameters of the simulated world per league: scoring, pace, real-time length of periods, slate
// size, tip times by home time zone, TV networks.

/** The periods the simulator quotes: full game (overtime included) and first half. */
export type SimPeriod = 'event' | 'firsthalf';
export const SIM_PERIODS: readonly SimPeriod[] = ['event', 'firsthalf'];

/** Lines are posted this long before the scheduled start. */
export const ODDS_POSTED_HOURS_BEFORE = 30;
/** `scheduled/created` this long before the scheduled start. */
export const CREATED_MINUTES_BEFORE = 6;

/** Parameters of the game model per league. */
export interface LeagueModel {
  homeAdvantage: number;
  averageTotal: number;
  strengthSd: number;
  paceSd: number;
  /**
   * Spread of results around the lines in the simulated world: the published values, the world's
   * truth, not the service's estimate of it (MARGIN_STD_DEV, fitted from stored finals).
   */
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

export const MODELS: Record<number, LeagueModel> = {
  [LEAGUE_ID_NBA]: {
    homeAdvantage: 2.3,
    averageTotal: 228,
    strengthSd: 4.5,
    paceSd: 3.5,
    marginSd: PUBLISHED_STD_DEV.NBA.spread,
    totalSd: PUBLISHED_STD_DEV.NBA.total,
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
    marginSd: PUBLISHED_STD_DEV.WNBA.spread,
    totalSd: PUBLISHED_STD_DEV.WNBA.total,
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
export const TEAM_ZONES: Record<number, Record<string, 'E' | 'C' | 'M' | 'P'>> = {
  [LEAGUE_ID_NBA]: {
    CHI: 'C', MIL: 'C', MIN: 'C', HOU: 'C', DAL: 'C', MEM: 'C', NOP: 'C', OKC: 'C', SAS: 'C',
    DEN: 'M', UTA: 'M', PHX: 'M',
    GSW: 'P', LAL: 'P', LAC: 'P', SAC: 'P', POR: 'P',
  },
  [LEAGUE_ID_WNBA]: { CHI: 'C', DAL: 'C', MIN: 'C', PHX: 'M', LV: 'P', LA: 'P', SEA: 'P', GSV: 'P', POR: 'P' },
};

/** Local tip times (minutes after midnight) by home zone: 19:00-22:30 US Eastern. */
export const TIP_SLOTS: Record<'E' | 'C' | 'M' | 'P', readonly number[]> = {
  E: [19 * 60, 19 * 60 + 30],
  C: [20 * 60, 20 * 60 + 30],
  M: [21 * 60, 21 * 60 + 30],
  P: [22 * 60, 22 * 60 + 30],
};

export const FIRST_HALF_MARGIN_SHARE = 0.5;
export const FIRST_HALF_TOTAL_SHARE = 0.51;
export const FIRST_HALF_SD_SHARE = 0.72;

export function modelOf(leagueId: number): LeagueModel {
  const m = MODELS[leagueId];
  if (!m) throw new RangeError(`no simulation model for league ${String(leagueId)}`);
  return m;
}
