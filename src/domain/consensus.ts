/**
 * Market consensus across books. Prices are always averaged in probability space: American odds are
 * discontinuous at even money (-105 and +105 are neighbours) so their arithmetic mean is meaningless,
 * and a mean of decimal odds over-weights long prices.
 */

import { assertDecimalOdds, decimalToAmerican, InvalidOddsError } from './odds-format';

/**
 * Consensus true probabilities: the per-outcome mean of each book's de-vigged probabilities,
 * renormalised to sum to 1 (inputs from e.g. `worst_case` need not sum to 1 themselves).
 * @throws InvalidOddsError for no books, books with different outcome counts or fewer than 2
 *   outcomes, or any probability outside (0, 1).
 */
export function consensusProbability(bookProbabilities: readonly (readonly number[])[]): number[] {
  const [first] = bookProbabilities;
  if (first === undefined) throw new InvalidOddsError('Consensus needs at least one book');
  const outcomes = first.length;
  if (outcomes < 2) throw new InvalidOddsError(`A market needs at least 2 outcomes, got ${outcomes}`);
  const totals = new Array<number>(outcomes).fill(0);
  for (const book of bookProbabilities) {
    if (book.length !== outcomes) {
      throw new InvalidOddsError(`Every book must price ${outcomes} outcomes, got one with ${book.length}`);
    }
    book.forEach((p, i) => {
      if (!Number.isFinite(p) || p <= 0 || p >= 1) {
        throw new InvalidOddsError(`Invalid probability ${String(p)}: must be strictly between 0 and 1`);
      }
      totals[i] = (totals[i] ?? 0) + p;
    });
  }
  const sum = totals.reduce((acc, t) => acc + t, 0);
  return totals.map((t) => t / sum);
}

/**
 * Consensus decimal price of one outcome across books: 1 / mean(1/d_i), i.e. the mean implied
 * probability converted back to odds (the harmonic mean of the decimal prices). The margin is kept.
 * @throws InvalidOddsError for an empty list or any invalid price.
 */
export function averageOddsDecimal(decimalOdds: readonly number[]): number {
  if (decimalOdds.length === 0) throw new InvalidOddsError('Cannot average an empty list of prices');
  let impliedSum = 0;
  for (const d of decimalOdds) {
    assertDecimalOdds(d);
    impliedSum += 1 / d;
  }
  return decimalOdds.length / impliedSum;
}

/**
 * Median of the books' points (spread handicaps or totals). With an even count it is the mean of the
 * two middle values, which can fall on a quarter point (-5 and -5.5 give -5.25).
 * @throws InvalidOddsError for an empty list or a non-finite point.
 */
export function medianLine(points: readonly number[]): number {
  if (points.length === 0) throw new InvalidOddsError('Cannot take the median of an empty list of points');
  for (const p of points) {
    if (!Number.isFinite(p)) throw new InvalidOddsError(`Invalid point ${String(p)}: must be a finite number`);
  }
  const sorted = [...points].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] as number;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] as number) + upper) / 2;
}

/**
 * Consensus American prices of a two-way market (home/away) across books: each side's
 * `averageOddsDecimal` converted with `decimalToAmerican` (margin kept, integer American).
 * @throws InvalidOddsError for an empty side or any invalid price.
 */
export function consensusAmericanPrices(prices: { home: readonly number[]; away: readonly number[] }): {
  home: number;
  away: number;
} {
  return {
    home: decimalToAmerican(averageOddsDecimal(prices.home)),
    away: decimalToAmerican(averageOddsDecimal(prices.away)),
  };
}
