import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { AppError, ERRORS } from '../errors';

/** The request id of the request being served (Apollo's formatError has no request of its own). */
export const requestIds = new AsyncLocalStorage<string>();

/** A client's X-Request-Id when it is a sane token, else a fresh UUID. */
export function requestIdOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && /^[\w.:-]{1,128}$/.test(value) ? value : randomUUID();
}

/** The masked 500: what failed stays in the logs under the request id the client is given. */
export function internalError(requestId: string): AppError {
  return new AppError('INTERNAL', `${ERRORS.INTERNAL.message} (request id ${requestId})`);
}
