import { z } from 'zod';
import { INT32 } from '../../feed-rows';
import { BOOK_KEY } from './markets-check';

/**
 * The upstream v2 scoreboard document (`GET /web/v2/scoreboard/<league>`): the one description of the
 * feed, as zod. Its inferred types (end of file) are what the normaliser reads and what the simulator
 * writes. Derived from the real captures in test/fixtures/feeds/.
 *
 * Two kinds of field:
 * - fields the normaliser reads are validated: a wrong type refuses the document, naming the path;
 * - fields nobody here reads are `described`: their shape is written down for the simulator, which
 *   writes them, and for readers. Ingest does not check them (`FEED` leaves them out of its objects,
 *   which drop the keys they do not list): checking, even copying, the unread fields of thousands of
 *   outcomes per document doubled the parse time, and a field nobody reads is no reason to refuse a
 *   document. `FEED_FULLY_CHECKED` checks them too: tests hold the real captures and the
 *   simulator's documents to it, so the described types stay true.
 * Objects are not strict: unknown keys are ignored, so a feed that grows keeps flowing.
 *
 * `nullish` where the captures show a key absent or null on some objects of that kind.
 */

/** The feed's schemas; `checkDescribed` also checks the fields nobody here reads (see above). */
function feedSchemas(checkDescribed: boolean) {
  /** Every integer the ingest reads is stored in an `int` column: one out of its range is refused here, with its path. */
  const int = z.number().int().min(INT32.min).max(INT32.max);
  const nullableInt = int.nullish();
  const nullableString = z.string().nullish();

  /** Stands for a described field in what ingest checks: `object` leaves it out of the shape. */
  const unchecked = z.unknown().optional();
  /** A field nobody here reads: typed for writers; checked only when `checkDescribed`. */
  const described = <T extends z.ZodType>(schema: T): z.ZodOptional<T> =>
    checkDescribed ? schema.optional() : (unchecked as unknown as z.ZodOptional<T>);
  /**
   * `z.object` of `shape` without its unchecked fields: an object drops keys it does not list, for
   * nothing, while a listed field costs a parse step and a copy, even as `unknown` (on every one of
   * the thousands of outcomes a document carries). The inferred type keeps them (optional).
   */
  const object = <S extends z.ZodRawShape>(shape: S): z.ZodObject<S> =>
    checkDescribed ? z.object(shape) : (z.object(Object.fromEntries(Object.entries(shape).filter(([, field]) => field !== unchecked))) as unknown as z.ZodObject<S>);

  /** ISO 8601 instant, e.g. "2026-01-24T00:30:00.000Z". */
  const isoTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO 8601 timestamp');

  // ---------------------------------------------------------------------------------------------------
  // League

  const conference = z.object({ id: z.string(), display: z.string() });
  const division = z.object({ id: z.string(), display: z.string(), conference_id: z.string() });

  /** `document.league`. Season boundaries are instants (midnight US Pacific as UTC). */
  const feedLeagueSchema = object({
    id: int, // NBA 4, WNBA 5
    current_season: z.union([z.string(), z.number()]).nullish(), // "2025" for the 2025-26 season
    current_season_type: nullableString, // reg | post | pre
    is_active: z.boolean().nullish(),
    sport: described(z.string()), // "basketball"
    name: described(z.string()), // "nba"
    description: described(z.string()),
    logo: described(z.string()),
    pre_season_start: described(z.string()),
    pre_season_end: described(z.string()),
    reg_season_start: described(z.string()),
    reg_season_end: described(z.string()),
    post_season_start: described(z.string()),
    post_season_end: described(z.string()),
    blacklist_dates: described(z.array(z.string())),
    calendar_info: described(z.record(z.string(), z.unknown())),
    current_week: described(z.number()), // -1 for basketball
    updated_at: described(z.string()),
    conferences: described(z.array(conference)),
    divisions: described(z.array(division)),
  });

  // ---------------------------------------------------------------------------------------------------
  // Teams

  const standings = z
    .object({ win: nullableInt, loss: nullableInt, ties: nullableInt, overtime_losses: nullableInt, draw: nullableInt })
    .nullish();

  /** An entry of `game.teams[]` (order not reliable: map by `home_team_id` / `away_team_id`). */
  const feedTeamSchema = z.object({
    id: int,
    full_name: z.string(), // "Boston Celtics"
    display_name: nullableString, // "Celtics"
    short_name: nullableString,
    location: nullableString, // "Boston" ("LA" for the Clippers)
    abbr: z.string(), // "BOS"
    logo: nullableString,
    primary_color: nullableString, // hex without '#', usually upper-case
    secondary_color: nullableString,
    conference_type: nullableString, // "EASTERN"
    division_type: nullableString, // "ATLANTIC"
    url_slug: nullableString,
    standings,
    core_id: nullableInt,
  });

  // ---------------------------------------------------------------------------------------------------
  // Markets

  /** Public betting on one outcome: share (0..100) of tickets and of money; `value` is 0 in every capture. */
  const betInfoFigure = object({ value: described(z.number()), percent: z.number().nullish() });

  /**
   * One priced outcome. Two shapes occur: the full shape (every real book and the consensus, book 15)
   * and the reduced shape of the opening line (book 30: no `is_live`, `line_status` nor `bet_info`, but
   * `player_id`, `competitor_id`, `option_type_id`, all 0). `team_id` is absent on totals. `odds` is an
   * integer American price, null when withdrawn; `value` the line (side's handicap, total, 0 on moneyline).
   */
  const feedOutcomeSchema = object({
    outcome_id: z.union([z.string(), z.number()]).nullish(),
    book_id: int.nullish(),
    type: described(z.string().nullable()), // moneyline | spread | total | other types (team totals, props)
    side: z.string(), // home | away (moneyline, spread), over | under (total)
    period: described(z.string().nullable()), // event | firsthalf | secondhalf | firstquarter ... fourthquarter
    team_id: nullableInt,
    odds: z.number().min(INT32.min).max(INT32.max).nullable(), // stored rounded, as an `int`
    value: z.number().nullish(),
    is_live: z.boolean().nullish(), // pregame and live outcomes of an in-progress game share the array
    line_status: nullableString, // normal | opener
    is_alt_market: z.boolean().nullish(),
    bet_info: z
      .object({ tickets: betInfoFigure.nullish(), money: betInfoFigure.nullish() })
      .nullish(),
    market_id: described(z.string()), // shared by every book quoting the same market; live markets have their own
    event_id: described(z.number()), // = game.id
    event_type: described(z.string()), // "game"
    league_id: described(z.number()),
    book_parent_id: described(z.number()),
    deeplink_id: described(z.string()),
    odds_coefficient_score: described(z.number().nullable()),
    player_id: described(z.number()),
    competitor_id: described(z.number()),
    option_type_id: described(z.number()),
    prop_type_id: described(z.number()),
  });

  /** Outcomes of one book for one period, by market type ("moneyline", "spread", "total", FEED_TEAM_TOTAL_KEY, others). */
  const feedPeriodMarketsSchema = z.record(z.string(), z.array(feedOutcomeSchema));
  /** One book's markets by period ("event" = full game incl. overtime, "firsthalf", ...). */
  const feedBookMarketsSchema = z.record(z.string(), feedPeriodMarketsSchema);
  /** `game.markets`: by book id as a string ("15", "30", "68"...); `{}` before lines are posted. */
  const feedMarketsSchema = z.record(z.string().regex(BOOK_KEY, 'book ids are integers below a billion'), feedBookMarketsSchema);

  // ---------------------------------------------------------------------------------------------------
  // Boxscore

  /** One period of the linescore: 1..4 quarters, 5 = OT, 6 = 2OT...; points null for periods not started. */
  const linescorePeriod = object({
    away_points: nullableInt,
    home_points: nullableInt,
    id: described(z.number()),
    abbr: described(z.string()), // "1", "OT", "2OT"
    display_name: described(z.string()), // "1st", "OT"
    full_name: described(z.string()), // "1st Quarter", "Overtime"
  });

  /**
   * `game.boxscore`: present once live or final, and for `created` games (zeros, clock "12:00").
   * Second-half totals include overtime. Between quarters the feed shows the next period with a full
   * clock and 0 points.
   */
  const feedBoxscoreSchema = object({
    clock: nullableString, // "04:48"; "00:00" when final or at halftime
    period: nullableInt,
    linescore: z.array(linescorePeriod.nullable()).nullish(),
    total_away_points: nullableInt,
    total_home_points: nullableInt,
    total_away_firsthalf_points: nullableInt,
    total_home_firsthalf_points: nullableInt,
    total_away_secondhalf_points: nullableInt,
    total_home_secondhalf_points: nullableInt,
    halftime: described(z.boolean()),
    total_away_firstfive_points: described(z.number()), // a baseball leftover, 0
  });

  // ---------------------------------------------------------------------------------------------------
  // Game and document

  /**
   * One game. Status pairs seen (status / real_status / status_display): scheduled/scheduled/null,
   * scheduled/created/null (minutes before tip), inprogress/inprogress/"3rd 0:24", inprogress/halftime/
   * "Half", complete/complete/"Final", complete/closed/"Final - OT", postponed/postponed/"Ppd",
   * cancelled/cancelled/"Cancelled" (status-map.ts maps them).
   */
  const feedGameSchema = object({
    id: int.positive(),
    league_id: int,
    status: z.string().min(1),
    real_status: nullableString,
    status_display: nullableString,
    start_time: isoTime,
    away_team_id: int,
    home_team_id: int,
    winning_team_id: nullableInt,
    type: nullableString, // reg | post | pre
    season: z.union([z.number(), z.string()]).nullish(), // 2025 for the 2025-26 NBA season
    week: nullableInt,
    attendance: nullableInt, // 0 until known
    coverage: nullableString, // "full"
    is_free: z.boolean().nullish(),
    trending: z.boolean().nullish(),
    away_rotation_number: nullableInt, // absent in playoffs
    home_rotation_number: nullableInt,
    num_bets: nullableInt, // null before lines are posted
    core_id: z.union([z.number(), z.string()]).nullish(),
    teams: z.array(feedTeamSchema).nullish(),
    /** Usually `{}`; simulated games carry `{ simulated: true, simulator_seed }`. */
    meta: z.record(z.string(), z.unknown()).nullish(),
    /** TV: `{ network, network_short, satellite?, internet? }`, stored as given. */
    broadcast: z.record(z.string(), z.unknown()).nullish(),
    /** Playoff series context: participants (team_id, seed, record) and a summary ("Series tied 2-2"). */
    series: z.unknown().optional(),
    boxscore: feedBoxscoreSchema.nullish(),
    markets: feedMarketsSchema.nullish(),
    league_name: described(z.string()), // "nba"
  });

  /** One v2 scoreboard response. `simulated` is only set by the simulator. */
  const feedDocumentSchema = object({
    league: feedLeagueSchema.nullish(),
    games: z.array(feedGameSchema),
    simulated: z.boolean().optional(),
    market_rules: described(z.record(z.string(), z.unknown())),
    content_live_count: described(z.number()),
  });

  return {
    document: feedDocumentSchema,
    league: feedLeagueSchema,
    game: feedGameSchema,
    team: feedTeamSchema,
    boxscore: feedBoxscoreSchema,
    linescorePeriod,
    markets: feedMarketsSchema,
    bookMarkets: feedBookMarketsSchema,
    periodMarkets: feedPeriodMarketsSchema,
    outcome: feedOutcomeSchema,
  };
}

