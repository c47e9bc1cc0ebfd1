import type { Namespace, Socket } from 'socket.io';
import type { Viewer } from '../../../auth/viewer';
import type { LiveRequest } from '../../filter';
import type { LiveOddsChange, LiveOddsPayload, SignalPayload, SignalSubscribeAck, SubscribeAck } from '../../protocol';

// The typed events of the Socket.IO namespace /live-odds (socket.io's typed-events): what the server
// emits, what a client may send, and what a socket keeps from its handshake. index.ts serves them,
// rooms.ts groups the sockets.

export interface ServerToClientEvents {
  live_odds: (payload: LiveOddsPayload) => void;
  odds_change: (change: LiveOddsChange) => void;
  /** Only after subscribe_signals: one stored line-movement signal (the /signals record). */
  line_signal: (signal: SignalPayload) => void;
}

export interface ClientToServerEvents {
  subscribe: (filter?: unknown, ack?: (result: SubscribeAck) => void) => void;
  /** Opt-in signal events (line_signal), filtered by game_id, kind, market_type; a second call replaces the filter. */
  subscribe_signals: (filter?: unknown, ack?: (result: SignalSubscribeAck) => void) => void;
  unsubscribe_signals: (ack?: (result: { success: true }) => void) => void;
  unsubscribe: (ack?: (result: { success: true }) => void) => void;
  resync: (ack?: (result: { success: true }) => void) => void;
}

export type InterServerEvents = Record<string, never>;

export interface SocketData {
  viewer: Viewer;
  key: string;
  /** The subscribe payload of the handshake (auth or query), when it had one. */
  handshake: LiveRequest | null;
}

export type LiveSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type LiveNamespace = Namespace<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
