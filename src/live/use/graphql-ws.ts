import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { GraphQLError, parse, specifiedRules, validate } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { LiveAuthError } from '../../auth/live-key';
import { bearerToken, type Viewer } from '../../auth/viewer';
import { ERRORS } from '../../errors';
import { costRefusal, PARSE_OPTIONS, shapeLimitRules } from '../../graphql';
import { CLOSE_SLOW_CONSUMER, closeCodeOf, liveContext, MAX_FRAME_BYTES, MAX_OPERATIONS_PER_CONNECTION, type LiveDeps } from '../core';

// GraphQL over WebSocket (graphql-ws protocol) on the HTTP server's /graphql path: the one schema,
// subscriptions included. Apollo serves the same path over HTTP; only upgrades come here.

export interface GraphQLWsDeps extends LiveDeps {
  httpServer: http.Server;
  path?: string;
}

/** Where a graphql-ws client puts its key (the shared wording names Socket.IO's handshake `auth`). */
const MISSING_KEY = "Unauthorized: missing API key (send it in connection_init as { apiKey } or { Authorization: 'Bearer <key>' })";

/** The close reason of a refused key, in graphql-ws terms. */
const closeReasonOf = (error: LiveAuthError) => (error.reason === 'missing' ? MISSING_KEY : error.message);

interface Extra extends Record<PropertyKey, unknown> {
  socket: WebSocket;
  request: http.IncomingMessage;
  viewer?: Viewer;
  release?: () => void;
  untrack?: () => void;
}

/** The key of a connection: `apiKey` or `Authorization: Bearer` in connection_init, else the upgrade header. */
function keyOf(params: Record<string, unknown> | undefined, request: http.IncomingMessage): unknown {
  if (params && 'apiKey' in params) return params.apiKey;
  const header = params?.Authorization ?? params?.authorization ?? request.headers.authorization;
  return bearerToken(typeof header === 'string' || Array.isArray(header) ? (header as string | string[]) : undefined) ?? (params ? params.apiKey : undefined);
}

/**
 * Serves graphql-ws on `path` (default /graphql) of `httpServer`. connection_init must carry the API
 * key (`{apiKey}` or `{Authorization: 'Bearer ...'}`); a refused key closes the socket with 4401
 * (missing, invalid, revoked) or 4403 (subscription expired, plan) and a reason saying which. A key
 * that stops passing while connected closes the socket the same way within the key watch period.
 * Each operation is charged to the key's plan budget (the one of HTTP), at most
 * MAX_OPERATIONS_PER_CONNECTION run at once, frames over MAX_FRAME_BYTES close the socket (1009), a
 * socket that lets SSE_MAX_BUFFERED_BYTES pile up unread is closed with 4408, and errors are masked
 * as on HTTP.
 */
/** The close code of a shutdown (RFC 6455 registry: "service restart"): reconnect, to another process. */
export const CLOSE_SERVICE_RESTART = 1012;

export function attachGraphQLWs(deps: GraphQLWsDeps): { close(): Promise<void>; handles(request: http.IncomingMessage): boolean } {
  const path = deps.path ?? '/graphql';
  const { core } = deps;
  // maxPayload: a longer frame is refused from its header, before a byte of it is buffered.
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const handles = (request: http.IncomingMessage) => new URL(request.url ?? '/', 'http://localhost').pathname === path;
  const onUpgrade = (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    // Other upgrade paths (Socket.IO's /socket.io/) belong to other listeners.
    if (!handles(request)) return;
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
  deps.httpServer.on('upgrade', onUpgrade);
  const rules = [...specifiedRules, ...shapeLimitRules()];

  const server = useServer<Record<string, unknown>, Extra>(
    {
      schema: deps.schema,
      // Parse (bounded tokens), validate (shape limits), price (plan cost) and charge (plan budget)
      // here rather than in graphql-ws, so a refusal is a GraphQL error of the same shape as over HTTP.
      onSubscribe: async (ctx, _id, payload) => {
        if (Object.keys(ctx.subscriptions).length > MAX_OPERATIONS_PER_CONNECTION) {
          return [new GraphQLError(`Too many operations on one connection: at most ${MAX_OPERATIONS_PER_CONNECTION} run at once; complete one first or open another connection`, { extensions: { code: ERRORS.RATE_LIMITED.graphql } })];
        }
        const refused = await core.charge(ctx.extra.viewer!);
        if (refused) return [new GraphQLError(refused.message, { originalError: refused })];
        let document;
        try {
          document = parse(payload.query, PARSE_OPTIONS);
        } catch (error) {
          if (error instanceof GraphQLError) return [error];
          throw error;
        }
        const errors = validate(deps.schema, document, rules);
        if (errors.length) return errors;
        const refusal = costRefusal(deps.schema, document, { operationName: payload.operationName, variables: payload.variables, plan: ctx.extra.viewer?.plan });
        if (refusal) return [refusal];
        return { schema: deps.schema, document, operationName: payload.operationName, variableValues: payload.variables };
      },
      // Errors as HTTP shows them: codes, no stack, no internals.
      onError: (_ctx, _id, _payload, errors) => core.maskErrors(errors),
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors?.length ? { ...result, errors: core.maskErrors(result.errors) } : undefined),
      onConnect: async (ctx) => {
        const key = keyOf(ctx.connectionParams, ctx.extra.request);
        const socket = ctx.extra.socket;
        try {
          const viewer = await core.authenticate(key);
          ctx.extra.release = core.hold(viewer, String(key), (error) => socket.close(closeCodeOf(error), closeReasonOf(error)));
          ctx.extra.viewer = viewer;
          ctx.extra.untrack = core.track({
            transport: 'graphql-ws',
            buffered: () => socket.bufferedAmount,
            cut: (reason) => {
              socket.close(CLOSE_SLOW_CONSUMER, reason);
              // Frees the unsent bytes now: a client that does not read will not read the close either.
              socket.terminate();
            },
          });
          return true;
        } catch (error) {
          if (!(error instanceof LiveAuthError)) throw error;
          socket.close(closeCodeOf(error), closeReasonOf(error));
          return false;
        }
      },
      onClose: (ctx) => {
        ctx.extra.untrack?.();
        ctx.extra.release?.();
      },
      context: (ctx) => liveContext(deps, ctx.extra.viewer!, deps.onPush),
    },
    wss,
  );

  // A frame over the limit or a broken one is the client's error: ws already closes the socket with
  // its code (1009, 1002). graphql-ws would also print it to stderr, once per socket, for any client
  // to trigger; this listener, added after graphql-ws's, replaces that.
  wss.on('connection', (socket: WebSocket) => {
    socket.removeAllListeners('error');
    socket.on('error', () => {});
  });

  return {
    handles,
    async close() {
      deps.httpServer.off('upgrade', onUpgrade);
      // Every client is told to come back: 1012 "service restart" (RFC 6455's registry; graphql-ws's
      // client retries it, as it does 1001), so a client behind a load balancer reconnects to another
      // process. graphql-ws's dispose would say 1001 "going away"; it finds the sockets closing.
      for (const client of wss.clients) client.close(CLOSE_SERVICE_RESTART, 'service restart: reconnect');
      await server.dispose();
    },
  };
}
