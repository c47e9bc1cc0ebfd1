import type Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Plan } from './viewer';

/** Rate-limit window, seconds: the limits are requests per minute. */
export const RATE_WINDOW_SECONDS = 60;

/**
 * Who is counted: an API key by its plan, the admin key, or a request without a usable key by its
 * client address (`anonymous`, counted per `clientAddress`).
 */
export type RateBucket = Plan | 'admin' | 'anonymous';

/** Requests per minute by bucket, unless configured (RATE_LIMIT_STARTER, ... in the environment). */
export const DEFAULT_RATE_LIMITS: Readonly<Record<RateBucket, number>> = { starter: 60, pro: 300, elite: 6000, admin: 120, anonymous: 300 };

export interface RateLimitDecision {
  allowed: boolean;
  /** X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset (seconds to the window's end), and Retry-After when refused. */
  headers: Record<string, string>;
}

export interface RateLimiterOptions {
  limits: Readonly<Record<RateBucket, number>>;
  /**
   * Shared counters: with a Redis client every API process draws on one budget per key. When Redis
   * does not answer, an in-memory limiter of the same size takes over (each process then counts
   * alone), so an outage degrades the limit and never fails a request.
   */
  redis?: Redis;
}

/** Per-key (and, without a key, per-address) request limits: a fixed one-minute window per counted id. */
export function createRateLimiter(options: RateLimiterOptions) {
  const make = (bucket: RateBucket): RateLimiterAbstract => {
    const base = { points: options.limits[bucket], duration: RATE_WINDOW_SECONDS, keyPrefix: `odds:rate:${bucket}` };
    if (!options.redis) return new RateLimiterMemory(base);
    return new RateLimiterRedis({ ...base, storeClient: options.redis, insuranceLimiter: new RateLimiterMemory(base) });
  };
  const limiters = new Map((Object.keys(options.limits) as RateBucket[]).map((bucket) => [bucket, make(bucket)]));
  return {
    /** Counts one request of `id` (a key id, or a `clientAddress` for `anonymous`) in `bucket`; never throws for an exhausted budget. */
    async consume(bucket: RateBucket, id: string): Promise<RateLimitDecision> {
      const limit = options.limits[bucket];
      let res: RateLimiterRes;
      let allowed = true;
      try {
        res = await limiters.get(bucket)!.consume(id);
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
