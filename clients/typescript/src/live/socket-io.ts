import { io, type Socket } from 'socket.io-client';
import { LiveError, type Endpoint, type LiveOptions, type LiveSink, type Transport } from './connect';
import type { LiveDeltaPayload, LiveSnapshotPayload } from './state';

/** What /live-odds sends (docs/live-protocol.md), as far as the helper listens. */
interface ServerToClientEvents {
  live_odds: (payload: LiveSnapshotPayload) => void;
  odds_change: (payload: LiveDeltaPayload) => void;
}
/** What the helper sends: the filter and position go in the handshake, so only `resync`. */
interface ClientToServerEvents {
  resync: () => void;
}

/**
 * Follows the Socket.IO namespace /live-odds. The handshake's `auth` is a function, so every
 * (re)connect sends the key, the filter and, once a snapshot was applied, the `stream` and the
 * `last_seq` applied: the server (any process: the sequence is the stored change log's) then replays
 * the missed deltas, or sends a `resync` snapshot when they are no longer stored or too many. A gap
 * asks for `resync`.
 */
export function followSocketIo(endpoint: Endpoint, options: LiveOptions, sink: LiveSink): Transport {
  const filter = options.filter ?? {};
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(`${endpoint.baseUrl.replace(/\/+$/, '')}/live-odds`, {
    // `changes: true` names the request in the handshake, so the first snapshot comes at once
    // (a handshake without one waits for a `subscribe`, docs/live-protocol.md).
    auth: (cb) =>
      cb({
        apiKey: endpoint.apiKey,
        ...filter,
        changes: true,
        ...(sink.book.stream !== null && { stream: sink.book.stream, last_seq: sink.book.seq }),
      }),
    transports: ['websocket'],
    forceNew: true,
  });
  let refused = false;
  let closing = false;
  let retry: ReturnType<typeof setTimeout> | null = null;

  // Connected again with a state: the missed deltas (or a resync snapshot) follow on this socket.
  socket.on('connect', () => sink.book.stream !== null && sink.status('live'));
  socket.on('live_odds', (payload) => {
    // A failure push comes before the server ends the socket (a key revoked, a plan refused).
    if (!payload.success) refused = true;
    sink.snapshot(payload);
  });
  socket.on('odds_change', (payload) => {
    if (sink.delta(payload) === 'resync') socket.emit('resync');
  });
  socket.on('connect_error', (error: Error & { data?: { reason?: string } }) => {
    // socket.active is false when the server refused the handshake (key, filter): no retry.
    if (!socket.active) sink.error(new LiveError(error.message, true));
    else sink.status('reconnecting');
  });
  socket.on('disconnect', (reason) => {
    if (closing) return;
    sink.status('reconnecting');
    // The server closed the socket: after a refusal, stop; on a shutdown, come back (Socket.IO does
    // not reconnect by itself then), with the stream and seq in the handshake.
    if (reason === 'io server disconnect') {
      if (refused) return sink.error(new LiveError('the service ended the live connection', true));
      retry = setTimeout(() => socket.connect(), options.reconnectDelayMs ?? 1000);
    }
  });
  return {
    close() {
      closing = true;
      if (retry) clearTimeout(retry);
      socket.close();
    },
  };
}
