import { LiveBook, type LiveChange, type LiveDeltaPayload, type LiveFilter, type LiveSnapshotPayload, type LiveState } from './state';
import { followSocketIo } from './socket-io';
import { followSse } from './sse';

/** How the live helper follows the service. */
export interface LiveOptions {
  /** `socket.io` (the /live-odds namespace, default) or `sse` (GET /api/v1/nba/odds/stream). */
  transport?: 'socket.io' | 'sse';
  /** What to follow: one game, one market type (or `player_props`), one book. */
  filter?: LiveFilter;
  /**
   * SSE in a browser: the page's EventSource class (it cannot set headers: the key then goes in
   * the URL, `api_key=`, so use HTTPS). In Node the `eventsource` package is used.
   */
  EventSource?: unknown;
  /** Socket.IO: how long to wait before reconnecting after the server closed the connection (ms, default 1000). */
  reconnectDelayMs?: number;
}

/** Where the helper stands. */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'closed';

export interface LiveEvents {
  /** A snapshot or a delta was applied: `state` now includes it. */
  change: (change: LiveChange) => void;
  /** A refusal (bad filter, key refused, plan) or a transport failure; `fatal` when the helper stopped. */
  error: (error: LiveError) => void;
  status: (status: LiveStatus) => void;
}

/** A refusal or failure of the live connection. */
export class LiveError extends Error {
  override readonly name = 'LiveError';
  constructor(
    message: string,
    /** The helper stopped (the key or filter was refused): it will not reconnect. */
    readonly fatal: boolean,
    /** The HTTP status of a refused SSE request, when there was one. */
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/**
 * A live feed: the state (the games being played in the filter, each with its status, score and
 * displayed quotes), kept right by the protocol's rules, and events for each change.
 */
export interface LiveFeed {
  /** A copy of the current state. */
  readonly state: LiveState;
  readonly status: LiveStatus;
  /** Resolves once the first snapshot is applied (rejects when the connection is refused first). */
  readonly ready: Promise<LiveState>;
  on<E extends keyof LiveEvents>(event: E, listener: LiveEvents[E]): () => void;
  /** Stops following (no reconnect). */
  close(): void;
}

/** What a transport adapter calls on the feed, and what it may ask of it. */
export interface LiveSink {
  book: LiveBook;
  snapshot(payload: LiveSnapshotPayload): void;
  /** Applies or ignores the delta; returns 'resync' when the adapter must resync. */
  delta(payload: LiveDeltaPayload): 'apply' | 'ignore' | 'resync';
  error(error: LiveError): void;
  status(status: LiveStatus): void;
}

export interface Transport {
  close(): void;
}

export interface Endpoint {
  baseUrl: string;
  apiKey: string;
}

/** Opens the live helper on `endpoint` (OddsClient.live calls it). */
export function connectLive(endpoint: Endpoint, options: LiveOptions = {}): LiveFeed {
  const book = new LiveBook();
  const listeners: { [E in keyof LiveEvents]: Set<LiveEvents[E]> } = { change: new Set(), error: new Set(), status: new Set() };
  const emit = <E extends keyof LiveEvents>(event: E, ...args: Parameters<LiveEvents[E]>) => {
    for (const listener of listeners[event]) (listener as (...a: Parameters<LiveEvents[E]>) => void)(...args);
  };
  let status: LiveStatus = 'connecting';
  let closed = false;
  let settle!: { resolve: (s: LiveState) => void; reject: (e: Error) => void; done: boolean };
  const ready = new Promise<LiveState>((resolve, reject) => (settle = { resolve, reject, done: false }));
  // A caller that never awaits `ready` gets no unhandled rejection: errors also go to 'error'.
  ready.catch(() => {});

  let transport: Transport | null = null;
  const sink: LiveSink = {
    book,
    snapshot(payload) {
      if (closed) return;
      if (!payload.success) return sink.error(new LiveError(payload.error ?? 'live updates stopped', false));
      const stream = payload.stream ?? 'snapshot';
      const seq = payload.seq ?? -1;
      const change = book.replace((payload.data ?? []) as Record<string, unknown>[], stream, seq);
      emit('change', { kind: 'snapshot', reason: payload.reason ?? 'snapshot', stream, seq, ...change });
      if (!settle.done) {
        settle.done = true;
        settle.resolve(book.state());
      }
      sink.status('live');
    },
    delta(payload) {
      if (closed) return 'ignore';
      const verdict = book.verdict(payload);
      if (verdict !== 'apply') return verdict;
      const change = book.apply(payload);
      emit('change', { kind: 'delta', reason: 'change', stream: payload.stream, seq: payload.seq, ...change });
      return verdict;
    },
    error(error) {
      if (closed) return;
      if (!settle.done && error.fatal) {
        settle.done = true;
        settle.reject(error);
      }
      emit('error', error);
      if (error.fatal) feed.close();
    },
    status(next) {
      if (closed || status === next) return;
      status = next;
      emit('status', next);
    },
  };

  const feed: LiveFeed = {
    get state() {
      return book.state();
    },
    get status() {
      return status;
    },
    ready,
    on(event, listener) {
      listeners[event].add(listener);
      return () => void listeners[event].delete(listener);
    },
    close() {
      if (closed) return;
      transport?.close();
      status = 'closed';
      emit('status', 'closed');
      closed = true;
      if (!settle.done) {
        settle.done = true;
        settle.reject(new LiveError('closed before the first snapshot', true));
      }
    },
  };
  transport = (options.transport ?? 'socket.io') === 'sse' ? followSse(endpoint, options, sink) : followSocketIo(endpoint, options, sink);
  return feed;
}
