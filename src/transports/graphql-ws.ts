import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { GraphQLError, parse, specifiedRules, validate, type GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { bearerToken, type KeyLookup, type Viewer } from '../auth/viewer';
import { createContext } from '../graphql/context';
import { costRefusal, PARSE_OPTIONS, shapeLimitRules } from '../graphql/limits';
import { attachLiveFeed, type LiveFeed } from '../events/live-feed';
import type { ConnectionLimiter } from '../auth/connection-limit';
import { LiveAuthError, verifyLiveKey, type KeyWatch } from '../auth/live-key';

// GraphQL over WebSocket (graphql-ws protocol) on the HTTP server's /graphql path: the one schema,
// subscriptions included. Apollo serves the same path over HTTP; only upgrades come here.

/** What both live transports (graphql-ws here, Socket.IO in socket-io.ts) are built from. */
export interface LiveTransportDeps {
  httpServer: http.Server;
  schema: GraphQLSchema;
  db: Parameters<typeof createContext>[0]['db'];
  feed: LiveFeed;
  keyLookup: KeyLookup;
  keyWatch: KeyWatch;
  /** Caps the live connections of a key by plan (both transports share one). */
  connections: ConnectionLimiter;
  timeZone: string;
  now?: () => Date;
  /** Called as each delta leaves for clients, with the feed time of its data (push latency metric). */
  onPush?: (seenAt: Date) => void;
}

export interface GraphQLWsDeps extends LiveTransportDeps {
  path?: string;
}

/** Close codes: graphql-ws uses 4401/4403 for the same meanings. */
const CLOSE_UNAUTHORIZED = 4401;
const CLOSE_FORBIDDEN = 4403;
/** Too many connections of one key (graphql-ws's own 4429 says "too many requests" too). */
const CLOSE_TOO_MANY = 4429;

const closeCodeOf = (error: LiveAuthError) => (error.status === 401 ? CLOSE_UNAUTHORIZED : error.status === 429 ? CLOSE_TOO_MANY : CLOSE_FORBIDDEN);

/** Where a graphql-ws client puts its key (the shared wording names Socket.IO's handshake `auth`). */
const MISSING_KEY = "Unauthorized: missing API key (send it in connection_init as { apiKey } or { Authorization: 'Bearer <key>' })";

/** The close reason of a refused key, in graphql-ws terms. */
const closeReasonOf = (error: LiveAuthError) => (error.reason === 'missing' ? MISSING_KEY : error.message);

interface Extra extends Record<PropertyKey, unknown> {
  socket: WebSocket;
  request: http.IncomingMessage;
  viewer?: Viewer;
  unwatch?: () => void;
  release?: () => void;
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
 */
export function attachGraphQLWs(deps: GraphQLWsDeps): { close(): Promise<void> } {
  const path = deps.path ?? '/graphql';
  const wss = new WebSocketServer({ noServer: true });
  const onUpgrade = (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    // Other upgrade paths (Socket.IO's /socket.io/) belong to other listeners.
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== path) return;
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
  deps.httpServer.on('upgrade', onUpgrade);
  const rules = [...specifiedRules, ...shapeLimitRules()];

  const server = useServer<Record<string, unknown>, Extra>(
    {
      schema: deps.schema,
      // Parse (bounded tokens), validate (shape limits) and price (plan budget) here rather than in
      // graphql-ws, so a refusal is a GraphQL error of the same shape and limits as over HTTP.
      onSubscribe: (ctx, _id, payload) => {
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
      onConnect: async (ctx) => {
        const key = keyOf(ctx.connectionParams, ctx.extra.request);
        try {
          const viewer = await verifyLiveKey(deps.keyLookup, key, deps.now?.() ?? new Date());
          ctx.extra.release = deps.connections.acquire(viewer);
          ctx.extra.viewer = viewer;
          ctx.extra.unwatch = deps.keyWatch.watch(String(key).trim(), (error) => {
            ctx.extra.socket.close(closeCodeOf(error), closeReasonOf(error));
          });
          return true;
        } catch (error) {
          if (!(error instanceof LiveAuthError)) throw error;
          ctx.extra.socket.close(closeCodeOf(error), closeReasonOf(error));
          return false;
        }
      },
      onClose: (ctx) => {
        ctx.extra.unwatch?.();
        ctx.extra.release?.();
      },
      context: (ctx) =>
        attachLiveFeed(
          createContext({ auth: { kind: 'viewer', viewer: ctx.extra.viewer! }, db: deps.db, now: deps.now?.() ?? new Date(), timeZone: deps.timeZone }),
          deps.feed,
          deps.onPush,
        ),
    },
    wss,
  );

  return {
    async close() {
      deps.httpServer.off('upgrade', onUpgrade);
      await server.dispose();
    },
  };
}
