// The closed sets of the API's vocabulary, written once: the GraphQL schema's enums (their UPPER_CASE
// values map to these lower-case words in src/graphql/enums.ts), REST parameters and OpenAPI enums
// derive from them. De-vig methods live in devig.ts beside their math.

// Market types, their sides and periods are data: market-types.ts.
import { PERIODS, POINT_MARKET_TYPES, type Period, type PointMarket } from './market-types';

/** Periods a cross-game listing can be asked for: every period a game market is priced for. */
export const LISTING_PERIODS: readonly Period[] = PERIODS;
export type ListingPeriod = Period;

/** Orders of a cross-game listing: by price or by value (ev_per_100). */
export const LISTING_SORTS = ['odds', 'value'] as const;
export type ListingSort = (typeof LISTING_SORTS)[number];

/**
 * Why a resumable stream answers a Last-Event-ID with a snapshot (docs/live-protocol.md): the id is
 * older than the change log keeps, this database never issued it, or more changes followed it than
 * a replay sends (src/services/change-feed.ts REPLAY_MAX_ENTRIES).
 */
export const RESYNC_REASONS = ['history_expired', 'unknown_event_id', 'too_many_changes'] as const;
export type ResyncReason = (typeof RESYNC_REASONS)[number];

/** Subscription plans, from the smallest. */
export const PLANS = ['starter', 'pro', 'elite'] as const;
export type Plan = (typeof PLANS)[number];

