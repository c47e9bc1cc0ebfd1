import { isPropMarket, MARKET_TYPE_TABLE, PERIOD_TABLE, PERIODS, PROP_MARKET_TYPES, STORED_MARKET_TYPES, type PropMarketType, type StoredMarketType } from '../../../domain';

/**
 * The Odds API market keys this service models, as data: the base key gives the market, an optional
 * suffix the period. Every other key (`h2h_lay`, `h2h_3_way`, `alternate_*`, `player_*`, ...) is
 * ignored without failing. Betfair's lay prices (`h2h_lay`) are ignored on purpose: a lay price is
 * the price at which one can bet *against* a side, it has no place among the back prices every
 * listing compares, and the back price (`h2h`) of the same exchange is kept (docs/sources.md).
 */
export const MARKET_KEYS: Readonly<Record<string, StoredMarketType | 'team_total'>> = marketKeys();

/**
 * The table's keys (domain/market-types.ts `oddsApiKey`) of the game and team-score markets. A key
 * two market types share (`team_totals`: the home and the away team's) reads as `team_total` until
 * each outcome's team picks one.
 */
function marketKeys(): Record<string, StoredMarketType | 'team_total'> {
  const keys: Record<string, StoredMarketType | 'team_total'> = {};
  for (const type of STORED_MARKET_TYPES) {
    const key = (MARKET_TYPE_TABLE[type] as { oddsApiKey?: string }).oddsApiKey;
    if (!key || isPropMarket(type)) continue;
    keys[key] = key in keys ? 'team_total' : type;
  }
  return keys;
}

/**
 * Player props: The Odds API's keys are the service's market types (`player_points`, ...);
 * `<key>_alternate` is the same prop's alternate lines, kept apart from the main line by their point.
 */
/** The prop and whether the key is its alternates, or null for a key that is no player prop this service models. */
export function propOfKey(key: string): { market: PropMarketType; alternate: boolean } | null {
  const alternate = key.endsWith('_alternate');
  const base = alternate ? key.slice(0, -'_alternate'.length) : key;
  const market = (PROP_MARKET_TYPES as readonly string[]).find((t) => t === base);
  return market ? { market: market as PropMarketType, alternate } : null;
}

/** Period suffixes of market keys (`spreads_h1`, `h2h_q1`) and the service's period names. */
export const PERIOD_SUFFIXES: Readonly<Record<string, string>> = Object.fromEntries(PERIODS.map((period) => [PERIOD_TABLE[period].oddsApiSuffix, period]));

/** The market and period of a market key, or null for a key the service does not model. */
export function marketOfKey(key: string): { market: StoredMarketType | 'team_total'; period: string } | null {
  const match = /^([a-z0-9_]+?)(?:_(h[12]|q[1-4]))?$/.exec(key);
  if (!match) return null;
  const market = MARKET_KEYS[match[1]!];
  const period = PERIOD_SUFFIXES[match[2] ?? ''];
  return market && period ? { market, period } : null;
}
