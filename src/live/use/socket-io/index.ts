import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { CorsOptions } from 'cors';
import { Server } from 'socket.io';
import { LiveAuthError } from '../../../auth/live-key';
import { AppError } from '../../../errors';
import { MAX_FRAME_BYTES, type LiveDeps } from '../../core';
import { handshakeRequest, parseLiveRequest, parseSignalFilter, type LiveRequest, type SignalFilter } from '../../filter';
import { LIVE_NAMESPACE, SUBSCRIBE_GRACE_MS, type SignalSubscribeAck, type SubscribeAck } from '../../protocol';
import { signalEventsStarter } from '../../signal-events';
import { createRooms } from './rooms';
import type { ClientToServerEvents, InterServerEvents, LiveSocket, ServerToClientEvents, SocketData } from './types';

// The Socket.IO namespace /live-odds (spec 6, docs/live-protocol.md): an adapter over the one schema.
// Sockets with the same filter share a group: one GraphQL subscription to liveOddsChanges whose
// deltas go to the group's room as `odds_change` (encoded once per room), and one snapshot read
// (GET /odds/live's selection, src/graphql/operations/LiveOdds.graphql) shared by the sockets that
// ask for a snapshot at the same time. There is no other source of live data. The live core
// (src/live/core.ts) checks keys, holds the connection slots, charges the budget and cuts slow readers.

export interface SocketIoDeps extends LiveDeps {
  httpServer: HttpServer;
  onError?: (error: unknown) => void;
  /** CORS for the long-polling transport (CORS_ORIGINS); absent: no CORS headers. */
  cors?: CorsOptions;
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
  const io = new Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>(deps.httpServer, {
    serveClient: false,
    transports: ['websocket', 'polling'],
    // The largest message (WebSocket frame or polling body) read, before and after the handshake.
    maxHttpBufferSize: MAX_FRAME_BYTES,
    // graphql-ws shares the server's upgrades: leave the ones that are not ours alone.
    destroyUpgrade: false,
    ...(deps.cors && { cors: deps.cors }),
  });
  // An engine.io connection keeps its first HTTP request (an IncomingMessage with its parser and
  // bookkeeping, a few KiB) for as long as it is open; Socket.IO reads only these fields of it, when a
  // namespace is joined (socket.handshake), and nothing here reads socket.request. Keeping just them
  // frees the request of a long-polling connection (Socket.IO's "Memory usage" guide drops it
  // altogether; the handshake's query string may carry the subscribe filter, so _query stays). A
  // WebSocket connection's upgrade request stays held all the same, by engine.io's own upgrade
  // response (a 'close' listener on the TCP socket): 1,000 idle sockets keep 1,000 IncomingMessages
  // (heap snapshot, docs/operations.md "Memory").
  io.engine.on('connection', (conn: { request: IncomingMessage & { _query?: unknown } }) => {
    const { headers, url, _query, socket } = conn.request;
    conn.request = { headers, url, _query, connection: { encrypted: (socket as { encrypted?: boolean } | null)?.encrypted === true } } as never;
  });
  const nsp = io.of(LIVE_NAMESPACE);
  const rooms = createRooms({ ...deps, nsp });
  const startSignals = signalEventsStarter(deps);


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
    rooms.add(socket);
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
        const current = rooms.filterOf(socket);
        socket.emit('live_odds', { success: false, error: message });
        if (typeof ack === 'function') ack({ success: false, error: message, filter: current ?? {} });
        subscribed = was;
        return;
      }
      rooms.join(socket, request);
      if (typeof ack === 'function') ack({ success: true, filter: request.filter });
    });

    socket.on('unsubscribe', (ack) => {
      subscribed = true;
      rooms.leave(socket);
      if (typeof ack === 'function') ack({ success: true });
    });

    socket.on('resync', async (ack) => {
      if ((await chargeOrRefuse(socket, ack)) || !socket.connected) return;
      rooms.resync(socket);
      if (typeof ack === 'function') ack({ success: true });
    });

    // Signal events are per socket (one subscription each, the rows of an event read once per process).
    let stopSignals: (() => void) | null = null;
    let signalsToken = 0;
    const endSignals = () => {
      signalsToken++;
      stopSignals?.();
      stopSignals = null;
    };
    socket.on('subscribe_signals', async (raw, ack) => {
      if (typeof raw === 'function' && ack === undefined) {
        ack = raw as (result: SignalSubscribeAck) => void;
        raw = undefined;
      }
      const answer = (result: SignalSubscribeAck) => typeof ack === 'function' && ack(result);
      if ((await chargeOrRefuse(socket, ack)) || !socket.connected) return;
      let filter: SignalFilter;
      try {
        filter = parseSignalFilter(raw);
      } catch (error) {
        const message = error instanceof AppError ? error.message : 'invalid subscribe_signals payload';
        socket.emit('live_odds', { success: false, error: message });
        return answer({ success: false, error: message });
      }
      endSignals();
      const token = signalsToken;
      try {
        const stop = await startSignals(
          socket.data.viewer,
          filter,
          (signal) => socket.emit('line_signal', signal),
          (message) => socket.emit('live_odds', { success: false, error: message }),
        );
        // Replaced or disconnected while starting: this subscription is not wanted any more.
        if (token !== signalsToken || !socket.connected) return stop();
        stopSignals = stop;
      } catch (error) {
        if (!(error instanceof AppError)) deps.onError?.(error);
        const message = error instanceof AppError ? error.message : 'internal error';
        socket.emit('live_odds', { success: false, error: message });
        return answer({ success: false, error: message });
      }
      answer({ success: true, filter });
    });

    socket.on('unsubscribe_signals', (ack) => {
      endSignals();
      if (typeof ack === 'function') ack({ success: true });
    });

    const untrack = core.track({ transport: 'socket.io', buffered: () => unsentBytes(socket), cut: (reason) => cutSlowSocket(socket, reason) });
    socket.on('disconnect', () => {
      rooms.remove(socket);
      endSignals();
      untrack();
    });

    // Spec 6.2: without a subscribe, every live game. The handshake may name the filter; otherwise a
    // subscribe sent right on connect still comes before the first push.
    if (socket.data.handshake) {
      subscribed = true;
      rooms.join(socket, socket.data.handshake);
    } else {
      const grace = setTimeout(() => {
        if (!subscribed && socket.connected) rooms.join(socket, parseLiveRequest(undefined));
      }, SUBSCRIBE_GRACE_MS);
      socket.on('disconnect', () => clearTimeout(grace));
    }
  });


  return {
    io,
    async close() {
      rooms.close();
      // io.close() would also close the HTTP server, which main.ts and the tests own.
      nsp.disconnectSockets(true);
      io.engine.close();
    },
  };
}
