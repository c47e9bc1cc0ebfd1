/** Presentation rounding, kept apart from the math so that no calculation consumes rounded values. */

/** Decimal places of probabilities and stake fractions as the API shows them. */
export const PROBABILITY_DIGITS = 4;
/**
 * Decimal places of decimal odds as the API shows them: enough for every American price (-9900 is
 * 1.0101), none of the float noise of the conversion (1 + 168/100 = 2.6799999999999997 shows 2.68).
 */
export const ODDS_DECIMAL_DIGITS = 4;
/** Decimal places of percentages (edge_percentage, ev_per_100, profit_percentage) as the API shows them. */
export const PERCENT_DIGITS = 2;

/**
 * Round half away from zero to `digits` decimal places (0 <= digits <= 15): roundTo(1.005, 2) = 1.01,
 * roundTo(-2.5, 0) = -3. Non-finite values are returned unchanged.
 * @throws RangeError for a digits value that is not an integer in [0, 15].
 */
export function roundTo(x: number, digits: number): number {
  if (!Number.isInteger(digits) || digits < 0 || digits > 15) {
    throw new RangeError(`digits must be an integer between 0 and 15, got ${String(digits)}`);
  }
  if (!Number.isFinite(x)) return x;
  // Shifting the exponent of the shortest decimal string avoids binary errors of x * 10^digits
  // (1.005 * 100 = 100.49999...); the string may itself be in exponent form (1e-7), hence the split.
  const shifted = Math.round(shiftExponent(Math.abs(x), digits));
  return Math.sign(x) * shiftExponent(shifted, -digits);
}

function shiftExponent(value: number, by: number): number {
  const [mantissa, exponent = '0'] = String(value).split('e');
  return Number(`${mantissa}e${Number(exponent) + by}`);
}
