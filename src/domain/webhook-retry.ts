// When a webhook delivery that failed is tried again: exponential backoff with full jitter (the
// delay is drawn uniformly between 0 and the capped exponential), so receivers that come back after
// an outage are not hit by every sender at the same instant, until a window after the event was
// stored; past it the delivery is given up.

export interface RetryPolicy {
  /** The exponential's first step: attempt 1 waits up to baseMs. */
  baseMs: number;
  /** The largest exponential step. */
  capMs: number;
  /** How long after the event was stored it is still tried (24 h by default). */
  windowMs: number;
}

/**
 * The delay before the attempt after `attempts` failed ones (attempts >= 1): a uniform draw in
 * [0, min(capMs, baseMs * 2^(attempts - 1))]. `random` is in [0, 1).
 */
export function retryDelayMs(attempts: number, policy: RetryPolicy, random: number): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.floor(random * ceiling);
}

/**
 * When a failed delivery is tried next, or null when that would be past its window (then it is
 * failed for good). `createdAt` is when the event was stored.
 */
export function nextAttemptAt(createdAt: Date, attempts: number, now: Date, policy: RetryPolicy, random: number): Date | null {
  const next = now.getTime() + retryDelayMs(attempts, policy, random);
  return next > createdAt.getTime() + policy.windowMs ? null : new Date(next);
}
