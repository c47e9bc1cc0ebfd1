// The market types of the service as data: one row per market type says its sides, the periods it
// is stored for, whether it has a line, how a book's pair of prices is de-vigged and where it is
// served. Everything else (the schema's enums, the per-game markets, REST words, listings, pushes,
// ingest and the simulator) reads this table instead of spelling the list again, so adding a market
// type is a row here plus its tests (docs/architecture.md, "Market types").

/**
 * The periods a game market is priced for, as data: one row each, with the label people read and
 * the suffix The Odds API gives the period's market keys (`spreads_h1`, `h2h_q3`; none on the full
 * game). Order matters: it is the order of the Period enum and of REST's words.
 */
export const PERIOD_TABLE = {
  full_game: { label: 'Full game', oddsApiSuffix: '' },
  first_half: { label: '1st half', oddsApiSuffix: 'h1' },
  second_half: { label: '2nd half', oddsApiSuffix: 'h2' },
  first_quarter: { label: '1st quarter', oddsApiSuffix: 'q1' },
  second_quarter: { label: '2nd quarter', oddsApiSuffix: 'q2' },
  third_quarter: { label: '3rd quarter', oddsApiSuffix: 'q3' },
  fourth_quarter: { label: '4th quarter', oddsApiSuffix: 'q4' },
} as const satisfies Record<string, { readonly label: string; readonly oddsApiSuffix: string }>;

/** Stored periods a market may be asked for ('full' is accepted for full_game: spec 4.4). */
export const PERIODS = Object.keys(PERIOD_TABLE) as unknown as readonly [keyof typeof PERIOD_TABLE, ...(keyof typeof PERIOD_TABLE)[]];
export type Period = keyof typeof PERIOD_TABLE;

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
   * away +3.5) or `over_under` (one number both sides share, bet over or under it).
   */
  readonly line: 'none' | 'handicap' | 'over_under';
  /**
   * Which points settle it: `margin` (one team's points minus the other's, plus the handicap if it
   * has one: moneyline, spread), `sum` (both teams': total), `home` or `away` (one team's: team
   * totals), `player` (a player's statistic: props).
   */
  readonly counts: 'margin' | 'sum' | 'home' | 'away' | 'player';
  readonly devig: DevigPairing;
  /** The GraphQL field of `Markets` (or of `CoreBetTypes`) that serves it. */
  readonly field: string;
  /** Its name as people read it (the board's market menu, the labels of pushed quotes). */
  readonly label: string;
  /**
   * Its key in The Odds API v4 (`h2h`; a period's key adds PERIOD_TABLE's suffix: `h2h_q1`), when
   * that source carries it. Team totals share one key (`team_totals`), told apart by the outcome's team.
   */
  readonly oddsApiKey?: string;
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

// A prop's key in The Odds API is its market type (`player_points`); its label is the prop_type's words.
const propLabel = (propType: string) => propType.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
const overUnder = <K extends string>(oddsApiKey: K, propType: string, description: string) =>
  ({ group: 'player_prop', sides: ['over', 'under'], periods: ['full_game'], line: 'over_under', counts: 'player', devig: 'pair', field: 'playerProps', label: propLabel(propType), oddsApiKey, description, propType }) as const;
const yesNo = <K extends string>(oddsApiKey: K, propType: string, description: string) =>
  ({ group: 'player_prop', sides: ['yes', 'no'], periods: ['full_game'], line: 'none', counts: 'player', devig: 'pair', field: 'playerProps', label: propLabel(propType), oddsApiKey, description, propType }) as const;

