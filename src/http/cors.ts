import type { CorsOptions } from 'cors';

/**
 * CORS, when CORS_ORIGINS lists origins: pages of those origins may call REST and /graphql from a
 * browser (preflights answered here, 204); others get no Access-Control-Allow-Origin, so their
 * browser refuses the answer. Socket.IO's long-polling gets the same list (its own option).
 */
export function corsOptionsOf(origins: readonly string[]): CorsOptions | undefined {
  return origins.length
    ? {
        origin: [...origins],
        allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'If-None-Match'],
        exposedHeaders: ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'ETag'],
        maxAge: 600,
      }
    : undefined;
}
