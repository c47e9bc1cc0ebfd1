import type { NextFunction, Request, Response } from 'express';
import { AppError, ERRORS, isDatabaseUnavailable } from '../errors';
import type { Logger } from '../logger';
import { errorBody } from '../rest/envelope';
import { internalError } from './request-id';

// How each surface answers a refusal: REST in the spec's envelope, /graphql in GraphQL's errors[].
export const sendRest = (res: Response, error: AppError) => res.status(error.status).json(errorBody(error));
export const sendGraphQL = (res: Response, error: AppError) =>
  res.status(error.status).json({ errors: [{ message: error.message, extensions: { code: ERRORS[error.code].graphql } }] });

/** Transport errors (body parser: 400, 413) as themselves, anything else as a masked 500 whose request id is in the logs. */
export const handleErrors = (logger: Logger, send: typeof sendRest) => (error: unknown, req: Request, res: Response, _next: NextFunction) => {
  const status = (error as { status?: number }).status;
  if (status === 413) return send(res, new AppError('PAYLOAD_TOO_LARGE'));
  if (status && status >= 400 && status < 500) return send(res, new AppError('MALFORMED_REQUEST', `${ERRORS.MALFORMED_REQUEST.message}: ${(error as Error).message}`));
  if (isDatabaseUnavailable(error)) return send(res.set('Retry-After', '1'), new AppError('UNAVAILABLE'));
  (req.log ?? logger).error({ err: error, reqId: req.id }, 'request failed');
  return send(res, internalError(String(req.id)));
};