/**
 * The key (and outcome `type`) of the feed's team totals: each team's points over or under a line,
 * the team in `team_id`, sides over/under, `option_type_id` 1 (over) or 2 (under), `prop_type_id` 166,
 * full game only, no public betting (zeros). The only `core_bet_type_*` key in the captures.
 */
export const FEED_TEAM_TOTAL_KEY = 'core_bet_type_6_team_score';

/** What ingest checks: every field the normaliser reads. */
export const FEED = feedSchemas(false);
/** Every described field checked too: for tests of the captures and of the simulator's output. */
export const FEED_FULLY_CHECKED = feedSchemas(true);

export type FeedDocument = z.infer<typeof FEED.document>;
export type FeedLeague = z.infer<typeof FEED.league>;
export type FeedGame = z.infer<typeof FEED.game>;
export type FeedTeam = z.infer<typeof FEED.team>;
export type FeedStandings = NonNullable<FeedTeam['standings']>;
export type FeedBoxscore = z.infer<typeof FEED.boxscore>;
export type FeedLinescorePeriod = z.infer<typeof FEED.linescorePeriod>;
export type FeedMarkets = z.infer<typeof FEED.markets>;
export type FeedBookMarkets = z.infer<typeof FEED.bookMarkets>;
export type FeedPeriodMarkets = z.infer<typeof FEED.periodMarkets>;
export type FeedOutcome = z.infer<typeof FEED.outcome>;
export type FeedBetInfo = NonNullable<FeedOutcome['bet_info']>;
export type FeedBroadcast = NonNullable<FeedGame['broadcast']>;
/** What a caller may hand to the normaliser (before defaults and transforms). */
export type FeedDocumentInput = z.input<typeof FEED.document>;
