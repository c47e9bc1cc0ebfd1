/**
 * The Kelly criterion: the share of a bankroll that maximises the expected logarithm of wealth for a
 * bet at decimal odds d whose true win probability is p (Kelly 1956): f* = (p*d - 1) / (d - 1), the
 * edge divided by the net odds. Pushes are not modelled.
 */

import { assertDecimalOdds, assertProbability } from './odds-format';

/** The Kelly stake of one bet, as shares of the bankroll. */
export interface KellyStake {
  /** f* = (p*d - 1) / (d - 1): the full Kelly share; negative when the bet has no edge. */
  full_kelly: number;
  /** The share to stake: `fraction` of f*, and 0 when f* is not positive (never bet without an edge). */
  stake_fraction: number;
  /** Expected profit per unit staked, (p*d - 1), in percent. */
  edge_percentage: number;
}

/**
 * Kelly stake for a bet at `decimalOdds` won with probability `probability`, scaled by `fraction`
 * (1 full Kelly, 0.5 half Kelly: the usual hedge against an overestimated p).
 * @throws InvalidOddsError for an invalid price, a probability outside (0, 1) or a fraction outside (0, 1].
 */
export function kellyStake(probability: number, decimalOdds: number, fraction = 1): KellyStake {
  assertDecimalOdds(decimalOdds);
  assertProbability(probability);
  if (!Number.isFinite(fraction) || fraction <= 0 || fraction > 1) throw new RangeError(`Invalid Kelly fraction ${String(fraction)}: must be a number in (0, 1]`);
  const edge = probability * decimalOdds - 1;
  const full = edge / (decimalOdds - 1);
  return { full_kelly: full, stake_fraction: full > 0 ? full * fraction : 0, edge_percentage: edge * 100 };
}
