import type { Duplex } from 'node:stream';
import { AppError, type ErrorCode } from '../errors';
import { errorBody } from './envelope';

// Requests Node's HTTP parser refuses never reach Express (a URL and headers over 16 kB, malformed
// HTTP, a request that did not arrive in time). Node would answer them with an empty body; this
// answers them in the spec's error envelope instead, as every other error is.

const CODES: Readonly<Record<string, ErrorCode>> = {
  HPE_HEADER_OVERFLOW: 'HEADERS_TOO_LARGE',
  ERR_HTTP_REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
};

const REASONS: Readonly<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** The raw HTTP/1.1 response (closing the connection) for a request the parser refused. */
export function clientErrorResponse(code: string | undefined): string {
  const error = code && code in CODES ? new AppError(CODES[code]!) : new AppError('BAD_REQUEST', 'invalid request: malformed HTTP');
  const body = JSON.stringify(errorBody(error));
  return (
    `HTTP/1.1 ${error.status} ${REASONS[error.status] ?? 'Bad Request'}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/**
 * The http.Server 'clientError' listener: answers in the envelope when the socket can still take a
 * response (as Node's default does with an empty body), then closes it.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
    socket.end(clientErrorResponse(error.code));
  } else {
    socket.destroy();
  }
}
