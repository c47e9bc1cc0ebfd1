/**
 * Removing the bookmaker's margin ("de-vigging"): turning the decimal prices of one market's mutually
 * exclusive, exhaustive outcomes into true probabilities that sum to 1.
 *
 * Notation used below: pi_i = 1/d_i are the book's implied probabilities, S = sum(pi_i) the booksum,
 * n the number of outcomes. Each method is a different assumption about how the book spread its margin.
 */

import { assertDecimalOdds, InvalidOddsError } from './odds-format';
import { rootOfDecreasing } from './solve';

/** Names of the de-vig methods, in the order they are documented. */
export const DEVIG_METHODS = ['multiplicative', 'additive', 'power', 'shin', 'odds_ratio', 'worst_case'] as const;

/** A de-vig method name; validate untrusted input with `isDevigMethod`. */
export type DevigMethod = (typeof DEVIG_METHODS)[number];

/**
 * Default method: `power`. It models the favourite-longshot bias (books shade longshots more than
 * favourites), which proportional scaling ignores, and unlike `additive` it can never produce a
 * negative probability; for the near-symmetric two-way NBA markets it differs from `multiplicative`
 * by well under a percentage point. It is solved by plain bisection, so it is cheap and deterministic.
 */
export const DEFAULT_DEVIG_METHOD: DevigMethod = 'power';

/**
 * Booksums within this distance of 1 count as a fair market and are returned unchanged: decimal prices
 * built from fair probabilities (1/p) do not invert back to a sum of exactly 1 in floating point.
 */
export const FAIR_MARKET_TOLERANCE = 1e-12;

/**
 * Floor for every de-vigged probability. It defines the additive rule: subtracting the same margin from
 * every outcome drives a longshot whose implied probability is below (S - 1)/n negative; such entries
 * are raised to this floor and the whole vector renormalised proportionally. It also keeps extreme
 * markets (where pi^k underflows to 0) strictly inside (0, 1).
 */
export const MIN_DEVIG_PROBABILITY = 1e-9;

/** Convergence threshold on Shin's z for the n-way fixed-point iteration. */
export const SHIN_TOLERANCE = 1e-12;

/** Iteration cap for Shin's n-way fixed point (it converges linearly; typical markets need < 1000). */
export const SHIN_MAX_ITERATIONS = 10_000;

/** True when `value` names a de-vig method (for validating a `devig` query parameter). */
export function isDevigMethod(value: unknown): value is DevigMethod {
  return typeof value === 'string' && (DEVIG_METHODS as readonly string[]).includes(value);
}

/**
 * Booksum minus one: 0.0476... for -110/-110. Positive is the book's margin, negative an arbitrage.
 * @throws InvalidOddsError for an invalid price.
 */
export function overround(decimalOdds: readonly number[]): number {
  return sum(decimalOdds.map(inverse)) - 1;
}

/**
 * True probabilities for one market's outcomes from their decimal prices, by `method`.
 *
 * Contract: the result has one entry per price, in the same order; every entry is in (0, 1); a shorter
 * price never gets a lower probability than a longer one; every method except `worst_case` sums to 1
 * within 1e-9. Never returns NaN and never throws for valid prices.
 * - multiplicative: pi_i / S.
 * - additive: pi_i - (S - 1)/n; entries below MIN_DEVIG_PROBABILITY (possible for longshots) are
 *   raised to it and the vector is renormalised proportionally.
 * - power: pi_i^k, k solved so that the sum is 1.
 * - shin: Shin's insider-trading model, z solved in closed form for n = 2, by fixed point otherwise.
 * - odds_ratio: pi_i / (c + pi_i - c*pi_i), c solved so that the sum is 1 (Cheung 2015).
 * - worst_case: for each outcome the LOWEST probability any of the five methods above gives it, i.e.
 *   the least favourable estimate for a bettor backing that outcome. It is deliberately NOT
 *   renormalised (it sums to <= 1): each entry is a conservative bound for its own outcome, and
 *   scaling it up would undo exactly that conservatism.
 * A fair market (|S - 1| <= FAIR_MARKET_TOLERANCE) is returned unchanged by every method. A market
 * whose booksum is below 1 (an arbitrage) is normalised multiplicatively by every method: the other
 * models describe how a margin was added and have no meaning for a negative one (Shin's z would be
 * negative, additive would add probability to longshots).
 * @throws InvalidOddsError for fewer than 2 prices or any price that is not a finite decimal > 1.
 */
export function devig(decimalOdds: readonly number[], method: DevigMethod = DEFAULT_DEVIG_METHOD): number[] {
  if (decimalOdds.length < 2) {
    throw new InvalidOddsError(`A market needs at least 2 prices to de-vig, got ${decimalOdds.length}`);
  }
  const implied = decimalOdds.map(inverse);
  const booksum = sum(implied);
  if (Math.abs(booksum - 1) <= FAIR_MARKET_TOLERANCE) return implied;
  if (booksum < 1) return finalise(implied);
  switch (method) {
    case 'multiplicative':
      return finalise(implied);
    case 'additive':
      return finalise(additive(implied));
    case 'power':
      return finalise(power(implied));
    case 'shin':
      return finalise(shin(implied));
    case 'odds_ratio':
      return finalise(oddsRatio(implied));
    case 'worst_case':
      return worstCase(implied);
  }
}

