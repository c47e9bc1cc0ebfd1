/**
 * Value metrics of one priced outcome against an estimate of its true probability. Nothing is rounded
 * here: rounding is a presentation concern (see `roundTo`), and rounded inputs would skew comparisons.
 */

import { assertProbability, impliedProbability } from './odds-format';
import { PERCENT_DIGITS, roundTo } from './rounding';

/** The value metrics of one outcome, with the snake_case keys the API exposes. */
export interface ValueMetrics {
  /** The offered decimal price. */
  decimal_odds: number;
  /** 1/decimal_odds: the probability the price implies, margin included. */
  implied_probability: number;
  /** The caller's estimate of the outcome's real probability (e.g. de-vigged consensus). */
  true_probability: number;
  /** 1/decimal_odds: the win rate at which the bet breaks even (equal to implied_probability). */
  break_even_probability: number;
  /** Expected profit as a percentage of the stake: (true_probability * decimal_odds - 1) * 100. */
  edge_percentage: number;
  /** Expected profit of a 100-unit stake: 100 * (p * (d - 1) - (1 - p)). */
  ev_per_100: number;
  /** ev_per_100 as shown (PERCENT_DIGITS decimals) > 0: a flag never contradicts its figure. */
  profitable: boolean;
  /** Passed through from the caller (see `isStale`). */
  stale: boolean;
  /** Passed through from the caller (see `findArbitrage`). */
  arbitrage: boolean;
}

export interface ValueMetricsInput {
  decimalOdds: number;
  trueProbability: number;
  stale: boolean;
  arbitrage: boolean;
}

/**
 * Value metrics for a bet at `decimalOdds` whose true win probability is `trueProbability`.
 * edge_percentage is the standard "edge" of betting literature, the expected return per unit staked
 * (p*d - 1), expressed in percent; it therefore equals ev_per_100 = 100 * (p*(d-1) - (1-p)), and is
 * positive exactly when true_probability > break_even_probability. Pushes are not modelled.
 * @throws InvalidOddsError for an invalid price or a probability outside (0, 1).
 */
export function valueMetrics(input: ValueMetricsInput): ValueMetrics {
  const { decimalOdds, trueProbability, stale, arbitrage } = input;
  const implied = impliedProbability(decimalOdds);
  assertProbability(trueProbability);
  // 100 * (p(d-1) - (1-p)) simplifies to 100 * (p*d - 1); the short form has fewer roundings, so an
  // exactly break-even bet (0.4 at 2.5) comes out as 0 rather than 1e-14 and is not called profitable.
  const edge = trueProbability * decimalOdds - 1;
  return {
    decimal_odds: decimalOdds,
    implied_probability: implied,
    true_probability: trueProbability,
    break_even_probability: implied,
    edge_percentage: edge * 100,
    ev_per_100: 100 * edge,
    // The user reads ev_per_100 rounded: 0.004 shows as 0, and a bet shown as 0 is not profitable.
    profitable: roundTo(100 * edge, PERCENT_DIGITS) > 0,
    stale,
    arbitrage,
  };
}
