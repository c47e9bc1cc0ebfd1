import { assertAmericanOdds, assertDecimalOdds, assertProbability, americanToImpliedProbability } from './odds-format';

// Closing-line value (docs/closing-and-grading.md): how a bet's price compares with the closing
// price. Every figure is positive when the bet beat the close.

/**
 * An American price on the "cents" scale bettors count in, where -100 and +100 are the same point:
 * +a (a >= 100) is a - 100, -a is -(a - 100). So -110 -> -10, +105 -> 5, and -105 to +105 is 10 cents.
 * @throws InvalidOddsError for values that are not American odds
 */
export function americanCents(american: number): number {
  assertAmericanOdds(american);
  return american > 0 ? american - 100 : american + 100;
}

/** CLV in price cents: cents(bet) - cents(close). Bet -110, close -120: +10. */
export function clvCents(betAmerican: number, closeAmerican: number): number {
  return americanCents(betAmerican) - americanCents(closeAmerican);
}

/**
 * CLV in implied probability: implied(close) - implied(bet), both with the book's margin. Bet -110
 * (0.523810), close -120 (0.545455): +0.021645.
 */
export function clvImpliedProbability(betAmerican: number, closeAmerican: number): number {
  return americanToImpliedProbability(closeAmerican) - americanToImpliedProbability(betAmerican);
}

/** CLV against the fair (de-vigged) close of probability p, for a bet at decimal price d. */
export interface FairClv {
  /** p - 1/d: how much more likely the bet wins than its price needs. */
  probability: number;
  /** (p*d - 1) * 100: expected profit per 100 staked if the fair close is the truth. */
  evPercent: number;
}

/** @throws InvalidOddsError for a decimal price <= 1 or p outside (0, 1) */
export function clvAgainstFair(betDecimal: number, fairProbability: number): FairClv {
  assertDecimalOdds(betDecimal);
  assertProbability(fairProbability);
  return { probability: fairProbability - 1 / betDecimal, evPercent: (fairProbability * betDecimal - 1) * 100 };
}
