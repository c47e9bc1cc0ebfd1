import express, { type Express } from 'express';
import { AppError, ERRORS } from '../errors';
import type { Logger } from '../logger';
import { errorBody } from '../rest/envelope';
import { createWebSite, WEB_PAGE_PATHS, type WebSiteOptions } from '../web/site';
import { handleErrors, sendRest } from './errors';

/** The Express app: what the node:http handlers before it (SSE, REST) do not answer. */
export function createExpressApp(): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  return app;
}

/** The web pages, then what no route answered: 405 on the GET-only paths, 404, and the error envelope. */
export function addPagesAndFallbacks(app: Express, deps: { logger: Logger; today: () => string; boardMarkets: WebSiteOptions['boardMarkets'] }): void {
  // The live board at / and the docs at /docs: public pages; the data they show is fetched with the user's key.
  app.use(createWebSite({ today: deps.today, boardMarkets: deps.boardMarkets }));

  // Other methods on the GET-only pages and endpoints: 405 with Allow, not the catch-all 404.
  app.all(['/healthz', '/readyz', '/metrics', '/api/v1/openapi.json', '/api/v1/asyncapi.json', ...WEB_PAGE_PATHS], (req, res, next) => {
    // a GET here is one the page did not answer (an unknown guide): the 404 below
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    sendRest(res.set('Allow', 'GET, HEAD'), new AppError('METHOD_NOT_ALLOWED', `${ERRORS.METHOD_NOT_ALLOWED.message}: ${req.method} ${req.path} takes GET, HEAD`));
  });
  app.use((_req, res) => {
    res.status(404).json(errorBody(new AppError('ROUTE_NOT_FOUND')));
  });
  // Malformed JSON, oversized bodies and anything unexpected: the same envelope, never an HTML page.
  app.use(handleErrors(deps.logger, sendRest));
}
