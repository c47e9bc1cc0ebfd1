/** Arbitrage (a "sure bet") across books: backing every outcome at its best price for a guaranteed profit. */

import { assertDecimalOdds, InvalidOddsError } from './odds-format';
import { PERCENT_DIGITS, PROBABILITY_DIGITS, roundTo } from './rounding';

export interface Arbitrage {
  /** sum(1/d_i) over the best prices; below 1 for an arbitrage. */
  total_implied_probability: number;
  /** Guaranteed profit as a percentage of the total amount staked: (1/total - 1) * 100. */
  profit_percentage: number;
  /** Fraction of the bankroll for each side, (1/d_i)/total, same order as the prices; sums to 1. */
  stakes: number[];
}

/**
 * The arbitrage offered by the best decimal prices of a market's complementary outcomes (2 or more),
 * or null when sum(1/d_i) >= 1 (a break-even book is not an arbitrage), or when the figures as shown
 * (profit 0.00 %, total 1.0000) would not tell one: a flag never contradicts its figures. Staking each side in proportion
 * to 1/d_i makes every outcome return the same amount, bankroll / total_implied_probability.
 * @throws InvalidOddsError for fewer than 2 prices or any invalid price.
 */
export function findArbitrage(prices: readonly number[]): Arbitrage | null {
  if (prices.length < 2) {
    throw new InvalidOddsError(`Arbitrage needs the prices of at least 2 complementary outcomes, got ${prices.length}`);
  }
  const implied = prices.map((price) => {
    assertDecimalOdds(price);
    return 1 / price;
  });
  const total = implied.reduce((acc, p) => acc + p, 0);
  const profit = (1 / total - 1) * 100;
  if (total >= 1 || roundTo(profit, PERCENT_DIGITS) <= 0 || roundTo(total, PROBABILITY_DIGITS) >= 1) return null;
  return {
    total_implied_probability: total,
    profit_percentage: profit,
    stakes: implied.map((p) => p / total),
  };
}
