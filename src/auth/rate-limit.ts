import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { RATE_LIMITS, type Plan, type Viewer } from './viewer';

/** Rate-limit window, seconds: the limits are requests per minute. */
export const RATE_WINDOW_SECONDS = 60;

export interface RateLimitDecision {
  allowed: boolean;
  /** X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset (seconds to the window's end), and Retry-After when refused. */
  headers: Record<string, string>;
}

/**
 * Per-key request limits by plan (RATE_LIMITS requests per minute, fixed window per key). Counters
 * live in this process: several API processes each allow the full rate (see README, Rate limits).
 */
export function createRateLimiter(limits: Readonly<Record<Plan, number>> = RATE_LIMITS) {
  const limiters = new Map<Plan, RateLimiterMemory>(
    (Object.keys(limits) as Plan[]).map((plan) => [plan, new RateLimiterMemory({ points: limits[plan], duration: RATE_WINDOW_SECONDS, keyPrefix: plan })]),
  );
  return {
    /** Counts one request of `viewer`'s key; never throws for an exhausted budget. */
    async consume(viewer: Viewer): Promise<RateLimitDecision> {
      const limit = limits[viewer.plan];
      let res: RateLimiterRes;
      let allowed = true;
      try {
        res = await limiters.get(viewer.plan)!.consume(viewer.keyId);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        res = rejection;
        allowed = false;
      }
      const reset = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
      const headers: Record<string, string> = {
        'X-RateLimit-Limit': String(limit),
        'X-RateLimit-Remaining': String(Math.max(0, res.remainingPoints)),
        'X-RateLimit-Reset': String(reset),
      };
      if (!allowed) headers['Retry-After'] = String(reset);
      return { allowed, headers };
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
