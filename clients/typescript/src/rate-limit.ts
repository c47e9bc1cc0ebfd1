/**
 * The key's request budget as the service reported it on one answer (docs/api.md, "Rate limits"):
 * the `X-RateLimit-*` headers every authenticated answer carries, and `Retry-After` on a 429 or 503.
 * A field is null when the answer did not carry its header (a 401 is sent before the key is known).
 */
export interface RateLimit {
  /** `X-RateLimit-Limit`: requests per minute of the key's plan. */
  limit: number | null;
  /** `X-RateLimit-Remaining`: requests left in the current one-minute window. */
  remaining: number | null;
  /** `X-RateLimit-Reset`: seconds until the window ends and the budget is whole again. */
  resetSeconds: number | null;
  /** `Retry-After`: seconds to wait before asking again (429, 503). */
  retryAfterSeconds: number | null;
}

const numberHeader = (headers: Headers, name: string): number | null => {
  const value = headers.get(name);
  if (value === null || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};

/** The rate-limit headers of an answer. */
export function rateLimitOf(headers: Headers): RateLimit {
  return {
    limit: numberHeader(headers, 'x-ratelimit-limit'),
    remaining: numberHeader(headers, 'x-ratelimit-remaining'),
    resetSeconds: numberHeader(headers, 'x-ratelimit-reset'),
    retryAfterSeconds: numberHeader(headers, 'retry-after'),
  };
}
