/**
 * Types of the upstream v2 scoreboard document (`GET /web/v2/scoreboard/<league>`), derived from the
 * real captures kept in test/fixtures/feeds/ (single documents and recorded series of
 * the NBA series). They describe the feed as it is, not as the simulator writes it:
 * - a key marked optional (`?`) was absent from some real objects of that kind;
 * - `| null` means the samples carried an explicit null there.
 * Unknown extra keys may appear at any level (the feed grows); the normaliser must ignore them.
 * Status/side/period unions list the values seen in the samples or documented by the feed's users;
 * validate at runtime before trusting them.
 */

/** `game.status`: the coarse state. */
export type FeedGameStatus = 'scheduled' | 'inprogress' | 'complete' | 'postponed' | 'cancelled';

/**
 * `game.real_status`: the fine state. Pairs seen (status / real_status / status_display):
 * scheduled/scheduled/null, scheduled/created/null (minutes before tip), inprogress/inprogress/"3rd 0:24",
 * inprogress/halftime/"Half", complete/complete/"Final", complete/closed/"Final" | "Final - OT" | "Final - 2OT",
 * postponed/postponed/"Ppd", cancelled/cancelled/"Cancelled".
 */
export type FeedRealStatus =
  | 'scheduled'
  | 'created'
  | 'inprogress'
  | 'halftime'
  | 'complete'
  | 'closed'
  | 'postponed'
  | 'cancelled';

/** `game.type`: regular season, postseason (play-in and playoffs) or preseason. */
export type FeedSeasonType = 'reg' | 'post' | 'pre';

/** Market period keys under `markets[book]` (`periods=` query parameter of the feed). */
export type FeedPeriod =
  | 'event'
  | 'firsthalf'
  | 'secondhalf'
  | 'firstquarter'
  | 'secondquarter'
  | 'thirdquarter'
  | 'fourthquarter';

/** Outcome side: home/away on moneyline and spread, over/under on totals (and team-score props). */
export type FeedSide = 'home' | 'away' | 'over' | 'under';

/** Core market types. Other `type` values occur (e.g. `core_bet_type_6_team_score`, a team total). */
export type FeedCoreMarketType = 'moneyline' | 'spread' | 'total';

export interface FeedConference {
  id: string; // "EASTERN"
  display: string;
}

export interface FeedDivision {
  id: string; // "ATLANTIC"
  display: string; // "Atlantic"
  conference_id: string;
}

/** `document.league`. Season boundaries are instants (midnight US Pacific as UTC, e.g. "2025-10-21T07:00:00.000Z"). */
export interface FeedLeague {
  id: number; // NBA = 4
  sport: string; // "basketball"
  name: string; // "nba"
  description: string; // "Men's National Basketball Association"
  logo: string;
  current_season: string; // "2025" for the 2025-26 season
  current_season_type: FeedSeasonType;
  pre_season_start?: string;
  pre_season_end?: string;
  reg_season_start?: string;
  reg_season_end?: string;
  post_season_start?: string;
  post_season_end?: string;
  blacklist_dates?: string[];
  calendar_info?: Record<string, unknown>;
  current_week?: number; // -1 for basketball
  updated_at?: string;
  is_active: boolean;
  conferences?: FeedConference[];
  divisions?: FeedDivision[];
}

export interface FeedStandings {
  win: number;
  loss: number;
  ties: number | null;
  overtime_losses: number | null;
  draw: number | null;
}

/** An entry of `game.teams[]` (order not reliable: map by `home_team_id` / `away_team_id`). */
export interface FeedTeam {
  id: number;
  full_name: string; // "Boston Celtics"
  display_name: string; // "Celtics"
  short_name: string;
  location: string; // "Boston" ("LA" for the Clippers)
  abbr: string; // "BOS"
  logo: string;
  primary_color: string; // hex without '#', usually upper-case (one real value was lower-case: "cb0436")
  secondary_color: string;
  conference_type: string | null; // "EASTERN"
  division_type: string | null; // "ATLANTIC"
  url_slug: string;
  standings: FeedStandings;
  core_id: number | null;
}

export interface FeedBetInfoFigure {
  value: number; // 0 in every sample
  percent: number; // 0..100; the two sides of a pregame market sum to 100 (or both 0 when unknown)
}

/** Public betting on one outcome: share of tickets (bets) and of money. */
export interface FeedBetInfo {
  tickets: FeedBetInfoFigure;
  money: FeedBetInfoFigure;
}

/**
 * One priced outcome. Two shapes occur:
 * - the full shape (every real book and the consensus, book 15) with `league_id`, `book_parent_id`,
 *   `is_live`, `deeplink_id`, `line_status`, `bet_info`, `odds_coefficient_score`, `is_alt_market`;
 * - the reduced shape of the opening line (book 30): no `is_live`, `line_status` nor `bet_info`, but
 *   `player_id`, `competitor_id`, `option_type_id` (all 0), and `team_id` 0 on totals.
 * `team_id` is absent on totals of full-shape outcomes.
 */
