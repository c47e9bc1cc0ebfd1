/**
 * Bounded root finding shared by the iterative de-vig methods. Bisection is used rather than Newton
 * because every function we solve is monotone on a known side of its root, so bisection cannot
 * diverge and its step count is bounded by the width of the bracket.
 */

/** Absolute tolerance on the root; well inside the 1e-9 the callers promise on probability sums. */
export const ROOT_TOLERANCE = 1e-13;

/** Hard cap on bisection halvings: 2^-200 of any bracket we build is far below double precision. */
export const MAX_BISECTION_STEPS = 200;

/**
 * Root of a decreasing function `f` on [lo, +inf), given f(lo) >= 0: the upper end of the bracket is
 * found by doubling, then bisected to ROOT_TOLERANCE. Returns `lo` if f(lo) <= 0 already.
 * Never throws; if no sign change exists within 2^64 * lo, returns the largest point tried.
 */
export function rootOfDecreasing(f: (x: number) => number, lo: number): number {
  if (f(lo) <= 0) return lo;
  let low = lo;
  let high = Math.max(2 * lo, lo + 1);
  for (let i = 0; i < 64 && f(high) > 0; i++) {
    low = high;
    high *= 2;
  }
  for (let i = 0; i < MAX_BISECTION_STEPS && high - low > ROOT_TOLERANCE; i++) {
    const mid = (low + high) / 2;
    if (mid === low || mid === high) break; // no representable point left between them
    if (f(mid) > 0) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}