/** States of an account's subscription; only active lets its keys read. */
export const SUBSCRIPTION_STATUSES = ['active', 'canceled', 'inactive'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The games filter's status words (spec 4.1: scheduled, live, finished; plus the stored values) and the stored statuses each one selects. */
const STATUS_SELECTIONS = [
  ['scheduled', ['scheduled']],
  ['live', ['in_progress', 'live']],
  ['in_progress', ['in_progress', 'live']],
  ['finished', ['finished', 'closed']],
  ['closed', ['closed']],
  ['postponed', ['postponed']],
  ['cancelled', ['cancelled']],
  // A game the feed stopped carrying mid-game, after the documented timeout (docs/ingest.md).
  ['unknown', ['unknown']],
] as const;

/** A word of the games status filter. */
export type StatusWord = (typeof STATUS_SELECTIONS)[number][0];

/** STATUS_SELECTIONS as a Map, so that no inherited key (`__proto__`, `constructor`) is ever a word. */
export const STATUS_FILTERS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>(STATUS_SELECTIONS);

/** Words of the games status filter. */
export const STATUS_WORDS: readonly StatusWord[] = STATUS_SELECTIONS.map(([word]) => word);

/** Statuses in which a game is being played (live odds, live pushes). */
export const LIVE_STATUSES: readonly string[] = ['in_progress', 'live'];

/**
 * Which games /live/movement covers: `live` (default) the games being played; `upcoming` the games
 * not started yet, so opening -> current per book with times is served before tip-off too (issue 23).
 */
export const MOVEMENT_GAME_SETS = ['live', 'upcoming'] as const;
export type MovementGameSet = (typeof MOVEMENT_GAME_SETS)[number];
/** The stored statuses of each set. */
export const MOVEMENT_GAME_STATUSES: Readonly<Record<MovementGameSet, readonly string[]>> = { live: LIVE_STATUSES, upcoming: ['scheduled'] };

/**
 * Why a price is stale (domain/stale.ts), in the order they are checked: not confirmed by the feed
 * recently enough, far from the market's consensus, or its book stopped moving while the game is played.
 */
export const STALE_REASONS = ['not_confirmed', 'off_market', 'book_frozen'] as const;
export type StaleReason = (typeof STALE_REASONS)[number];

/** True when `value` is one of `values` (a type guard for untrusted strings). */
export function isOneOf<const V extends string>(values: readonly V[], value: unknown): value is V {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}

/**
 * Why a free-text filter value (conference, division, sport) is refused, or null when it is fine:
 * 1 to `max` characters, no control characters (PostgreSQL refuses NUL in text).
 */
export function textProblem(value: string, max: number): string | null {
  if (value.length < 1 || value.length > max || /[\u0000-\u001f\u007f]/.test(value)) {
    return `must be text of 1 to ${max} characters without control characters`;
  }
  return null;
}

/** Results of a graded bet (docs/closing-and-grading.md). */
export const BET_RESULTS = ['won', 'lost', 'push', 'void'] as const;
export type BetResult = (typeof BET_RESULTS)[number];

/** Statuses whose score is the final one: bets on these games are graded. */
export const FINAL_STATUSES: readonly string[] = ['finished', 'closed'];

/** Statuses of games that were not played as scheduled: every bet on them is void. */
export const VOID_STATUSES: readonly string[] = ['postponed', 'cancelled'];

/**
 * Why a book has no closing price for an outcome it quoted at some point (docs/closing-and-grading.md):
 * - `no_capture_before_start`: the service holds no capture of the game before it went live, so no
 *   book has a closing line for it;
 * - `not_quoted_before_start`: the game was captured before it went live, but this book's outcome
 *   was first seen only afterwards (a live price, or a pregame price first listed after tip-off).
 */
export const CLOSING_GAPS = ['no_capture_before_start', 'not_quoted_before_start'] as const;
export type ClosingGap = (typeof CLOSING_GAPS)[number];

/**
 * Why a bet has no fair close (POST /clv, docs/closing-and-grading.md):
 * - `no_closing_pair`: no real book closed both sides of the bet's market (at any line);
 * - `no_closing_pair_at_line`: books closed both sides of the player's prop, but none at the bet's
 *   line, and props have no key-number model to move another line's pair to it.
 */
export const FAIR_GAPS = ['no_closing_pair', 'no_closing_pair_at_line'] as const;
export type FairGap = (typeof FAIR_GAPS)[number];

/**
 * Why a bet has no result (POST /grade, docs/closing-and-grading.md):
 * - `not_final`: the game has no final result yet (not started, being played);
 * - `no_player_statistics`: a player prop on a final game whose box score of players is not stored
 *   (yet): it settles on the player's statistics, so it is never guessed from the score;
 * - `player_not_in_boxscore`: a player prop whose player is on no line of the game's final box
 *   score (not linked to it, docs/player-props.md "Players across sources", or left out of it);
 * - `statistic_missing`: the player's line lacks a statistic the prop counts.
 * A player prop is pending (`not_final`) until its game's box score is final.
 */
export const GRADE_GAPS = ['not_final', 'no_player_statistics', 'player_not_in_boxscore', 'statistic_missing'] as const;
export type GradeGap = (typeof GRADE_GAPS)[number];

/** What the instant a game went live was taken from: its start time, or an earlier first live price. */
export const CUTOFF_SOURCES = ['start_time', 'first_live_price'] as const;
export type CutoffSource = (typeof CUTOFF_SOURCES)[number];

/**
 * Where a fair (de-vigged) probability comes from: the sharp book's pair (Pinnacle), an exchange's
 * back prices (Betfair), or the consensus of every real book's pair. A client chooses which to
 * prefer (REFERENCE_CHOICES, default DEFAULT_REFERENCE); the one preferred falls back to the consensus
 * where its book does not quote the market (docs/value-metrics.md).
 */
export const FAIR_SOURCES = ['sharp', 'exchange', 'consensus'] as const;
export type FairSource = (typeof FAIR_SOURCES)[number];
export const REFERENCE_CHOICES = FAIR_SOURCES;
export type ReferenceChoice = FairSource;
export const DEFAULT_REFERENCE: ReferenceChoice = 'sharp';

/**
 * What a webhook watches (docs/webhooks.md): a price whose EV per 100 reaches a threshold, an
 * arbitrage appearing, a line moving by at least N cents or points, a game changing status, a
 * stored steam or reverse-line-movement signal (docs/signals.md), a middle appearing.
 */
export const WEBHOOK_PREDICATE_TYPES = ['ev', 'arbitrage', 'line_move', 'status_change', 'steam', 'reverse_line_movement', 'middle'] as const;
export type WebhookPredicateType = (typeof WEBHOOK_PREDICATE_TYPES)[number];

/** Where a stored delivery stands: waiting for its next attempt, answered with a 2xx, given up after 24 h. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * Which prices a listing shows by when they are offered (issue 23): `pregame` prices only, `live`
 * (in-game) prices only, or `all` (the default: both, flagged is_live, never compared with each other).
 */
export const LIVE_FILTERS = ['pregame', 'live', 'all'] as const;
export type LiveFilter = (typeof LIVE_FILTERS)[number];
export const DEFAULT_LIVE_FILTER: LiveFilter = 'all';

/**
 * Why a price cannot be bet (domain/bettable.ts), in the order they are checked: the book no longer
 * lists it, it is a pregame price of a game that has started, a live price of a game not in play, or
 * it is stale (domain/stale.ts).
 */
export const NOT_BETTABLE_REASONS = ['unavailable', 'game_started', 'not_in_play', 'stale'] as const;
export type NotBettableReason = (typeof NOT_BETTABLE_REASONS)[number];

/** The markets middles are looked for in (domain/middles.ts): the game markets with a line. */
export const MIDDLE_MARKET_TYPES: readonly PointMarket[] = POINT_MARKET_TYPES;
export type MiddleMarketType = PointMarket;

/** Kinds of line-movement signal (domain/signals.ts; docs/signals.md). */
export const SIGNAL_KINDS = ['steam', 'reverse_line_movement', 'market_leader'] as const;
export type SignalKind = (typeof SIGNAL_KINDS)[number];