export interface FeedOutcome {
  outcome_id: string;
  market_id: string; // shared by every book quoting the same market; live markets have their own id
  event_id: number; // = game.id
  event_type: string; // "game"
  book_id: number;
  type: FeedCoreMarketType | (string & {});
  side: FeedSide;
  period: FeedPeriod;
  team_id?: number | null;
  odds: number; // American, integer
  value: number; // the line: handicap of that side on spread, points on total, 0 on moneyline
  // full shape
  league_id?: number;
  book_parent_id?: number;
  is_live?: boolean; // pregame (false) and live (true) outcomes of an in-progress game share the array
  deeplink_id?: string;
  line_status?: 'normal' | 'opener' | (string & {});
  bet_info?: FeedBetInfo;
  odds_coefficient_score?: number | null;
  is_alt_market?: boolean;
  // reduced shape (book 30) and props
  player_id?: number;
  competitor_id?: number;
  option_type_id?: number;
  prop_type_id?: number;
}

/** Outcomes of one book for one period, by market type. Keys other than the core three may occur. */
export interface FeedPeriodMarkets {
  moneyline?: FeedOutcome[];
  spread?: FeedOutcome[];
  total?: FeedOutcome[];
  [marketType: string]: FeedOutcome[] | undefined;
}

/** One book's markets by period ("event" = full game incl. overtime; "firsthalf", ...). */
export interface FeedBookMarkets {
  event?: FeedPeriodMarkets;
  firsthalf?: FeedPeriodMarkets;
  [period: string]: FeedPeriodMarkets | undefined;
}

/** `game.markets`: by book id as a string ("15", "30", "68", ...). `{}` before lines are posted or when cancelled. */
export type FeedMarkets = Record<string, FeedBookMarkets>;

export interface FeedLinescorePeriod {
  id: number; // 1..4 quarters, 5 = OT, 6 = 2OT, ...
  abbr: string; // "1", "OT", "2OT"
  display_name: string; // "1st", "OT", "2OT"
  full_name: string; // "1st Quarter", "Overtime", "2nd Overtime"
  away_points: number | null; // null for periods not started; 0 for a period about to start
  home_points: number | null;
}

/** Flat per-period odds snapshot inside a live boxscore (seen in a few captures). */
export interface FeedLatestOdds {
  ml_away?: number | null;
  ml_home?: number | null;
  spread_away?: number | null;
  spread_home?: number | null;
  spread_away_line?: number | null;
  spread_home_line?: number | null;
  total?: number | null;
  over?: number | null;
  under?: number | null;
}

/**
 * `game.boxscore`: present once live/final and for `created` games (zeros, clock "12:00").
 * Second-half totals include overtime. Between quarters the feed shows the next period with a
 * full clock and 0 points.
 */
export interface FeedBoxscore {
  clock: string; // "04:48", "00:00" when final or at halftime
  period: number;
  linescore: FeedLinescorePeriod[];
  total_away_points: number;
  total_home_points: number;
  halftime?: boolean;
  total_away_firsthalf_points: number;
  total_home_firsthalf_points: number;
  total_away_secondhalf_points: number;
  total_home_secondhalf_points: number;
  total_away_firstfive_points?: number; // baseball leftover, 0
  bonus?: Record<string, unknown>;
  outcome?: { times_tied?: number; lead_changes?: number };
  duration?: string;
  away_timeouts?: number;
  home_timeouts?: number;
  latest_odds?: Record<string, FeedLatestOdds>;
}

export interface FeedBroadcast {
  network: string;
  network_short: string;
  satellite?: string;
  internet?: string;
}

export interface FeedSeriesParticipant {
  team_id: number;
  seed: number;
  record: number; // wins in the series
}

/** Playoff series context (type "post"). */
export interface FeedSeries {
  participants: FeedSeriesParticipant[];
  summary: string; // "Series tied 2-2"
}

export interface FeedLastPlay {
  clock?: string;
  possession?: number;
  text?: string;
  type?: string;
  home_win_pct?: number;
  home_spread_win_pct?: number;
  over_win_pct?: number;
}

/** `game.meta`: usually `{}`; simulated documents add `simulated` and `simulator_seed`. */
export interface FeedGameMeta {
  free_pro_report?: boolean;
  free_projections?: boolean;
  simulated?: boolean;
  simulator_seed?: number;
  [key: string]: unknown;
}

export interface FeedGame {
  id: number;
  league_id: number;
  status: FeedGameStatus;
  real_status: FeedRealStatus;
  status_display: string | null;
  start_time: string; // ISO instant (UTC)
  away_team_id: number;
  home_team_id: number;
  winning_team_id: number | null;
  league_name: string; // "nba"
  type: FeedSeasonType;
  season: number; // 2025 for the 2025-26 NBA season
  week: number | null;
  attendance: number; // 0 until known
  coverage: string; // "full"
  is_free: boolean;
  trending: boolean;
  away_rotation_number?: number; // absent in playoffs
  home_rotation_number?: number;
  teams: FeedTeam[];
  meta: FeedGameMeta;
  num_bets: number | null; // null when lines are not posted yet
  core_id: number;
  broadcast?: FeedBroadcast;
  boxscore?: FeedBoxscore;
  series?: FeedSeries;
  last_play?: FeedLastPlay;
  markets: FeedMarkets;
}

/** One v2 scoreboard response. `simulated` is only set by the simulator. */
export interface FeedDocument {
  league: FeedLeague;
  games: FeedGame[];
  market_rules?: Record<string, unknown>;
  content_live_count?: number;
  simulated?: boolean;
}

/** One line of a recorded series file (`series/*.jsonl.gz`). */
export interface FeedCapture {
  fetched_at: string;
  source: string; // "actionnetwork/v2/scoreboard"
  body: FeedDocument;
}
