// The simulator's options and the schedule entry it exposes.

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

/** Simulated game ids are SIM_GAME_ID_BASE + epochDay * 100 + slot (NBA slots 0-49, WNBA 50-99). */
export const SIM_GAME_ID_BASE = 90_000_000;
export const DEFAULT_SIM_TIME_ZONE = 'America/New_York';

export function validateOptions(o: SimulatorOptions): Required<SimulatorOptions> {
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
