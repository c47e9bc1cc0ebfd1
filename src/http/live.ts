import type http from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { CorsOptions } from 'cors';
import type { GraphQLSchema } from 'graphql';
import type { Authenticator } from '../auth/authenticate';
import { createConnectionLimiter } from '../auth/connection-limit';
import type { Config } from '../config';
import type { LiveFeed } from '../events/live-feed';
import { createLiveCore, type LiveCoreDeps, type LiveDeps } from '../live/core';
import { isSocketIoPath, refuseUpgrade } from '../live/server';
import { attachGraphQLWs } from '../live/use/graphql-ws';
import { attachSocketIo } from '../live/use/socket-io';
import { createSseHandler } from '../live/use/sse';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';

export interface LiveAttachDeps {
  httpServer: http.Server;
  schema: GraphQLSchema;
  db: LiveDeps['db'];
  /** The one feed of this process (fed by the bus: in-process or Redis). */
  feed: LiveFeed;
  authenticator: Authenticator;
  /** The plan's request budget for every operation (src/auth/admission.ts). */
  charge: NonNullable<LiveCoreDeps['charge']>;
  config: Pick<Config, 'liveConnections' | 'sseMaxBufferedBytes' | 'sseHeartbeatMs' | 'leagueTimeZone'>;
  corsOptions: CorsOptions | undefined;
  /** Path prefix of the REST routes (the odds stream is one of them). */
  prefix: string;
  now: () => Date;
  metrics: Metrics;
  logger: Logger;
}

/**
 * Live transports on the same server: graphql-ws takes the upgrades of /graphql, Socket.IO serves
 * /live-odds. Both run Subscription.liveOdds off one feed per process (fed by the bus: in-process
 * or Redis). Connected keys are re-checked when the bus says a key changed (and every 500 ms in memory,
 * for expiry dates), so a revocation disconnects within a second.
 */
export function attachLive(deps: LiveAttachDeps) {
  const { httpServer, metrics, logger, config } = deps;
  const connections = createConnectionLimiter(config.liveConnections, (open) => metrics.liveConnections.set(open));
  // One core for the three transports: key checks and revocation, connection slots, the plan's request
  // budget for every operation (the HTTP one, so a key's budget is the same whichever way it is
  // spent), frame and unsent-bytes caps, errors masked as on HTTP (src/live/core.ts).
  const core = createLiveCore({
    keyLookup: deps.authenticator.lookup,
    keyWatch: deps.authenticator.keyWatch,
    connections,
    now: deps.now,
    maxBufferedBytes: config.sseMaxBufferedBytes,
    onSlowConsumer: () => metrics.slowClientsCut.inc(),
    onError: (err, reqId) => logger.error({ err, reqId }, 'live operation failed'),
    charge: deps.charge,
  });
  const live = { httpServer, schema: deps.schema, db: deps.db, feed: deps.feed, core, timeZone: config.leagueTimeZone, now: deps.now };
  const pushed = (transport: string) => (seenAt: Date) => metrics.pushLatency.observe({ transport }, Math.max(0, (Date.now() - seenAt.getTime()) / 1000));
  const graphqlWs = attachGraphQLWs({ ...live, onPush: pushed('graphql-ws') });
  const socketIo = attachSocketIo({ ...live, ...(deps.corsOptions && { cors: deps.corsOptions }), onPush: pushed('socket.io'), onError: (err) => logger.error({ err }, 'live push failed') });
  // The resumable odds stream (SSE): the same core; each connection attempt counts as a request.
  const sse = createSseHandler({ ...live, prefix: deps.prefix, heartbeatMs: config.sseHeartbeatMs, onPush: pushed('sse'), onError: (err) => logger.error({ err }, 'odds stream failed') });
  // Upgrades on a path no transport serves are refused at once (they would otherwise sit outside
  // every HTTP timeout, and hold a shutdown). Listeners run in order: graphql-ws and Socket.IO first.
  httpServer.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    if (graphqlWs.handles(req) || isSocketIoPath(req)) return;
    refuseUpgrade(socket);
  });
  return {
    /** The odds stream's handler on node:http (answers a request it serves, false otherwise). */
    sse,
    /** Tells every client (graphql-ws 1012, Socket.IO disconnect, SSE `shutdown` event), then stops the core. */
    async close() {
      sse.close();
      await socketIo.close();
      await graphqlWs.close();
      core.close();
    },
  };
}
