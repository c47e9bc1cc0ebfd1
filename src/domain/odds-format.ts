/**
 * Conversions between the odds formats the service shows (American, decimal, fractional) and
 * implied probabilities. Decimal odds are the internal currency of all other domain math, because
 * they convert to a probability with a single division and have no sign discontinuity at even money.
 */

/** Thrown for odds or probabilities that cannot describe a real bet. */
export class InvalidOddsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidOddsError';
  }
}

/** Largest denominator `decimalToFractional` searches; books quote fractions like 10/11 or 100/30. */
export const FRACTIONAL_MAX_DENOMINATOR = 100;

/**
 * Throws InvalidOddsError unless `decimal` is finite and > 1 (a price of 1.0 or less returns no profit).
 */
export function assertDecimalOdds(decimal: number): void {
  if (!Number.isFinite(decimal) || decimal <= 1) {
    throw new InvalidOddsError(`Invalid decimal odds ${String(decimal)}: must be a finite number greater than 1`);
  }
}

/**
 * Throws InvalidOddsError unless `american` is finite and <= -100 or >= +100
 * (values strictly between have no meaning in the American convention).
 */
export function assertAmericanOdds(american: number): void {
  if (!Number.isFinite(american) || (american > -100 && american < 100)) {
    throw new InvalidOddsError(`Invalid American odds ${String(american)}: must be a finite number <= -100 or >= +100`);
  }
}

/** Throws InvalidOddsError unless `p` is finite and strictly inside (0, 1). */
export function assertProbability(p: number): void {
  if (!Number.isFinite(p) || p <= 0 || p >= 1) {
    throw new InvalidOddsError(`Invalid probability ${String(p)}: must be a finite number strictly between 0 and 1`);
  }
}

/**
 * American to decimal odds: +150 -> 2.5, -110 -> 1.9090..., ±100 -> 2.
 * @throws InvalidOddsError for NaN/Infinity or values strictly between -100 and +100.
 */
export function americanToDecimal(american: number): number {
  assertAmericanOdds(american);
  return american > 0 ? 1 + american / 100 : 1 + 100 / -american;
}

/**
 * Decimal to integer American odds: d >= 2 -> +round((d-1)*100), else -round(100/(d-1)).
 * Even money (2.0) is +100. The result is rounded, so it is not an exact inverse of americanToDecimal
 * for decimals that do not correspond to a whole American price.
 * @throws InvalidOddsError for decimal <= 1 or non-finite input.
 */
export function decimalToAmerican(decimal: number): number {
  assertDecimalOdds(decimal);
  const american = decimal >= 2 ? Math.round((decimal - 1) * 100) : -Math.round(100 / (decimal - 1));
  // Rounding can land a price just under 2.0 (e.g. 1.999) on -100; keep the canonical +100 for even money.
  return american === -100 ? 100 : american;
}

/**
 * Signed display string for American odds: -110 -> "-110", 150 -> "+150", 100 -> "+100".
 * @throws InvalidOddsError for values that are not valid American odds.
 */
export function formatAmerican(american: number): string {
  assertAmericanOdds(american);
  return american > 0 ? `+${american}` : String(american);
}

/** Greatest common divisor of two non-negative integers. */
function gcd(a: number, b: number): number {
  let x = Math.abs(a);
  let y = Math.abs(b);
  while (y !== 0) {
    [x, y] = [y, x % y];
  }
  return x;
}

/**
 * Best rational approximation p/q of x >= 0 with q <= maxDenominator, via continued-fraction
 * convergents plus the last admissible semiconvergent (which can beat the last convergent).
 */
function bestRational(x: number, maxDenominator: number): [number, number] {
  let [h0, h1] = [0, 1]; // numerators of convergents n-2, n-1
  let [k0, k1] = [1, 0]; // denominators of convergents n-2, n-1
  let rest = x;
  // 64 terms is far more than a double can need; the cap only guards against pathological loops.
  for (let i = 0; i < 64; i++) {
    const a = Math.floor(rest);
    const h2 = a * h1 + h0;
    const k2 = a * k1 + k0;
    if (k2 > maxDenominator) {
      const t = Math.floor((maxDenominator - k0) / k1);
      const semi: [number, number] = [t * h1 + h0, t * k1 + k0];
      const conv: [number, number] = [h1, k1];
      return Math.abs(x - semi[0] / semi[1]) < Math.abs(x - conv[0] / conv[1]) ? semi : conv;
    }
    [h0, h1] = [h1, h2];
    [k0, k1] = [k1, k2];
    const frac = rest - a;
    if (frac < 1e-12) break;
    rest = 1 / frac;
  }
  return [h1, k1];
}

/**
 * Decimal to reduced fractional odds (profit/stake): 1.909 -> "10/11", 2.5 -> "3/2", 2.0 -> "1/1".
 * Uses the best rational approximation of (d-1) with denominator <= FRACTIONAL_MAX_DENOMINATOR.
 * Heavy favourites whose profit rounds to 0 under that bound are shown as "1/n", n = round(1/(d-1)).
 * @throws InvalidOddsError for decimal <= 1 or non-finite input.
 */
export function decimalToFractional(decimal: number): string {
  assertDecimalOdds(decimal);
  const profit = decimal - 1;
  let [num, den] = bestRational(profit, FRACTIONAL_MAX_DENOMINATOR);
  if (num === 0) {
    [num, den] = [1, Math.round(1 / profit)];
  }
  const g = gcd(num, den);
  return `${num / g}/${den / g}`;
}

/**
 * Fractional odds (profit/stake, "10/11", "3/2", "evens") to decimal: 1 + n/d.
 * @throws InvalidOddsError unless the text is two positive integers "n/d" (or "evens").
 */
export function fractionalToDecimal(fractional: string): number {
  const text = fractional.trim().toLowerCase();
  if (text === 'evens' || text === 'even') return 2;
  const match = /^(\d{1,6})\s*\/\s*(\d{1,6})$/.exec(text);
  const [num, den] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (!(num > 0 && den > 0)) throw new InvalidOddsError(`Invalid fractional odds ${JSON.stringify(fractional)}: must be two positive whole numbers n/d, such as 10/11 or 3/2`);
  return 1 + num / den;
}

/**
 * Implied probability of decimal odds, 1/d (includes the book's margin).
 * @throws InvalidOddsError for decimal <= 1 or non-finite input.
 */
export function impliedProbability(decimal: number): number {
  assertDecimalOdds(decimal);
  return 1 / decimal;
}

/**
 * Fair decimal odds for a probability, 1/p.
 * @throws InvalidOddsError unless 0 < p < 1.
 */
export function probabilityToDecimal(p: number): number {
  assertProbability(p);
  return 1 / p;
}

/**
 * Implied probability of American odds: -110 -> 110/210, +150 -> 100/250.
 * @throws InvalidOddsError for values that are not valid American odds.
 */
export function americanToImpliedProbability(american: number): number {
  assertAmericanOdds(american);
  // Direct formula rather than 1/americanToDecimal: one rounding step fewer.
  return american > 0 ? 100 / (american + 100) : -american / (-american + 100);
}
