import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import cors, { type CorsOptions } from 'cors';
import type { Request, Response } from 'express';
import { pinoHttp } from 'pino-http';
import { SHUTDOWN_GRACE_MS, trackConnections } from '../live/server';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';
import { redactUrl } from '../redact';
import { refusalOf, sendRefusal } from '../rest/request-limits';
import { answerClientError } from '../rest/transport-errors';
import { requestIdOf, requestIds } from './request-id';

/** The route pattern a request matched (REST table or Express), for metric labels. */
function routeOf(req: IncomingMessage): string {
  const r = req as IncomingMessage & { routePattern?: string; route?: { path?: string }; baseUrl?: string };
  if (r.routePattern) return r.routePattern;
  if (r.route?.path) return `${r.baseUrl ?? ''}${r.route.path}`;
  return r.baseUrl || 'unmatched';
}

export interface HttpServerDeps {
  metrics: Metrics;
  logger: Logger;
  corsOptions: CorsOptions | undefined;
  /** Serves a request that passed the checks every request gets (in its request id's scope). */
  handle(req: IncomingMessage, res: ServerResponse): void;
}

/** The one HTTP server: request ids, request metrics and logs, early refusals, CORS; then `handle`. */
export function createHttpServer(deps: HttpServerDeps) {
  const { metrics } = deps;
  // A silent logger gets no request logger at all: pino-http's per-request child and listeners cost
  // measurably on the hot path even when nothing is written.
  const httpLogger =
    deps.logger.level === 'silent'
      ? undefined
      : pinoHttp({
          logger: deps.logger,
          genReqId: (req) => (req as IncomingMessage & { id: string }).id,
          // A 503 from /readyz is a state the load balancer reads (draining at a deploy, or a store
          // down, which is logged where it happens), not a failed request: warn, not error.
          customLogLevel: (req, res, err) =>
            res.statusCode === 503 && req.url?.split('?')[0] === '/readyz' ? 'warn' : err || res.statusCode >= 500 ? 'error' : 'info',
          // Headers are redacted by the logger; a key a client put in the query string is masked here
          // (the parsed query would repeat it, and the URL already shows it).
          serializers: { req: (req: { url: string; query?: unknown }) => Object.assign(req, { url: redactUrl(req.url), query: undefined }) },
        });
  const corsHeaders = deps.corsOptions && cors(deps.corsOptions);

  // REST GETs are answered before Express (the hot path); everything else goes to the Express app.
  // Every request gets an id (the client's X-Request-Id when sane), echoed, logged, and known to every
  // step after (Apollo's formatError included); and counts in the request metrics by route pattern.
  const httpServer = http.createServer({ requireHostHeader: false }, (req, res) => {
    const id = requestIdOf(req.headers['x-request-id']);
    (req as IncomingMessage & { id: string }).id = id;
    res.setHeader('X-Request-Id', id);
    const end = metrics.httpDuration.startTimer();
    res.once('finish', () => {
      const route = routeOf(req);
      end({ method: req.method ?? 'GET', route });
      metrics.httpRequests.inc({ method: req.method ?? 'GET', route, status: String(res.statusCode) });
    });
    httpLogger?.(req, res);
    const refused = refusalOf(req);
    if (refused) return sendRefusal(req, res, refused);
    const handle = () => requestIds.run(id, () => deps.handle(req, res));
    if (corsHeaders) corsHeaders(req as Request, res as Response, handle);
    else handle();
  });
  // Requests Node's parser refuses (URL over 16 kB: 431, malformed: 400) get the error envelope too.
  httpServer.on('clientError', answerClientError);
  const connectionsOpen = trackConnections(httpServer);
  return {
    httpServer,
    /** Ends the server's connections (the last step of a shutdown). */
    async close() {
      // Idle keep-alive sockets go now; requests in flight get SHUTDOWN_GRACE_MS; then whatever is
      // left (a half-open socket, one in CLOSE-WAIT) is destroyed, so a shutdown always ends.
      httpServer.closeIdleConnections();
      await connectionsOpen.drain(SHUTDOWN_GRACE_MS);
    },
  };
}