/** The table. Order matters: it is the order of enums, REST words, listings and the simulator's market ids. */
export const MARKET_TYPE_TABLE = {
  moneyline: {
    group: 'game',
    sides: ['home', 'away'],
    periods: PERIODS,
    line: 'none',
    counts: 'margin',
    devig: 'pair',
    field: 'moneyline',
    label: 'Moneyline',
    oddsApiKey: 'h2h',
    description: 'Who wins.',
    listing: { title: 'Moneyline', defaultSort: 'odds', filter: 'team' },
  },
  spread: {
    group: 'game',
    sides: ['home', 'away'],
    periods: PERIODS,
    line: 'handicap',
    counts: 'margin',
    devig: 'pair',
    field: 'spread',
    label: 'Spread',
    oddsApiKey: 'spreads',
    description: 'Who wins with a handicap (point) given to one side.',
    listing: { title: 'Spread', defaultSort: 'value', filter: 'team' },
  },
  total: {
    group: 'game',
    sides: ['over', 'under'],
    periods: PERIODS,
    line: 'over_under',
    counts: 'sum',
    devig: 'pair',
    field: 'total',
    label: 'Total',
    oddsApiKey: 'totals',
    description: "Both teams' points over or under a line.",
    listing: { title: 'Total (over/under)', defaultSort: 'value', filter: 'side' },
  },
  home_team_total: {
    group: 'core_bet_type',
    sides: ['over', 'under'],
    periods: ['full_game'],
    line: 'over_under',
    counts: 'home',
    devig: 'pair',
    field: 'homeTeamTotal',
    label: 'Home team total',
    oddsApiKey: 'team_totals',
    description: "The home team's points over or under a line.",
  },
  away_team_total: {
    group: 'core_bet_type',
    sides: ['over', 'under'],
    periods: ['full_game'],
    line: 'over_under',
    counts: 'away',
    devig: 'pair',
    field: 'awayTeamTotal',
    label: 'Away team total',
    oddsApiKey: 'team_totals',
    description: "The away team's points over or under a line.",
  },
  // Player props: stored under The Odds API's market keys; a book's alternate lines of a prop are the
  // same market type, kept apart from its main line by their point (docs/player-props.md).
  player_points: overUnder('player_points', 'points', "A player's points over or under a line."),
  player_rebounds: overUnder('player_rebounds', 'rebounds', "A player's rebounds over or under a line."),
  player_assists: overUnder('player_assists', 'assists', "A player's assists over or under a line."),
  player_threes: overUnder('player_threes', 'threes', "A player's made three-pointers over or under a line."),
  player_points_rebounds_assists: overUnder('player_points_rebounds_assists', 'points_rebounds_assists', "A player's points + rebounds + assists over or under a line."),
  player_points_rebounds: overUnder('player_points_rebounds', 'points_rebounds', "A player's points + rebounds over or under a line."),
  player_points_assists: overUnder('player_points_assists', 'points_assists', "A player's points + assists over or under a line."),
  player_rebounds_assists: overUnder('player_rebounds_assists', 'rebounds_assists', "A player's rebounds + assists over or under a line."),
  player_blocks: overUnder('player_blocks', 'blocks', "A player's blocks over or under a line."),
  player_steals: overUnder('player_steals', 'steals', "A player's steals over or under a line."),
  player_turnovers: overUnder('player_turnovers', 'turnovers', "A player's turnovers over or under a line."),
  player_blocks_steals: overUnder('player_blocks_steals', 'blocks_steals', "A player's blocks + steals over or under a line."),
  player_double_double: yesNo('player_double_double', 'double_double', 'Whether a player records a double-double.'),
  player_triple_double: yesNo('player_triple_double', 'triple_double', 'Whether a player records a triple-double.'),
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

/** The definition of any market type word, or undefined for a word that is none. */
export function definitionOf(type: string): MarketTypeDefinition | undefined {
  return (MARKET_TYPE_TABLE as Record<string, MarketTypeDefinition>)[type];
}

/** The game markets whose outcomes carry a point (spread, total): middles, the key-number model, its fits. */
export type PointMarket = { [K in MarketType]: (typeof MARKET_TYPE_TABLE)[K]['line'] extends 'none' ? never : K }[MarketType];
export const POINT_MARKET_TYPES = MARKET_TYPES.filter((t) => hasLine(t)) as PointMarket[];

/** The label of a period (`1st half`). */
export function periodLabel(period: Period): string {
  return PERIOD_TABLE[period].label;
}
