// The closed sets of the API's vocabulary, written once: GraphQL argument checks, REST parameters
// (through src/graphql/arguments.ts) and OpenAPI enums derive from them. De-vig methods live in
// devig.ts beside their math.

/** The three markets of a game. */
export const MARKET_TYPES = ['moneyline', 'spread', 'total'] as const;
export type MarketType = (typeof MARKET_TYPES)[number];

/** Market types of the live filters; player_props is accepted and matches no stored quote. */
export const LIVE_MARKET_TYPES = [...MARKET_TYPES, 'player_props'] as const;

/** Every side of every market. */
export const SIDES = ['home', 'away', 'over', 'under'] as const;

/** Sides of each market type. */
export const SIDES_BY_MARKET: Readonly<Record<MarketType, readonly string[]>> = {
  moneyline: ['home', 'away'],
  spread: ['home', 'away'],
  total: ['over', 'under'],
};

/** Stored periods a market may be asked for ('full' is accepted for full_game: spec 4.4). */
export const PERIODS = ['full_game', 'first_half', 'second_half', 'first_quarter', 'second_quarter', 'third_quarter', 'fourth_quarter'] as const;

/**
 * The games filter's status words (spec 4.1: scheduled, live, finished; plus the stored values) and
 * the stored statuses each one selects. A Map, so that no inherited key (`__proto__`,
 * `constructor`) is ever a word.
 */
export const STATUS_FILTERS: ReadonlyMap<string, readonly string[]> = new Map([
  ['scheduled', ['scheduled']],
  ['live', ['in_progress', 'live']],
  ['in_progress', ['in_progress', 'live']],
  ['finished', ['finished', 'closed']],
  ['closed', ['closed']],
  ['postponed', ['postponed']],
  ['cancelled', ['cancelled']],
  // A game the feed stopped carrying mid-game, after the documented timeout (docs/ingest.md).
  ['unknown', ['unknown']],
]);

/** Words of the games status filter. */
export const STATUS_WORDS: readonly string[] = [...STATUS_FILTERS.keys()];

/** Statuses in which a game is being played (live odds, live pushes). */
export const LIVE_STATUSES: readonly string[] = ['in_progress', 'live'];

/**
 * Why a price is stale (domain/stale.ts), in the order they are checked: not confirmed by the feed
 * recently enough, far from the market's consensus, or its book stopped moving while the game is played.
 */
export const STALE_REASONS = ['NOT_CONFIRMED', 'OFF_MARKET', 'BOOK_FROZEN'] as const;
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
