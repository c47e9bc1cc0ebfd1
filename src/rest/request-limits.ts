import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, ERRORS } from '../errors';
import { errorBody } from './envelope';

// Requests refused before any route sees them, in the surface's own error shape: the spec's envelope,
// or GraphQL's errors[] on /graphql. Node's parser would otherwise answer some with an empty body,
// and its query-string parser would silently drop what it does not read.

/**
 * Most query parameters a request may carry. Node's querystring (REST) and Express's query parser
 * (/graphql) stop at 1,000 and drop the rest without a word, so `x=..&...&limit=0` past the 1,000th
 * would run with `limit` unread: such a request is refused instead.
 */
export const MAX_QUERY_PARAMETERS = 1000;

/** The query parameters of `url` (non-empty `&`-separated pieces after `?`), counted up to `max + 1`. */
function countParameters(url: string, max: number): number {
  const start = url.indexOf('?');
  if (start === -1) return 0;
  let count = 0;
  let from = start + 1;
  while (from <= url.length && count <= max) {
    const end = url.indexOf('&', from);
    const stop = end === -1 ? url.length : end;
    if (stop > from) count++;
    if (end === -1) break;
    from = end + 1;
  }
  return count;
}

/** Why `req` is refused before routing (a 400), or undefined. */
export function refusalOf(req: IncomingMessage): AppError | undefined {
  // The server accepts a Host-less request (requireHostHeader: false) so that it is answered here, in
  // the envelope, rather than by Node with an empty 400; HTTP/1.1 still requires the header (RFC 9112).
  if (req.httpVersion === '1.1' && req.headers.host === undefined) {
    return new AppError('BAD_REQUEST', 'invalid request: an HTTP/1.1 request must carry a Host header');
  }
  if (countParameters(req.url ?? '', MAX_QUERY_PARAMETERS) > MAX_QUERY_PARAMETERS) {
    return new AppError('BAD_REQUEST', `invalid request: more than ${MAX_QUERY_PARAMETERS} query parameters`);
  }
  return undefined;
}

/** A refusal written by hand: GraphQL's shape on /graphql, the spec's envelope elsewhere. */
export function sendRefusal(req: IncomingMessage, res: ServerResponse, error: AppError, headers: Record<string, string> = {}): void {
  const graphql = /^\/graphql(?:[/?]|$)/.test(req.url ?? '');
  const body = JSON.stringify(graphql ? { errors: [{ message: error.message, extensions: { code: ERRORS[error.code].graphql } }] } : errorBody(error));
  res.writeHead(error.status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
}
