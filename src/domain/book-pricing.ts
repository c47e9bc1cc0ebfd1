import { decimalToAmerican, probabilityToDecimal } from './odds-format';
import { normalCdf } from './normal';

// How a book turns a view of a game (a normal distribution of the margin or the total) into prices:
// the probability that a side covers its line, the book's margin on top, and American prices rounded
// as books show them. Used by the simulator (src/ingest/simulator/pricing.ts) to quote its books.

/** Round to the nearest half point (lines are quoted in half points); never -0. */
export function roundToHalfPoint(x: number): number {
  const r = Math.round(x * 2) / 2;
  return r === 0 ? 0 : r;
}

/**
 * P(X > line | X != line) for X ~ N(mu, sd). With `integerOutcomes` (scores are whole points) an
 * integer line is a push: X is discretised with a continuity correction and the push excluded.
 */
export function coverProbability(mu: number, sd: number, line: number, integerOutcomes: boolean): number {
  if (!integerOutcomes || !Number.isInteger(line)) return 1 - normalCdf((line - mu) / sd);
  const over = 1 - normalCdf((line + 0.5 - mu) / sd);
  const under = normalCdf((line - 0.5 - mu) / sd);
  return over / (over + under);
}

/**
 * American price of a probability that already includes the book's margin, rounded like books do:
 * to 5 from ±200, to 50 from ±1000.
 * @throws InvalidOddsError unless 0 < q < 1.
 */
export function bookAmericanPrice(q: number): number {
  let a = decimalToAmerican(probabilityToDecimal(q));
  if (Math.abs(a) >= 1000) a = Math.round(a / 50) * 50;
  else if (Math.abs(a) >= 200) a = Math.round(a / 5) * 5;
  return a;
}

/**
 * American prices of both sides of a two-way market from the first side's fair probability and the
 * book's margin (sum of implied probabilities - 1): half the margin is added to each side (additive,
 * which shades longshots as real books do); a side capped at 0.99 hands its excess to the other.
 */
export function twoWayBookPrices(pFirst: number, margin: number): [number, number] {
  const p = Math.min(0.995, Math.max(0.005, pFirst));
  let q1 = p + margin / 2;
  let q2 = 1 - p + margin / 2;
  if (q1 > 0.99) {
    q1 = 0.99;
    q2 = 1 + margin - q1;
  } else if (q2 > 0.99) {
    q2 = 0.99;
    q1 = 1 + margin - q2;
  }
  return [bookAmericanPrice(q1), bookAmericanPrice(q2)];
}