function inverse(decimal: number): number {
  assertDecimalOdds(decimal);
  return 1 / decimal;
}

function sum(values: readonly number[]): number {
  return values.reduce((acc, v) => acc + v, 0);
}

/**
 * Floors at MIN_DEVIG_PROBABILITY and scales to sum 1. For the solved methods the scaling only removes
 * the solver's residual (~1e-13); for multiplicative it is the method itself.
 */
function finalise(weights: readonly number[]): number[] {
  const floored = weights.map((w) => Math.max(w, MIN_DEVIG_PROBABILITY));
  const total = sum(floored);
  return floored.map((w) => w / total);
}

/** The methods below return unnormalised weights; `finalise` turns them into probabilities. */
function additive(implied: readonly number[]): number[] {
  const shift = (sum(implied) - 1) / implied.length;
  return implied.map((p) => p - shift);
}

function power(implied: readonly number[]): number[] {
  // sum(pi^k) falls as k grows because every pi is in (0, 1); at k = 1 it is S > 1.
  const k = rootOfDecreasing((x) => sum(implied.map((p) => p ** x)) - 1, 1);
  return implied.map((p) => p ** k);
}

function oddsRatio(implied: readonly number[]): number[] {
  const transform = (c: number, p: number): number => p / (c + p - c * p);
  // Each denominator c(1 - p) + p grows with c, so the sum falls from S at c = 1 towards 0.
  const c = rootOfDecreasing((x) => sum(implied.map((p) => transform(x, p))) - 1, 1);
  return implied.map((p) => transform(c, p));
}

/**
 * Shin's probability for each outcome given the insider share z (Jullien & Salanié 1994 form),
 * (sqrt(z^2 + a) - z) / (2(1 - z)) with a = 4(1-z) pi^2 / S, evaluated as a / (sqrt(z^2 + a) + z) / (2(1 - z))
 * so that longshots (a much smaller than z^2) lose no precision to cancellation.
 */
function shinProbabilities(z: number, implied: readonly number[], booksum: number): number[] {
  return implied.map((p) => {
    const a = (4 * (1 - z) * p * p) / booksum;
    return a / (Math.sqrt(z * z + a) + z) / (2 * (1 - z));
  });
}

function shin(implied: readonly number[]): number[] {
  const z = solveShinZ(implied);
  // z outside [0, 1) would mean the model does not fit this market; proportional scaling is the safe answer.
  if (!(z >= 0 && z < 1)) return [...implied];
  return shinProbabilities(z, implied, sum(implied));
}

function solveShinZ(implied: readonly number[]): number {
  const booksum = sum(implied);
  const n = implied.length;
  const [first, second] = implied;
  if (n === 2 && first !== undefined && second !== undefined) {
    // Closed form for two outcomes (as in the `shin` Python package): z from S and D = pi_1 - pi_2.
    const d2 = (first - second) ** 2;
    return ((booksum - 1) * (d2 - booksum)) / (booksum * (d2 - 1));
  }
  // Fixed point z = (sum_i sqrt(z^2 + 4(1-z) pi_i^2 / S) - 2) / (n - 2); its fixed point is exactly the
  // z at which the Shin probabilities sum to 1.
  let z = 0;
  for (let i = 0; i < SHIN_MAX_ITERATIONS; i++) {
    const next = (sum(implied.map((p) => Math.sqrt(z * z + (4 * (1 - z) * p * p) / booksum))) - 2) / (n - 2);
    const delta = Math.abs(next - z);
    z = next;
    if (delta < SHIN_TOLERANCE) break;
  }
  return z;
}

/**
 * Shin's z, the estimated share of insider money, for a market's decimal prices (diagnostic output of
 * the `shin` method). 0 for a fair market or one whose booksum is below 1.
 * @throws InvalidOddsError for fewer than 2 prices or any invalid price.
 */
export function shinInsiderShare(decimalOdds: readonly number[]): number {
  if (decimalOdds.length < 2) {
    throw new InvalidOddsError(`A market needs at least 2 prices, got ${decimalOdds.length}`);
  }
  const implied = decimalOdds.map(inverse);
  return sum(implied) - 1 <= FAIR_MARKET_TOLERANCE ? 0 : solveShinZ(implied);
}

function worstCase(implied: readonly number[]): number[] {
  const candidates = [implied, additive(implied), power(implied), shin(implied), oddsRatio(implied)].map(finalise);
  return implied.map((_, i) => Math.min(...candidates.map((probabilities) => probabilities[i] ?? Infinity)));
}
