// The market types of the service as data: one row per market type says its sides, the periods it
// is stored for, whether it has a line, how a book's pair of prices is de-vigged and where it is
// served. Everything else (the schema's enums, the per-game markets, REST words, listings, pushes,
// ingest and the simulator) reads this table instead of spelling the list again, so adding a market
// type is a row here plus its tests (docs/architecture.md, "Market types").

/** Stored periods a market may be asked for ('full' is accepted for full_game: spec 4.4). */
export const PERIODS = ['full_game', 'first_half', 'second_half', 'first_quarter', 'second_quarter', 'third_quarter', 'fourth_quarter'] as const;
export type Period = (typeof PERIODS)[number];

/** Sides of the game's markets (the schema's Side enum). */
export const SIDES = ['home', 'away', 'over', 'under'] as const;
/** Every side of every market: a prop without a line (double-double) is yes or no. */
export const ALL_SIDES = [...SIDES, 'yes', 'no'] as const;
export type Side = (typeof ALL_SIDES)[number];

/**
 * Where a market type is served:
 * - `game`: one of the three markets of a game (spec 2.3), each a field of `markets`, listed across
 *   games (/markets/<type>), pushed live and graded;
 * - `core_bet_type`: the feed's core team-score markets, served together under `core_bet_types`;
 * - `player_prop`: one player's statistic (points, rebounds, ...), served together as `player_props`
 *   only when asked for (a game carries 10-30x more prop prices than game prices).
 */
export type MarketGroup = 'game' | 'core_bet_type' | 'player_prop';

/**
 * How a book's two prices at one line become fair probabilities: `pair` de-vigs the two sides of a
 * line together (domain/devig.ts, every method). Every market type today is a two-way pair.
 */
export type DevigPairing = 'pair';

export interface MarketTypeDefinition {
  readonly group: MarketGroup;
  /** The two sides, in the order listings and de-vigging pair them. */
  readonly sides: readonly [Side, Side];
  /** Periods it is stored for (the feed's full game and halves/quarters). */
  readonly periods: readonly Period[];
  /**
   * What its point is: `none` (moneyline), `handicap` (each side's own handicap: home -3.5 pairs with
   * away +3.5) or `total` (one number both sides share).
   */
  readonly line: 'none' | 'handicap' | 'total';
  readonly devig: DevigPairing;
  /** The GraphQL field of `Markets` (or of `CoreBetTypes`) that serves it. */
  readonly field: string;
  /** One sentence for the schema, REST and docs. */
  readonly description: string;
  /**
   * Its cross-game listing (/markets/<type>, spec 4.5-4.7), when it has one: the title of the route,
   * the default order, and the outcome filter it takes (a team's side, or over/under: a total
   * belongs to no team).
   */
  readonly listing?: { readonly title: string; readonly defaultSort: 'odds' | 'value'; readonly filter: 'team' | 'side' };
  /** Player props: the `prop_type` word the API shows (points, rebounds, ...). */
  readonly propType?: string;
}

const overUnder = (propType: string, description: string) =>
  ({ group: 'player_prop', sides: ['over', 'under'], periods: ['full_game'], line: 'total', devig: 'pair', field: 'playerProps', description, propType }) as const;
const yesNo = (propType: string, description: string) =>
  ({ group: 'player_prop', sides: ['yes', 'no'], periods: ['full_game'], line: 'none', devig: 'pair', field: 'playerProps', description, propType }) as const;

/** The table. Order matters: it is the order of enums, REST words, listings and the simulator's market ids. */
export const MARKET_TYPE_TABLE = {
  moneyline: {
    group: 'game',
    sides: ['home', 'away'],
    periods: PERIODS,
    line: 'none',
    devig: 'pair',
    field: 'moneyline',
    description: 'Who wins.',
    listing: { title: 'Moneyline', defaultSort: 'odds', filter: 'team' },
  },
  spread: {
    group: 'game',
    sides: ['home', 'away'],
    periods: PERIODS,
    line: 'handicap',
    devig: 'pair',
    field: 'spread',
    description: 'Who wins with a handicap (point) given to one side.',
    listing: { title: 'Spread', defaultSort: 'value', filter: 'team' },
  },
  total: {
    group: 'game',
    sides: ['over', 'under'],
    periods: PERIODS,
    line: 'total',
    devig: 'pair',
    field: 'total',
    description: "Both teams' points over or under a line.",
    listing: { title: 'Total (over/under)', defaultSort: 'value', filter: 'side' },
  },
  home_team_total: {
    group: 'core_bet_type',
    sides: ['over', 'under'],
    periods: ['full_game'],
    line: 'total',
    devig: 'pair',
    field: 'homeTeamTotal',
    description: "The home team's points over or under a line.",
  },
  away_team_total: {
    group: 'core_bet_type',
    sides: ['over', 'under'],
    periods: ['full_game'],
    line: 'total',
    devig: 'pair',
    field: 'awayTeamTotal',
    description: "The away team's points over or under a line.",
  },
  // Player props: stored under The Odds API's market keys; a book's alternate lines of a prop are the
  // same market type, kept apart from its main line by their point (docs/player-props.md).
  player_points: overUnder('points', "A player's points over or under a line."),
  player_rebounds: overUnder('rebounds', "A player's rebounds over or under a line."),
  player_assists: overUnder('assists', "A player's assists over or under a line."),
  player_threes: overUnder('threes', "A player's made three-pointers over or under a line."),
  player_points_rebounds_assists: overUnder('points_rebounds_assists', "A player's points + rebounds + assists over or under a line."),
  player_points_rebounds: overUnder('points_rebounds', "A player's points + rebounds over or under a line."),
  player_points_assists: overUnder('points_assists', "A player's points + assists over or under a line."),
  player_rebounds_assists: overUnder('rebounds_assists', "A player's rebounds + assists over or under a line."),
  player_blocks: overUnder('blocks', "A player's blocks over or under a line."),
  player_steals: overUnder('steals', "A player's steals over or under a line."),
  player_turnovers: overUnder('turnovers', "A player's turnovers over or under a line."),
  player_double_double: yesNo('double_double', 'Whether a player records a double-double.'),
  player_triple_double: yesNo('triple_double', 'Whether a player records a triple-double.'),
} as const satisfies Record<string, MarketTypeDefinition>;

