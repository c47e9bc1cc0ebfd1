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
  ADMIN_KEY_NOT_FOR_DATA: { status: 403, graphql: 'FORBIDDEN', message: 'Forbidden: the admin key only administers accounts and keys; create an API key (e.g. elite) to read data' },
  NOT_FOUND: { status: 404, graphql: 'NOT_FOUND', message: 'not found' },
  GAME_NOT_FOUND: { status: 404, graphql: 'NOT_FOUND', message: 'game not found' },
  WEBHOOK_NOT_FOUND: { status: 404, graphql: 'NOT_FOUND', message: 'webhook not found' },
  ROUTE_NOT_FOUND: { status: 404, graphql: 'NOT_FOUND', message: 'route not found' },
  MALFORMED_REQUEST: { status: 400, graphql: 'BAD_REQUEST', message: 'invalid request' },
  PAYLOAD_TOO_LARGE: { status: 413, graphql: 'PAYLOAD_TOO_LARGE', message: 'request body too large: the limit is 100 kB' },
  METHOD_NOT_ALLOWED: { status: 405, graphql: 'BAD_REQUEST', message: 'method not allowed' },
  REQUEST_TIMEOUT: { status: 408, graphql: 'BAD_REQUEST', message: 'request timeout: the request did not arrive in time' },
  HEADERS_TOO_LARGE: { status: 431, graphql: 'BAD_REQUEST', message: 'request header fields too large: the URL and headers must stay under 16 kB' },
  QUERY_TOO_COMPLEX: { status: 400, graphql: 'QUERY_TOO_COMPLEX', message: 'query exceeds the depth or cost limit' },
  RATE_LIMITED: { status: 429, graphql: 'RATE_LIMITED', message: 'Too many requests: rate limit exceeded' },
  UNAVAILABLE: { status: 503, graphql: 'UNAVAILABLE', message: 'service unavailable: the database is not reachable, retry shortly' },
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

/** Node socket errors, PostgreSQL SQLSTATEs and Prisma codes that mean "the database is not reachable now". */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03', 'P1001', 'P1002', 'P1017', 'P2024']);
const UNREACHABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const UNREACHABLE_MESSAGE = /Connection terminated|ECONNREFUSED|ECONNRESET|terminating connection due to administrator command|the database system is (starting up|shutting down)|Can't reach database server|Server has closed the connection/i;

/**
 * True when `error`, or any error it wraps (`cause`, driver-adapter `cause.kind`), says the database
 * cannot be reached right now: a restart or an outage, not a bug. Transports answer 503 for it.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 6) return false;
  const e = error as { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; originalError?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (UNREACHABLE_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  if (typeof e.kind === 'string' && UNREACHABLE_KINDS.has(e.kind)) return true;
  if (typeof e.message === 'string' && UNREACHABLE_MESSAGE.test(e.message)) return true;
  const nested = [e.cause, e.originalError, ...(Array.isArray(e.errors) ? e.errors : [])];
  return nested.some((inner) => isDatabaseUnavailable(inner, depth + 1));
}
