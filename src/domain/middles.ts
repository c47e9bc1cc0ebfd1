/**
 * Middles (issue 23): two prices on the same spread or total at different lines, on opposite sides,
 * such that both bets win when the result lands between the lines (over 220.5 at one book, under
 * 223.5 at another: a total of 221, 222 or 223 wins both).
 *
 * Model: the result Y (the home team's margin for spreads, the total for totals) is an integer drawn
 * from the key-number model's discretised normal (src/domain/key-numbers.ts: MARGIN_STD_DEV, centred
 * on the market's median line). Stakes are split as an arbitrage's are, in proportion to 1/d, so
 * that every result outside the window returns the same amount R = 1/(1/d1 + 1/d2) and a result
 * inside returns 2R. A leg whose line is a whole number pushes (returns its stake) when Y lands on it.
 */

import { MARGIN_STD_DEV, type League, type PointMarket } from './key-numbers';
import { normalCdf } from './normal';
import { assertDecimalOdds, InvalidOddsError } from './odds-format';

/** One leg of a middle: the lower leg wins above its line, the upper leg below its line (in Y). */
export interface MiddleLegInput {
  /** The leg's line in Y: for the lower leg (over, home) the number Y must exceed, for the upper leg (under, away) the one Y must stay below. */
  line: number;
  decimal: number;
}

export interface MiddleInput {
  league: League;
  market: PointMarket;
  /** The leg that wins when Y > its line (over; home, whose line in Y is minus its handicap). */
  low: MiddleLegInput;
  /** The leg that wins when Y < its line (under; away, whose line in Y is its handicap). */
  high: MiddleLegInput;
  /** Centre of Y: the market's median total, or minus the median home handicap. */
  mean: number;
}

export interface Middle {
  /** The open interval of Y in which both legs win: (low.line, high.line). */
  window: { low: number; high: number };
  /** Whole numbers strictly inside the window. */
  width: number;
  /** P(low.line < Y < high.line): both legs win. */
  middle_probability: number;
  /** Probability that one leg pushes (Y lands on a whole-number line). */
  push_probability: number;
  /** Fractions of the total stake on the low and high leg, (1/d)/sum(1/d): equal returns outside the window. */
  stakes: [number, number];
  /** Profit as a percentage of the total stake when Y lands inside the window: (2R - 1) * 100. */
  profit_if_middle: number;
  /** Profit as a percentage of the total stake when only one leg wins: (R - 1) * 100 (negative unless an arbitrage). */
  profit_otherwise: number;
  /** Expected profit of 100 staked on the pair with those stakes (pushes returned). */
  ev_per_100: number;
}

/** P(Y <= t) for the integer-valued result Y. */
const atMost = (t: number, mean: number, sd: number) => normalCdf((Math.floor(t) + 0.5 - mean) / sd);
/** P(Y = k), zero unless k is a whole number. */
const exactly = (k: number, mean: number, sd: number) => (Number.isInteger(k) ? normalCdf((k + 0.5 - mean) / sd) - normalCdf((k - 0.5 - mean) / sd) : 0);

/**
 * The middle the two legs make, or null when their window is empty (high.line <= low.line: the
 * lines overlap the other way, and some result loses both).
 * @throws InvalidOddsError for an invalid price or a non-finite line or mean.
 */
export function findMiddle(input: MiddleInput): Middle | null {
  const { low, high, mean } = input;
  for (const v of [low.line, high.line, mean]) if (!Number.isFinite(v)) throw new InvalidOddsError(`Invalid line ${String(v)}: must be a finite number`);
  assertDecimalOdds(low.decimal);
  assertDecimalOdds(high.decimal);
  if (!(high.line > low.line)) return null;
  const sd = MARGIN_STD_DEV[input.league][input.market];
  const pLowWins = 1 - atMost(low.line, mean, sd);
  const pLowPush = exactly(low.line, mean, sd);
  // P(Y < high) = P(Y <= high - 1) for a whole-number high, P(Y <= floor(high)) otherwise.
  const pHighWins = atMost(Number.isInteger(high.line) ? high.line - 1 : high.line, mean, sd);
  const pHighPush = exactly(high.line, mean, sd);
  const inside = Math.max(0, pHighWins - atMost(low.line, mean, sd));
  const implied = 1 / low.decimal + 1 / high.decimal;
  const stakes: [number, number] = [1 / low.decimal / implied, 1 / high.decimal / implied];
  const r = 1 / implied;
  const expected = stakes[0] * (low.decimal * pLowWins + pLowPush) + stakes[1] * (high.decimal * pHighWins + pHighPush) - 1;
  const first = Math.floor(low.line) + 1;
  const last = Number.isInteger(high.line) ? high.line - 1 : Math.floor(high.line);
  return {
    window: { low: low.line, high: high.line },
    width: Math.max(0, last - first + 1),
    middle_probability: inside,
    push_probability: pLowPush + pHighPush,
    stakes,
    profit_if_middle: (2 * r - 1) * 100,
    profit_otherwise: (r - 1) * 100,
    ev_per_100: 100 * expected,
  };
}
