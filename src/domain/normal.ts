/**
 * Standard normal distribution, written out because JavaScript has no erf. Accuracy matters only in
 * absolute terms here (we add and subtract probabilities), so a series that is exact to ~1e-15
 * absolute is preferred over the usual 1e-7 rational approximations.
 */

/** Beyond this |x|, erf(x) is within 2.2e-17 of ±1, i.e. indistinguishable in double precision. */
const ERF_SATURATION = 6;

/**
 * Error function erf(x), absolute error below ~1e-15.
 * Uses erf(x) = 2/sqrt(pi) * exp(-x^2) * sum_n 2^n x^(2n+1) / (1*3*...*(2n+1)), whose terms are all
 * positive, so unlike the alternating Taylor series it loses no precision to cancellation.
 */
export function erf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const sign = x < 0 ? -1 : 1;
  const ax = Math.abs(x);
  if (ax >= ERF_SATURATION) return sign;
  const x2 = ax * ax;
  let term = ax;
  let total = ax;
  // Terms peak near n = x^2 (<= 36) and then shrink geometrically; 500 is a generous bound.
  for (let n = 1; n < 500 && term > total * 1e-17; n++) {
    term *= (2 * x2) / (2 * n + 1);
    total += term;
  }
  return (sign * 2 * Math.exp(-x2) * total) / Math.sqrt(Math.PI);
}

/** Standard normal cumulative distribution function Phi(z) = P(Z <= z); Phi(±Infinity) = 1 or 0. */
export function normalCdf(z: number): number {
  return 0.5 * (1 + erf(z / Math.SQRT2));
}
