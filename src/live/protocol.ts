import type { LiveFilter, SignalFilter } from './filter';

// The live protocol's vocabulary (docs/live-protocol.md), shared by every adapter: the messages a
// client gets (the Socket.IO events; SSE sends the same ones as its events) and the constants the
// protocol's documents name. Their payload schemas are in events.ts.

export type { LiveOddsChange } from '../services/live-deltas';

/** Namespace of the Socket.IO push channel (spec 6; no version segment, spec 9). */
export const LIVE_NAMESPACE = '/live-odds';

/**
 * How long a socket that named no filter in its handshake may take to send `subscribe` before it
 * gets the unfiltered snapshot: a client that subscribes on connect gets its filtered snapshot first.
 */
export const SUBSCRIBE_GRACE_MS = 250;

/** Why a live_odds snapshot was sent (the Socket.IO adapter: join, resync, the interval timer). */
export const SNAPSHOT_REASONS = ['snapshot', 'interval', 'resync'] as const;

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

/** The answer to `subscribe`. */
export interface SubscribeAck {
  success: boolean;
  /** The filter in force after this call. */
  filter?: LiveFilter;
  error?: string;
}

/** The answer to `subscribe_signals`. */
export interface SignalSubscribeAck {
  success: boolean;
  /** The signal filter in force after this call. */
  filter?: SignalFilter;
  error?: string;
}

/** A signal as pushed (`line_signal`): the /signals record (key, kind, game_id, market_type, period, side, at, detected_at, data). */
export type SignalPayload = Record<string, unknown>;
