import { rateLimitOf, type RateLimit } from './rate-limit';

/**
 * What kind of refusal an error is, from its HTTP status (the service's error body, spec 7, is
 * `{ success: false, error }` for every failure: the status says which kind, the text says why).
 */
export type OddsErrorCode =
  | 'bad_request' // 400: a parameter or body is invalid, missing or refused
  | 'unauthorized' // 401: no key, or an unknown or revoked one
  | 'forbidden' // 403: subscription expired or inactive, or the key's plan does not include the route
  | 'not_found' // 404: no game (or webhook of this key) with this id
  | 'payload_too_large' // 413: a JSON body over 100 kB
  | 'rate_limited' // 429: the key's budget of the minute is spent (retryAfterSeconds says when to ask again)
  | 'internal' // 500: an unexpected failure; the message carries the request id of the service's logs
  | 'unavailable' // 503: the database is not reachable; retry after retryAfterSeconds
  | 'http_error'; // any other status, or an answer that is not the service's JSON error body

const CODES: Record<number, OddsErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
  429: 'rate_limited',
  500: 'internal',
  503: 'unavailable',
};

/** The error body of the service (spec 7; the OpenAPI document's `Error` schema). */
export interface ErrorBody {
  success: false;
  error: string;
}

const isErrorBody = (body: unknown): body is ErrorBody =>
  typeof body === 'object' && body !== null && (body as ErrorBody).success === false && typeof (body as ErrorBody).error === 'string';

/**
 * A call the service refused (any status other than 2xx). `message` is the service's own words
 * (`error` of the body), `code` the kind of refusal (from the status), `details` what the body and
 * headers say besides: the parameter a 400 names, the request id, the raw body.
 */
export class OddsApiError extends Error {
  override readonly name = 'OddsApiError';
  readonly status: number;
  readonly code: OddsErrorCode;
  readonly details: {
    /** The parameter a 400 names ("invalid parameter <name>: ..."), when it names one. */
    parameter: string | null;
    /** `X-Request-Id` of the answer: the key to the service's logs of this request. */
    requestId: string | null;
    /** The body as the service sent it (the error envelope, or the text of a non-JSON answer). */
    body: unknown;
  };
  /** The key's budget as this answer reported it (retryAfterSeconds on 429 and 503). */
  readonly rateLimit: RateLimit;

  constructor(status: number, body: unknown, headers: Headers) {
    const message = isErrorBody(body) ? body.error : `HTTP ${status}${typeof body === 'string' && body ? `: ${body.slice(0, 200)}` : ''}`;
    super(message);
    this.status = status;
    this.code = (isErrorBody(body) && CODES[status]) || 'http_error';
    this.details = {
      parameter: isErrorBody(body) ? (/^invalid parameter ([A-Za-z0-9_.[\]]+)/.exec(body.error)?.[1] ?? null) : null,
      requestId: headers.get('x-request-id'),
      body,
    };
    this.rateLimit = rateLimitOf(headers);
  }
}
