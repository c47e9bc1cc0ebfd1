import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  Kind,
  parse,
  subscribe,
  validate,
  visit,
  type DefinitionNode,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLSchema,
} from 'graphql';
import { Server, type Socket } from 'socket.io';
import type { Viewer } from '../auth/viewer';
import { AppError } from '../errors';
import { createContext } from '../graphql/context';
import { OPERATIONS_DIR } from '../graphql/operations';
import { LIVE_MARKET_TYPES, liveOddsVariables } from '../rest/routes/live';
import type { LiveTransportDeps } from './graphql-ws';
import { attachLiveFeed } from '../events/live-feed';
import { LiveAuthError, verifyLiveKey } from '../auth/live-key';

// The Socket.IO namespace /live-odds (spec 6): a bridge that runs Subscription.liveOdds on the one
// schema (one subscription per distinct filter, shared by its sockets), with the selection of
// GET /odds/live (src/graphql/operations/LiveOdds.graphql), so a push carries exactly the data of that
// route. There is no other source of live data.

/** Namespace of the push channel (spec 6; no version segment, spec 9). */
export const LIVE_NAMESPACE = '/live-odds';

/** The filter of a `subscribe` (spec 6); absent fields match everything. */
export interface LiveFilter {
  game_id?: number;
  market_type?: (typeof LIVE_MARKET_TYPES)[number];
  book_id?: number;
}

/** `live_odds`: data is the `data` of GET /odds/live; on failure success is false and error says why. */
export interface LiveOddsPayload {
  success: boolean;
  data?: unknown[];
  count?: number;
  updated_at?: string | null;
  /** Extension: snapshot (first push after subscribe), change or interval. */
  reason?: string;
  error?: string;
}

export interface SubscribeAck {
  success: boolean;
  /** The filter in force after this call. */
  filter?: LiveFilter;
  error?: string;
}

export interface ServerToClientEvents {
  live_odds: (payload: LiveOddsPayload) => void;
}

export interface ClientToServerEvents {
  subscribe: (filter?: unknown, ack?: (result: SubscribeAck) => void) => void;
  unsubscribe: (ack?: (result: { success: true }) => void) => void;
}

type InterServerEvents = Record<string, never>;

interface SocketData {
  viewer: Viewer;
  key: string;
}

type LiveSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export interface SocketIoDeps extends LiveTransportDeps {
  onError?: (error: unknown) => void;
}

const FILTER_KEYS = ['game_id', 'market_type', 'book_id'] as const;

/**
 * Checks a `subscribe` payload: undefined/null (no filter) or an object with only game_id and
 * book_id (positive integers) and market_type (spread, moneyline, total, player_props).
 * @throws AppError BAD_REQUEST naming the bad field
 */
export function parseLiveFilter(raw: unknown): LiveFilter {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new AppError('BAD_REQUEST', 'invalid subscribe payload: expected an object { game_id?, market_type?, book_id? }');
  const input = raw as Record<string, unknown>;
  const unknown = Object.keys(input).filter((k) => !(FILTER_KEYS as readonly string[]).includes(k));
  if (unknown.length) throw new AppError('BAD_REQUEST', `invalid subscribe payload: unknown field ${unknown[0]} (allowed: ${FILTER_KEYS.join(', ')})`);
  const filter: LiveFilter = {};
  for (const name of ['game_id', 'book_id'] as const) {
    const value = input[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > 2_147_483_647) {
      throw new AppError('BAD_REQUEST', `invalid subscribe payload: ${name} must be a positive integer`);
    }
    filter[name] = value;
  }
  const type = input.market_type;
  if (type !== undefined && type !== null) {
    if (typeof type !== 'string' || !(LIVE_MARKET_TYPES as readonly string[]).includes(type)) {
      throw new AppError('BAD_REQUEST', `invalid subscribe payload: market_type must be one of ${LIVE_MARKET_TYPES.join(', ')}`);
    }
    filter.market_type = type as LiveFilter['market_type'];
  }
  return filter;
}

