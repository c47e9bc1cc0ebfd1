/**
 * The input and output types of the cross-game listings (src/domain/listing.ts) and of the middles
 * of a market view (src/domain/market-middles.ts): the games, books and quotes a listing is built
 * from, and the entries, EV objects, references and arbitrage details it gives back.
 */

import type { DevigMethod } from './devig';
import type { ValueMetrics } from './ev';
import type { League } from './key-numbers';
import type { MarketType } from './market-types';
import type { Middle } from './middles';
import { gameTiming } from './bettable';
import type { ListingSort, LiveFilter, NotBettableReason, ReferenceChoice, StaleReason } from './vocabulary';

/** A listed market: one of the three markets, or every player prop at once (`player_props`). */
export type ListingMarketType = MarketType | 'player_props';

/** A game as the listing needs it. */
export interface ListingGame {
  id: number;
  /** Picks the key-number distribution (NBA or WNBA). */
  league: League;
  homeTeamId: number;
  awayTeamId: number;
  /** The game is being played: a book that stops moving meanwhile is flagged (BOOK_FROZEN). Default false. */
  live?: boolean;
  /** The game has started (its pregame prices can no longer be bet). Default: `live`. */
  started?: boolean;
}

/**
 * A stored game as the listing needs it: its league by name, and whether it has started and is being
 * played (`timing`: gameTiming's reading, of now unless the caller reads another instant).
 */
export function listingGame(
  game: { id: number; leagueName: string; homeTeamId: number; awayTeamId: number; status: string; startTime: Date },
  timing = gameTiming(game),
): ListingGame {
  return { id: game.id, league: game.leagueName.toLowerCase() === 'wnba' ? 'WNBA' : 'NBA', homeTeamId: game.homeTeamId, awayTeamId: game.awayTeamId, live: timing.inPlay, started: timing.started };
}

export interface ListingBook {
  id: number;
  name: string | null;
  isAggregate: boolean;
  isSharp: boolean;
  /** sportsbook, exchange, prediction_market or aggregate (absent: sportsbook). */
  kind?: string;
}

/** One current price (a Quote row); only available quotes should be passed in. */
export interface ListingQuote {
  gameId: number;
  bookId: number;
  marketType: string;
  period: string;
  side: string;
  isLive: boolean;
  outcomeId: string | null;
  teamId: number | null;
  /** The side's handicap (spread), the total (total), null (moneyline). */
  point: number | null;
  /** Player props: the player (0 or absent otherwise) and an alternate's line key ('' or absent on main lines). */
  playerId?: number;
  lineKey?: string;
  american: number;
  decimal: number;
  fractional: string;
  isAvailable: boolean;
  lineStatus: string;
  seenAt: Date;
  changedAt: Date;
}

/** Which estimate of the true probability was used, and how. */
export interface ReferenceInfo {
  /** `sharp`: the sharp book's de-vigged price; `exchange`: an exchange's; `consensus`: mean of every book's de-vigged price. */
  reference: ReferenceChoice;
  /** The side's point the reference was measured at (null on moneylines). */
  reference_point: number | null;
  /** True when the reference was moved from reference_point to the outcome's point (key numbers). */
  point_adjusted: boolean;
  /** Books whose de-vigged pair formed the reference (1 for the sharp book). */
  reference_book_count: number;
}

/** The other leg of an arbitrage and the stake split that locks the profit. */
export interface ArbitrageDetail {
  /** sum(1/d) of this price and the best complementary price; below 1. */
  total_implied_probability: number;
  /** Guaranteed profit as a percentage of the total staked. */
  profit_percentage: number;
  /** Fraction of the bankroll to stake on this outcome. */
  stake: number;
  complement: { book_id: number; side: string; point: number | null; decimal: number; american: number; stake: number; stale: boolean };
}

/**
 * The EV object of one listing entry: the domain's ValueMetrics, with the probability-derived fields
 * null when no reference exists (for example only one side of the market is quoted anywhere).
 */
export interface ListingEv extends Omit<ValueMetrics, 'true_probability' | 'edge_percentage' | 'ev_per_100'> {
  true_probability: number | null;
  edge_percentage: number | null;
  ev_per_100: number | null;
  devig_method: DevigMethod;
  /** Why `stale` is true (domain/stale.ts), or null when the price is fresh. */
  stale_reason: StaleReason | null;
  /** The price can be bet now (domain/bettable.ts); profitable and arbitrage are only ever true when it can. */
  bettable: boolean;
  /** Why it cannot, or null when it can. */
  not_bettable_reason: NotBettableReason | null;
  reference: ReferenceInfo | null;
  arbitrage_detail: ArbitrageDetail | null;
}

export interface ListingEntry {
  quote: ListingQuote;
  game: ListingGame;
  book: ListingBook;
  /** The value score `sort=value` orders by: ev_per_100 (null without a reference). */
  value: number | null;
  ev: ListingEv;
}

export interface BuildListingInput {
  marketType: ListingMarketType;
  games: readonly ListingGame[];
  /** Every quote of the games in scope for this market type and period, whatever the book filter. */
  quotes: readonly ListingQuote[];
  /** Sportsbook rows by id; a book without a row counts as an ordinary (non-aggregate, non-sharp) book. */
  books: ReadonlyMap<number, ListingBook>;
  devigMethod: DevigMethod;
  /** Which fair price to prefer (default DEFAULT_REFERENCE); the consensus where that book has none. */
  reference?: ReferenceChoice;
  sort: ListingSort;
  /** The clock staleness is measured against. */
  now: Date;
  /** Output filters, applied after the market-wide computations (a filtered-out book still counts). */
  bookIds?: readonly number[] | null | undefined;
  teamIds?: readonly number[] | null | undefined;
  sides?: readonly string[] | null | undefined;
  /** Player props only: these players, and these props (stored market types, player_points ...). */
  playerIds?: readonly number[] | null | undefined;
  propMarkets?: readonly string[] | null | undefined;
  /** Pregame prices only, live prices only, or all (default DEFAULT_LIVE_FILTER). */
  live?: LiveFilter | undefined;
  /**
   * Only this slice of the sorted listing (default all): the order needs each price's value only, so
   * the rest of an entry (staleness, bettability, arbitrage) is computed for the slice alone.
   */
  page?: { offset: number; limit: number } | undefined;
}

/** A middle (domain/middles.ts) between two bettable prices of one market. */
export interface MiddleEntry {
  game: ListingGame;
  marketType: MarketType;
  period: string;
  isLive: boolean;
  /** The leg that wins above its line: over, or home. */
  low: ListingQuote;
  /** The leg that wins below its line: under, or away. */
  high: ListingQuote;
  middle: Middle;
}