/** Every market type ingest stores, in table order. */
export type StoredMarketType = keyof typeof MARKET_TYPE_TABLE;

type OfGroup<G extends MarketGroup> = { [K in StoredMarketType]: (typeof MARKET_TYPE_TABLE)[K]['group'] extends G ? K : never }[StoredMarketType];

const typesOf = <G extends MarketGroup>(group: G) =>
  (Object.keys(MARKET_TYPE_TABLE) as StoredMarketType[]).filter((t) => MARKET_TYPE_TABLE[t].group === group) as OfGroup<G>[];

/** The definition of a stored market type. */
export function marketTypeDefinition(type: StoredMarketType): MarketTypeDefinition {
  return MARKET_TYPE_TABLE[type];
}

/** True when the market type's outcomes carry a point (spread, totals). */
export function hasLine(type: StoredMarketType): boolean {
  return MARKET_TYPE_TABLE[type].line !== 'none';
}

/** The three markets of a game. */
export const MARKET_TYPES = typesOf('game') as unknown as readonly ['moneyline', 'spread', 'total'];
export type MarketType = OfGroup<'game'>;

/**
 * The core team-score markets the feed carries beside the three (its `core_bet_type_6_team_score`:
 * each team's points over or under a line), served as a game's `core_bet_types` (docs/feed.md). One
 * market type per team, so that each is an ordinary two-sided over/under market: best odds, consensus
 * and history work on it unchanged, and the quotes table's key needs no team column.
 */
export const CORE_BET_TYPES = typesOf('core_bet_type') as unknown as readonly ['home_team_total', 'away_team_total'];
export type CoreBetType = OfGroup<'core_bet_type'>;

/** The player props, in table order. */
export const PROP_MARKET_TYPES = typesOf('player_prop');
export type PropMarketType = OfGroup<'player_prop'>;

/** True for a player prop's market type. */
export function isPropMarket(type: string): boolean {
  return (MARKET_TYPE_TABLE as Record<string, MarketTypeDefinition>)[type]?.group === 'player_prop';
}

/** The `prop_type` words of the player props (points, rebounds, ...), in table order. */
export const PROP_TYPES = PROP_MARKET_TYPES.map((t) => (MARKET_TYPE_TABLE[t] as MarketTypeDefinition).propType!);

/** The market type of a `prop_type` word, or undefined. */
export function propMarketOf(propType: string): PropMarketType | undefined {
  return PROP_MARKET_TYPES.find((t) => (MARKET_TYPE_TABLE[t] as MarketTypeDefinition).propType === propType);
}

/** Every market type ingest stores: the three markets, the core team-score markets and the player props. */
export const STORED_MARKET_TYPES = Object.keys(MARKET_TYPE_TABLE) as unknown as readonly [...typeof MARKET_TYPES, ...typeof CORE_BET_TYPES, ...PropMarketType[]];

/** Sides of each market type, in the order listings and de-vigging pair them. */
export const SIDES_BY_MARKET: Readonly<Record<StoredMarketType, readonly [Side, Side]>> = Object.fromEntries(
  STORED_MARKET_TYPES.map((t) => [t, MARKET_TYPE_TABLE[t].sides]),
) as Record<StoredMarketType, readonly [Side, Side]>;

/** Market types of the live filters; player_props selects every player prop. */
export const LIVE_MARKET_TYPES = [...MARKET_TYPES, 'player_props'] as const;
export type LiveMarketType = (typeof LIVE_MARKET_TYPES)[number];

/**
 * Whether a stored quote of `marketType` falls under a live push filter's market type (`filter`):
 * `player_props` is every player prop and nothing else; no filter is the game markets only, so a
 * client that does not ask for props is never sent one (a prop tick is far larger than a game's).
 */
export function inLiveMarketFilter(filter: string | null | undefined, marketType: string): boolean {
  if (filter === 'player_props') return isPropMarket(marketType);
  return !isPropMarket(marketType) && (filter == null || filter === marketType);
}

/**
 * The stored market types a list of filter words stands for (`player_props` is every player prop),
 * without repeats, in the order given; undefined for an absent or empty list (no narrowing).
 */
export function storedMarketTypesOf(words: readonly string[] | null | undefined): StoredMarketType[] | undefined {
  if (!words?.length) return undefined;
  const out = new Set<StoredMarketType>();
  for (const w of words) {
    if (w === 'player_props') for (const t of PROP_MARKET_TYPES) out.add(t);
    else if (w in MARKET_TYPE_TABLE) out.add(w as StoredMarketType);
  }
  return [...out];
}

/** The `prop_type` word of a player prop's market type (points, rebounds, ...), or null on a game market. */
export function propTypeOf(marketType: string): string | null {
  return isPropMarket(marketType) ? (MARKET_TYPE_TABLE[marketType as StoredMarketType] as MarketTypeDefinition).propType! : null;
}
