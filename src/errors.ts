/**
 * The one error catalogue: each code has its HTTP status (REST), its GraphQL `extensions.code`, and a
 * default message. Every transport turns an AppError into its own shape from this table.
 */
export const ERRORS = {
  BAD_REQUEST: { status: 400, graphql: 'BAD_USER_INPUT', message: 'invalid request' },
  UNAUTHENTICATED: { status: 401, graphql: 'UNAUTHENTICATED', message: 'Unauthorized: missing or invalid API key' },
  SUBSCRIPTION_EXPIRED: { status: 403, graphql: 'SUBSCRIPTION_EXPIRED', message: 'Forbidden: subscription expired or inactive, renew to keep using the API' },
  PLAN_REQUIRED: { status: 403, graphql: 'FORBIDDEN', message: 'Forbidden: your plan does not include this endpoint' },
  ADMIN_REQUIRED: { status: 403, graphql: 'FORBIDDEN', message: 'Forbidden: admin key required' },
  NOT_FOUND: { status: 404, graphql: 'NOT_FOUND', message: 'not found' },
  GAME_NOT_FOUND: { status: 404, graphql: 'NOT_FOUND', message: 'game not found' },
  ROUTE_NOT_FOUND: { status: 404, graphql: 'NOT_FOUND', message: 'route not found' },
  METHOD_NOT_ALLOWED: { status: 405, graphql: 'BAD_REQUEST', message: 'method not allowed' },
  REQUEST_TIMEOUT: { status: 408, graphql: 'BAD_REQUEST', message: 'request timeout: the request did not arrive in time' },
  HEADERS_TOO_LARGE: { status: 431, graphql: 'BAD_REQUEST', message: 'request header fields too large: the URL and headers must stay under 16 kB' },
  QUERY_TOO_COMPLEX: { status: 400, graphql: 'QUERY_TOO_COMPLEX', message: 'query exceeds the depth or cost limit' },
  RATE_LIMITED: { status: 429, graphql: 'RATE_LIMITED', message: 'Too many requests: rate limit exceeded' },
  UNAVAILABLE: { status: 503, graphql: 'UNAVAILABLE', message: 'service unavailable' },
  INTERNAL: { status: 500, graphql: 'INTERNAL_SERVER_ERROR', message: 'internal error' },
} as const;

export type ErrorCode = keyof typeof ERRORS;

/** An error meant for the client: its message is safe to show, its code picks status and extension. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string = ERRORS[code].message,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return ERRORS[this.code].status;
  }
}

/** The error code that a GraphQL `extensions.code` stands for (first match in the catalogue). */
export function codeFromGraphQL(extensionCode: unknown, message?: string): ErrorCode {
  if (extensionCode === 'NOT_FOUND' && message && /game/i.test(message)) return 'GAME_NOT_FOUND';
  if (extensionCode === 'FORBIDDEN' && message && /subscription/i.test(message)) return 'SUBSCRIPTION_EXPIRED';
  const entry = Object.entries(ERRORS).find(([, e]) => e.graphql === extensionCode);
  if (entry) return entry[0] as ErrorCode;
  if (extensionCode === 'GRAPHQL_VALIDATION_FAILED' || extensionCode === 'GRAPHQL_PARSE_FAILED') return 'BAD_REQUEST';
  return 'INTERNAL';
}
