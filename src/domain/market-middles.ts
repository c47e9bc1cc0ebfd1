/**
 * The middles of one market view (src/domain/market-view.ts): every pair of a first-side line (over,
 * home) and a second-side line (under, away) whose best bettable prices leave a window of results
 * that win both (domain/middles.ts findMiddle), in order of EV.
 */

import { SIDES_BY_MARKET, type PointMarket } from './market-types';
import { findMiddle } from './middles';
import type { ListingGame, ListingQuote, MiddleEntry } from './listing-types';

/** What the middles read of a market view: a spread or total market with a centre to model it on. */
export interface MiddleMarket {
  game: ListingGame;
  market: PointMarket;
  /** Median of the books' lines in the first side's convention (the view's lineOf). */
  centre: number;
  /** A handicap market (spread): lines are home handicaps. */
  handicap: boolean;
  /** Every line quoted on `side`, in the view's lineOf convention. */
  linesOf(side: string): number[];
  /** The best bettable quote on `side` at `line` (lineOf convention), if any. */
  best(side: string, line: number): ListingQuote | undefined;
}

/**
 * The middles of `view`: for every line of the first side (over, home) and every line of the second
 * (under, away) whose window holds results that win both, the best bettable price of each, in order
 * of EV. Result Y is the total, or the home margin (home at handicap h wins when Y > -h, away at
 * handicap a when Y < a), centred on the market's median line.
 */
export function marketMiddles(view: MiddleMarket): MiddleEntry[] {
  const { market } = view;
  const [first, second] = SIDES_BY_MARKET[market];
  // lineOf is the home handicap (spreads) or the total: in Y that is -line for both spread sides.
  const inY = (line: number) => (view.handicap ? -line + 0 : line);
  const out: MiddleEntry[] = [];
  for (const lowLine of view.linesOf(first)) {
    const low = view.best(first, lowLine);
    if (!low) continue;
    for (const highLine of view.linesOf(second)) {
      const high = view.best(second, highLine);
      if (!high) continue;
      const middle = findMiddle({
        league: view.game.league,
        market,
        low: { line: inY(lowLine), decimal: low.decimal },
        high: { line: inY(highLine), decimal: high.decimal },
        mean: inY(view.centre),
      });
      if (middle) out.push({ game: view.game, marketType: market, period: low.period, isLive: low.isLive, low, high, middle });
    }
  }
  return out.sort((a, b) => b.middle.ev_per_100 - a.middle.ev_per_100 || a.middle.window.low - b.middle.window.low);
}
