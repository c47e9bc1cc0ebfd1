import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CorsOptions } from 'cors';
import { execute, parse, subscribe, validate, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { Server, type Socket } from 'socket.io';
import { LiveAuthError } from '../auth/live-key';
import type { Viewer } from '../auth/viewer';
import { AppError } from '../errors';
import { attachLiveFeed } from '../events/live-feed';
import { createContext } from '../graphql/context';
import { liveStream, type LiveOddsChange } from '../graphql/live-streams';
import { liveOddsVariables, loadOperations, OPERATIONS_DIR, variablesFor } from '../graphql/operations';
import { MAX_FRAME_BYTES } from './core';
import type { LiveTransportDeps } from './graphql-ws';
import { handshakeRequest, parseLiveRequest, type LiveFilter, type LiveRequest } from './live-filter';

// The Socket.IO namespace /live-odds (spec 6, docs/live-protocol.md): an adapter over the one schema.
// Sockets with the same filter share a group: one GraphQL subscription to liveOddsChanges whose
// deltas go to the group's room as `odds_change` (encoded once per room), and one snapshot read
// (GET /odds/live's selection, src/graphql/operations/LiveOdds.graphql) shared by the sockets that
// ask for a snapshot at the same time. There is no other source of live data.

export { parseLiveRequest, type LiveFilter } from './live-filter';

/** Namespace of the push channel (spec 6; no version segment, spec 9). */
export const LIVE_NAMESPACE = '/live-odds';

/**
 * How long a socket that named no filter in its handshake may take to send `subscribe` before it
 * gets the unfiltered snapshot: a client that subscribes on connect gets its filtered snapshot first.
 */
export const SUBSCRIBE_GRACE_MS = 250;

/** `live_odds`: data is the `data` of GET /odds/live; on failure success is false and error says why. */
export interface LiveOddsPayload {
  success: boolean;
  data?: unknown[];
  count?: number;
  updated_at?: string | null;
  /** Extension: snapshot (after subscribe), interval, resync (asked for, or a reconnect not replayed). */
  reason?: string;
  /** Extension: the delta stream of the filter and the seq this snapshot applies at. */
  stream?: string;
  seq?: number;
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
  odds_change: (change: LiveOddsChange) => void;
}

export interface ClientToServerEvents {
  subscribe: (filter?: unknown, ack?: (result: SubscribeAck) => void) => void;
  unsubscribe: (ack?: (result: { success: true }) => void) => void;
  resync: (ack?: (result: { success: true }) => void) => void;
}

type InterServerEvents = Record<string, never>;

interface SocketData {
  viewer: Viewer;
  key: string;
  /** The subscribe payload of the handshake (auth or query), when it had one. */
  handshake: LiveRequest | null;
}

type LiveSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export interface SocketIoDeps extends LiveTransportDeps {
  onError?: (error: unknown) => void;
  /** CORS for the long-polling transport (CORS_ORIGINS); absent: no CORS headers. */
  cors?: CorsOptions;
}

const SNAPSHOT_OPERATION = `
query LiveOddsSnapshot($game_id: Int, $market_type: LiveMarketType, $book_id: Int, $book_ids: [Int!], $moneyline: Boolean!, $spread: Boolean!, $total: Boolean!) {
  live: liveGames(gameId: $game_id, marketType: $market_type, bookId: $book_id) {
    updated_at: updatedAt
    stream
    seq
    items: games { ...LiveGame }
  }
}`;

/** The snapshot query: the selection of GET /odds/live plus the stream and seq. @throws Error if invalid */
export function liveSnapshotDocument(schema: GraphQLSchema, dir = OPERATIONS_DIR): DocumentNode {
  const liveOdds = parse(readFileSync(path.join(dir, 'LiveOdds.graphql'), 'utf8')).definitions.filter((d) => d.kind === 'FragmentDefinition');
  const shared = parse(readFileSync(path.join(dir, 'fragments.graphql'), 'utf8')).definitions;
  const document: DocumentNode = { kind: parse('{a}').kind, definitions: [...parse(SNAPSHOT_OPERATION).definitions, ...liveOdds, ...shared] };
  const errors = validate(schema, document).filter((e) => !/Fragment ".*" is never used/.test(e.message));
  if (errors.length) throw new Error(`live snapshot document: ${errors.map((e) => e.message).join('; ')}`);
  return document;
}

/** A snapshot that applies at `seq` of the group's stream. */
interface Snapshot {
  payload: LiveOddsPayload;
  seq: number;
}

interface Group {
  /** Every member: gets live_odds snapshots. */
  snapshots: string;
  /** Members that did not opt out of deltas: get odds_change. */
  changes: string;
  members: Set<string>;
  filter: LiveFilter;
  viewer: Viewer;
  /** Seq of the last delta sent to the room. */
  sent: number;
  /** The latest snapshot, reused while no delta was sent after it (cleared on each delta). */
  cached: Snapshot | null;
  /** Sockets waiting for a snapshot, and the read under way for them. */
  waiting: Array<{ socket: LiveSocket; reason: string; token: number }>;
  reading: boolean;
  stop: () => void;
}

export function snapshotPayload(result: ExecutionResult, reason: string): Snapshot | { error: string } {
  if (result.errors?.length) {
    const original = result.errors[0]!.originalError;
    return { error: original instanceof AppError ? original.message : 'internal error' };
  }
  const live = (result.data as { live: { updated_at: string | null; stream: string; seq: number; items: unknown[] } }).live;
  return {
    seq: live.seq,
    payload: { success: true, data: live.items, count: live.items.length, updated_at: live.updated_at, reason, stream: live.stream, seq: live.seq },
  };
}

/** Bytes written for `socket`'s client and not taken by it: engine.io's queue plus the WebSocket's. */
function unsentBytes(socket: LiveSocket): number {
  const conn = socket.conn as unknown as { writeBuffer?: Array<{ data?: unknown }>; transport?: { socket?: { bufferedAmount?: number } } };
  let bytes = conn.transport?.socket?.bufferedAmount ?? 0;
  for (const packet of conn.writeBuffer ?? []) bytes += typeof packet.data === 'string' ? packet.data.length : ((packet.data as { byteLength?: number } | undefined)?.byteLength ?? 0);
  return bytes;
}

/** Cuts a socket whose client does not read: the reason as a last live_odds, then the connection dropped at once. */
function cutSlowSocket(socket: LiveSocket, reason: string): void {
  socket.emit('live_odds', { success: false, error: reason });
  socket.disconnect(true);
  // The queued bytes are freed now: a client that does not read would not read a close either.
  const conn = socket.conn as unknown as { transport?: { socket?: { terminate?: () => void } }; close(discard?: boolean): void };
  conn.transport?.socket?.terminate?.();
  conn.close(true);
}

/**
 * Serves the Socket.IO namespace /live-odds on `httpServer` (transports websocket and polling). The
 * handshake needs `auth: { apiKey }` and may carry the subscribe fields too; a refused key fails it
 * with a connect_error whose message says which check failed. docs/live-protocol.md has the events.
 * A key revoked or expired while connected disconnects its sockets within the key watch period.
 */
export function attachSocketIo(deps: SocketIoDeps): { io: Server; close(): Promise<void> } {
  const { core } = deps;
  const snapshotDocument = liveSnapshotDocument(deps.schema);
  const changesDocument = loadOperations(deps.schema).get('LiveOddsChanges')!;
  // The filter's market_type is the spec's lower-case word; the operations take the enum value.
  const snapshotVariables = variablesFor(deps.schema, snapshotDocument);
  const changesVariables = variablesFor(deps.schema, changesDocument);
  const io = new Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>(deps.httpServer, {
    serveClient: false,
    transports: ['websocket', 'polling'],
    // The largest message (WebSocket frame or polling body) read, before and after the handshake.
    maxHttpBufferSize: MAX_FRAME_BYTES,
    // graphql-ws shares the server's upgrades: leave the ones that are not ours alone.
    destroyUpgrade: false,
    ...(deps.cors && { cors: deps.cors }),
  });
  const nsp = io.of(LIVE_NAMESPACE);
  const contextFor = (viewer: Viewer) =>
    attachLiveFeed(createContext({ auth: { kind: 'viewer', viewer }, db: deps.db, now: deps.now?.() ?? new Date(), timeZone: deps.timeZone }), deps.feed);
  const scopeOf = (filter: LiveFilter) => ({ gameId: filter.game_id ?? null, marketType: filter.market_type ?? null, bookId: filter.book_id ?? null });
  const streamOf = (group: Group) => liveStream(deps.feed, deps.db.prisma, scopeOf(group.filter));

  /** A refused handshake: connect_error's message, and `data` saying which check failed. */
  const refusal = (error: LiveAuthError) => Object.assign(new Error(error.message), { data: { reason: error.reason, status: error.status } });

  nsp.use(async (socket, next) => {
    const auth = socket.handshake.auth as Record<string, unknown> | undefined;
    try {
      socket.data.viewer = await core.authenticate(auth?.apiKey);
      socket.data.key = String(auth?.apiKey).trim();
    } catch (error) {
      if (!(error instanceof LiveAuthError)) {
        deps.onError?.(error);
        return next(new Error('internal error'));
      }
      return next(refusal(error));
    }
    try {
      const raw = handshakeRequest(auth, socket.handshake.query);
      socket.data.handshake = raw === null ? null : parseLiveRequest(raw);
    } catch (error) {
      return next(new Error(error instanceof AppError ? error.message : 'invalid handshake'));
    }
    let release: () => void;
    try {
      // A key revoked or expired while connected: told why, then disconnected.
      release = core.hold(socket.data.viewer, socket.data.key, (error) => {
        socket.emit('live_odds', { success: false, error: error.message });
        socket.disconnect(true);
      });
    } catch (error) {
      if (error instanceof LiveAuthError) return next(refusal(error));
      throw error;
    }
    // The place among the key's live connections is held until the socket closes.
    socket.once('disconnect', release);
    socket.conn.once('close', release);
    next();
  });

  const groups = new Map<string, Group>();
  /** Per socket: the group it is in, and a token that changes on every subscribe/unsubscribe/resync. */
  const membership = new Map<string, { key: string | null; token: number; changes: boolean }>();

  const startGroup = (key: string, filter: LiveFilter, viewer: Viewer): Group => {
    let stopped = false;
    let iterator: AsyncIterator<ExecutionResult> | null = null;
    const group: Group = {
      snapshots: `snapshots:${key}`,
      changes: `changes:${key}`,
      members: new Set(),
      filter,
      viewer,
      sent: 0,
      cached: null,
      waiting: [],
      reading: false,
      stop: () => {
        stopped = true;
        void iterator?.return?.();
      },
    };
    // Deltas published before the subscription starts reached nobody of this group: start after them.
    group.sent = streamOf(group).seq;
    void (async () => {
      const result = await subscribe({ schema: deps.schema, document: changesDocument, variableValues: changesVariables(liveOddsVariables(filter)), contextValue: contextFor(viewer) });
      if (!(Symbol.asyncIterator in result)) throw new Error(result.errors?.[0]?.message ?? 'live changes did not start');
      iterator = result[Symbol.asyncIterator]();
      if (stopped) return void iterator.return?.();
      for await (const item of { [Symbol.asyncIterator]: () => iterator! }) {
        if (stopped) break;
        const change = (item.data as { change: LiveOddsChange } | null)?.change;
        if (!change) continue;
        group.sent = change.seq;
        group.cached = null;
        // Small and sent often: compressing would cost more than it saves.
        nsp.to(group.changes).compress(false).emit('odds_change', change);
        deps.onPush?.(new Date(change.at));
      }
    })().catch((error) => {
      deps.onError?.(error);
      if (!stopped) nsp.to(group.snapshots).emit('live_odds', { success: false, error: 'internal error' });
    });
    return group;
  };

  /** Sends the group's waiting sockets one snapshot (one encoding per reason), then the deltas since, then lets them in. */
  const serveWaiting = async (group: Group) => {
    if (group.reading || !group.waiting.length) return;
    group.reading = true;
    try {
      let snapshot = group.cached;
      if (!snapshot) {
        const result = await execute({ schema: deps.schema, document: snapshotDocument, variableValues: snapshotVariables(liveOddsVariables(group.filter)), contextValue: contextFor(group.viewer) });
        const made = snapshotPayload(result, 'snapshot');
        if ('error' in made) {
          for (const w of group.waiting.splice(0)) w.socket.emit('live_odds', { success: false, error: made.error });
          return;
        }
        snapshot = made;
        if (group.sent <= snapshot.seq) group.cached = snapshot;
      }
      const waiting = group.waiting.splice(0).filter((w) => membership.get(w.socket.id)?.token === w.token);
      for (const reason of new Set(waiting.map((w) => w.reason))) {
        const ids = waiting.filter((w) => w.reason === reason).map((w) => w.socket.id);
        nsp.to(ids).emit('live_odds', { ...snapshot.payload, reason });
      }
      const missed = group.sent > snapshot.seq ? (streamOf(group).replay(snapshot.seq) ?? []).filter((c) => c.seq <= group.sent) : [];
      for (const w of waiting) enter(w.socket, group, missed);
    } catch (error) {
      deps.onError?.(error);
      for (const w of group.waiting.splice(0)) w.socket.emit('live_odds', { success: false, error: 'internal error' });
    } finally {
      group.reading = false;
      // Sockets that asked during the read get the next one.
      if (group.waiting.length) setImmediate(() => void serveWaiting(group));
    }
  };

  /** Lets a socket into its group's rooms after sending it the deltas it has not seen. */
  const enter = (socket: LiveSocket, group: Group, missed: readonly LiveOddsChange[]) => {
    const state = membership.get(socket.id);
    if (!state) return;
    if (state.changes) for (const change of missed) socket.compress(false).emit('odds_change', change);
    void socket.join(state.changes ? [group.snapshots, group.changes] : [group.snapshots]);
  };

  /** Takes a socket out of its group's rooms; `stay`: it is joining the same group again, keep the group. */
  const leave = (socket: LiveSocket, stay = false) => {
    const state = membership.get(socket.id);
    if (!state || state.key === null) return;
    const group = groups.get(state.key);
    state.token++;
    if (group) {
      void socket.leave(group.snapshots);
      void socket.leave(group.changes);
      if (stay) return;
      group.members.delete(socket.id);
      if (group.members.size === 0) {
        group.stop();
        groups.delete(state.key);
      }
    }
    state.key = null;
  };

  const join = (socket: LiveSocket, request: LiveRequest, reason = 'snapshot') => {
    const { filter, options } = request;
    const key = JSON.stringify([filter.game_id ?? null, filter.market_type ?? null, filter.book_id ?? null]);
    leave(socket, membership.get(socket.id)?.key === key);
    let group = groups.get(key);
    if (!group) {
      group = startGroup(key, filter, socket.data.viewer);
      groups.set(key, group);
    }
    group.members.add(socket.id);
    const state = membership.get(socket.id)!;
    state.key = key;
    state.changes = options.changes;
    const token = ++state.token;
    // A reconnect whose missed deltas are still held gets them instead of a snapshot.
    const resume = options.resume;
    if (resume && options.changes) {
      const stream = streamOf(group);
      const missed = resume.stream === stream.id ? stream.replay(resume.last_seq) : null;
      if (missed) return enter(socket, group, missed.filter((c) => c.seq <= group.sent));
      reason = 'resync';
    }
    group.waiting.push({ socket, reason, token });
    // Gathers the sockets that ask in the same turn of the event loop into one read and one encoding.
    setImmediate(() => void serveWaiting(group));
  };

  /** Charges an operation (subscribe, resync) to the key's plan budget; a refusal is told and acked. */
  const chargeOrRefuse = async (socket: LiveSocket, ack: unknown): Promise<boolean> => {
    let refused: AppError | null;
    try {
      refused = await core.charge(socket.data.viewer);
    } catch (error) {
      deps.onError?.(error);
      refused = new AppError('INTERNAL');
    }
    if (!refused) return false;
    socket.emit('live_odds', { success: false, error: refused.message });
    if (typeof ack === 'function') (ack as (result: SubscribeAck) => void)({ success: false, error: refused.message });
    return true;
  };

  nsp.on('connection', (socket: LiveSocket) => {
    membership.set(socket.id, { key: null, token: 0, changes: true });
    let subscribed = false;

    socket.on('subscribe', async (raw, ack) => {
      // A client may send subscribe(ack) with no filter.
      if (typeof raw === 'function' && ack === undefined) {
        ack = raw as (result: SubscribeAck) => void;
        raw = undefined;
      }
      // Counted as subscribed while charged, so the grace does not send the unfiltered snapshot meanwhile.
      const was = subscribed;
      subscribed = true;
      if ((await chargeOrRefuse(socket, ack)) || !socket.connected) return void (subscribed = was);
      let request: LiveRequest;
      try {
        request = parseLiveRequest(raw);
      } catch (error) {
        const message = error instanceof AppError ? error.message : 'invalid subscribe payload';
        const state = membership.get(socket.id);
        const current = state?.key ? groups.get(state.key)?.filter : undefined;
        socket.emit('live_odds', { success: false, error: message });
        if (typeof ack === 'function') ack({ success: false, error: message, filter: current ?? {} });
        subscribed = was;
        return;
      }
      join(socket, request);
      if (typeof ack === 'function') ack({ success: true, filter: request.filter });
    });

    socket.on('unsubscribe', (ack) => {
      subscribed = true;
      leave(socket);
      if (typeof ack === 'function') ack({ success: true });
    });

    socket.on('resync', async (ack) => {
      if ((await chargeOrRefuse(socket, ack)) || !socket.connected) return;
      const state = membership.get(socket.id);
      const group = state?.key ? groups.get(state.key) : undefined;
      if (group) join(socket, { filter: group.filter, options: { changes: state!.changes, resume: null } }, 'resync');
      if (typeof ack === 'function') ack({ success: true });
    });

    const untrack = core.track({ transport: 'socket.io', buffered: () => unsentBytes(socket), cut: (reason) => cutSlowSocket(socket, reason) });
    socket.on('disconnect', () => {
      leave(socket);
      membership.delete(socket.id);
      untrack();
    });

    // Spec 6.2: without a subscribe, every live game. The handshake may name the filter; otherwise a
    // subscribe sent right on connect still comes before the first push.
    if (socket.data.handshake) {
      subscribed = true;
      join(socket, socket.data.handshake);
    } else {
      const grace = setTimeout(() => {
        if (!subscribed && socket.connected) join(socket, parseLiveRequest(undefined));
      }, SUBSCRIBE_GRACE_MS);
      socket.on('disconnect', () => clearTimeout(grace));
    }
  });

  // The spec's snapshot about every 20 s, one read and one encoding per group.
  const stopInterval = deps.feed.onTick((tick) => {
    if (tick.reason !== 'interval') return;
    for (const group of groups.values()) {
      void (async () => {
        const result = await execute({ schema: deps.schema, document: snapshotDocument, variableValues: snapshotVariables(liveOddsVariables(group.filter)), contextValue: contextFor(group.viewer) });
        const made = snapshotPayload(result, 'interval');
        if ('error' in made) return nsp.to(group.snapshots).emit('live_odds', { success: false, error: made.error });
        if (group.sent <= made.seq) group.cached = made;
        nsp.to(group.snapshots).emit('live_odds', made.payload);
        // Deltas sent during the read apply after this snapshot again (applying one twice changes nothing).
        if (group.sent > made.seq) {
          for (const change of (streamOf(group).replay(made.seq) ?? []).filter((c) => c.seq <= group.sent)) {
            nsp.to(group.changes).compress(false).emit('odds_change', change);
          }
        }
      })().catch((error) => deps.onError?.(error));
    }
  });

  return {
    io,
    async close() {
      stopInterval();
      for (const group of groups.values()) group.stop();
      groups.clear();
      // io.close() would also close the HTTP server, which main.ts and the tests own.
      nsp.disconnectSockets(true);
      io.engine.close();
    },
  };
}