const PUSH_OPERATION = `
subscription LiveOddsPush($game_id: Int, $market_type: String, $book_id: Int, $book_ids: [Int!], $moneyline: Boolean!, $spread: Boolean!, $total: Boolean!) {
  live: liveOdds(gameId: $game_id, marketType: $market_type, bookId: $book_id) {
    updated_at
    reason
    items: games { ...LiveGame }
  }
}`;

/**
 * The push document: the subscription above with the fragments of LiveOdds.graphql and of the shared
 * fragments file that it uses. @throws Error when it does not validate against `schema`
 */
export function livePushDocument(schema: GraphQLSchema, dir = OPERATIONS_DIR): DocumentNode {
  const definitions: DefinitionNode[] = [
    ...parse(readFileSync(path.join(dir, 'LiveOdds.graphql'), 'utf8')).definitions,
    ...parse(readFileSync(path.join(dir, 'fragments.graphql'), 'utf8')).definitions,
  ];
  const fragments = new Map(definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
  const operation = parse(PUSH_OPERATION);
  const used = new Set<string>();
  const pending: Array<DocumentNode | FragmentDefinitionNode> = [operation];
  while (pending.length) {
    visit(pending.pop()!, {
      FragmentSpread(node) {
        const fragment = fragments.get(node.name.value);
        if (fragment && !used.has(node.name.value)) {
          used.add(node.name.value);
          pending.push(fragment);
        }
      },
    });
  }
  const document: DocumentNode = { ...operation, definitions: [...operation.definitions, ...[...used].map((n) => fragments.get(n)!)] };
  const errors = validate(schema, document);
  if (errors.length) throw new Error(`live push document: ${errors.map((e) => e.message).join('; ')}`);
  return document;
}

function payloadOf(result: ExecutionResult): LiveOddsPayload {
  if (result.errors?.length) {
    const original = result.errors[0]!.originalError;
    return { success: false, error: original instanceof AppError ? original.message : 'internal error' };
  }
  const live = (result.data as { live: { updated_at: string | null; reason: string; items: unknown[] } }).live;
  return { success: true, data: live.items, count: live.items.length, updated_at: live.updated_at, reason: live.reason };
}

/**
 * Serves the Socket.IO namespace /live-odds on `httpServer` (transports websocket and polling). The
 * handshake needs `auth: { apiKey }`; a refused key fails it with a connect_error whose message says
 * which check failed. Each socket gets all live games at once and then on every change and interval,
 * until it sends `subscribe` (narrowing) or `unsubscribe` (stop). A key revoked or expired while
 * connected disconnects its sockets within the key watch period.
 */
export function attachSocketIo(deps: SocketIoDeps): { io: Server; close(): Promise<void> } {
  const document = livePushDocument(deps.schema);
  const io = new Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>(deps.httpServer, {
    serveClient: false,
    transports: ['websocket', 'polling'],
    // graphql-ws shares the server's upgrades: leave the ones that are not ours alone.
    destroyUpgrade: false,
  });
  const nsp = io.of(LIVE_NAMESPACE);

  nsp.use(async (socket, next) => {
    const key = (socket.handshake.auth as Record<string, unknown> | undefined)?.apiKey;
    try {
      socket.data.viewer = await verifyLiveKey(deps.keyLookup, key, deps.now?.() ?? new Date());
      socket.data.key = String(key).trim();
      next();
    } catch (error) {
      if (!(error instanceof LiveAuthError)) {
        deps.onError?.(error);
        return next(new Error('internal error'));
      }
      const refused = new Error(error.message) as Error & { data?: unknown };
      refused.data = { reason: error.reason, status: error.status };
      next(refused);
    }
  });

  // One GraphQL subscription per distinct filter, shared by the sockets of that filter (a room): the
  // data of a filter is the same for every paid plan, so running it once per socket would only repeat
  // the same execution (bench/live.js measured 28x a bare broadcast that way with 100 clients).
  interface Group {
    room: string;
    sockets: Set<string>;
    stop: () => void;
    /** The latest push, sent at once to a socket that joins a running group. */
    last: LiveOddsPayload | null;
  }
  const groups = new Map<string, Group>();

  const startGroup = (key: string, wanted: LiveFilter, viewer: Viewer): Group => {
    let stopped = false;
    let iterator: AsyncIterator<ExecutionResult> | null = null;
    const group: Group = {
      room: `filter:${key}`,
      sockets: new Set(),
      last: null,
      stop: () => {
        stopped = true;
        void iterator?.return?.();
      },
    };
    const push = (payload: LiveOddsPayload) => {
      if (payload.success) group.last = payload;
      nsp.to(group.room).emit('live_odds', payload);
    };
    void (async () => {
      // The context of the socket that opened the group; every member passed the same key checks.
      const contextValue = attachLiveFeed(
        createContext({ auth: { kind: 'viewer', viewer }, db: deps.db, now: deps.now?.() ?? new Date(), timeZone: deps.timeZone }),
        deps.feed,
      );
      const result = await subscribe({ schema: deps.schema, document, variableValues: liveOddsVariables(wanted), contextValue });
      if (!(Symbol.asyncIterator in result)) {
        if (!stopped) push(payloadOf(result));
        return;
      }
      iterator = result[Symbol.asyncIterator]();
      if (stopped) return void iterator.return?.();
      for await (const item of { [Symbol.asyncIterator]: () => iterator! }) {
        if (stopped) break;
        push(payloadOf(item));
      }
    })().catch((error) => {
      deps.onError?.(error);
      if (!stopped) nsp.to(group.room).emit('live_odds', { success: false, error: 'internal error' });
    });
    return group;
  };

  nsp.on('connection', (socket: LiveSocket) => {
    let filter: LiveFilter = {};
    let joined: string | null = null;

    const leave = () => {
      if (joined === null) return;
      const group = groups.get(joined);
      void socket.leave(`filter:${joined}`);
      group?.sockets.delete(socket.id);
      if (group && group.sockets.size === 0) {
        group.stop();
        groups.delete(joined);
      }
      joined = null;
    };
    const join = (wanted: LiveFilter) => {
      leave();
      const key = JSON.stringify([wanted.game_id ?? null, wanted.market_type ?? null, wanted.book_id ?? null]);
      let group = groups.get(key);
      const fresh = !group;
      if (!group) {
        group = startGroup(key, wanted, socket.data.viewer);
        groups.set(key, group);
      }
      group.sockets.add(socket.id);
      void socket.join(group.room);
      joined = key;
      // A new group sends its snapshot to the room; a running one has it already.
      if (!fresh && group.last) socket.emit('live_odds', { ...group.last, reason: 'snapshot' });
    };

    socket.on('subscribe', (raw, ack) => {
      // A client may send subscribe(ack) with no filter.
      if (typeof raw === 'function' && ack === undefined) {
        ack = raw as (result: SubscribeAck) => void;
        raw = undefined;
      }
      try {
        filter = parseLiveFilter(raw);
      } catch (error) {
        const message = error instanceof AppError ? error.message : 'invalid subscribe payload';
        socket.emit('live_odds', { success: false, error: message });
        if (typeof ack === 'function') ack({ success: false, error: message, filter });
        return;
      }
      join(filter);
      if (typeof ack === 'function') ack({ success: true, filter });
    });

    socket.on('unsubscribe', (ack) => {
      leave();
      if (typeof ack === 'function') ack({ success: true });
    });

    const unwatch = deps.keyWatch.watch(socket.data.key, (error) => {
      socket.emit('live_odds', { success: false, error: error.message });
      socket.disconnect(true);
    });
    socket.on('disconnect', () => {
      leave();
      unwatch();
    });

    // Spec 6.2: without a subscribe, every live game.
    join(filter);
  });

  return {
    io,
    async close() {
      for (const group of groups.values()) group.stop();
      groups.clear();
      // io.close() would also close the HTTP server, which main.ts and the tests own.
      nsp.disconnectSockets(true);
      io.engine.close();
    },
  };
}
