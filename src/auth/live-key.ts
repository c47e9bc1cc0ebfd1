import { hashApiKey } from '../api-keys';
import { requirePlan, verifyApiKey, type KeyLookup, type Viewer } from '../auth/viewer';
import { AppError } from '../errors';

// Key checks of the long-lived transports (graphql-ws, Socket.IO). They use the same verification as
// HTTP (src/auth/viewer.ts) and the same plan gate, and add two things a socket needs: a handshake
// failure that says which check failed, and a re-check of connected keys so that a revocation or an
// expiry ends the connection within a second (the authenticator, authenticate.ts, runs a check at once
// when the bus announces a key change, and every 500 ms against its in-memory key cache).

/** Why a socket's key check fails: connect_error's `data.reason` (docs/live-protocol.md, /api/v1/asyncapi.json). */
export const LIVE_AUTH_FAILURES = ['missing', 'invalid', 'revoked', 'expired', 'plan', 'connections'] as const;
export type LiveAuthFailure = (typeof LIVE_AUTH_FAILURES)[number];

/** The connect_error / close reason of each failure (spec 5 and 7 wording). */
export const LIVE_AUTH_MESSAGES: Readonly<Record<Exclude<LiveAuthFailure, 'plan' | 'connections'>, string>> = {
  missing: 'Unauthorized: missing API key (pass it as auth: { apiKey })',
  invalid: 'Unauthorized: invalid API key',
  revoked: 'Unauthorized: API key revoked',
  expired: 'Forbidden: subscription expired or inactive, renew to keep using the API',
};

/** A failed key check of a socket; `message` is safe to send to the client. */
export class LiveAuthError extends Error {
  constructor(
    readonly reason: LiveAuthFailure,
    message: string = LIVE_AUTH_MESSAGES[reason as Exclude<LiveAuthFailure, 'plan' | 'connections'>],
  ) {
    super(message);
    this.name = 'LiveAuthError';
  }

  /** 401 for a key problem, 403 for an account problem (spec 5.7, 5.8), 429 for too many connections. */
  get status(): 401 | 403 | 429 {
    if (this.reason === 'connections') return 429;
    return this.reason === 'expired' || this.reason === 'plan' ? 403 : 401;
  }
}

/**
 * Verifies `key` for live odds: a viewer, or a LiveAuthError saying whether the key is missing,
 * unknown (invalid), revoked, on an expired subscription, or on a plan without live odds.
 */
export async function verifyLiveKey(lookup: KeyLookup, key: unknown, now = new Date()): Promise<Viewer> {
  if (typeof key !== 'string' || key.trim() === '') throw new LiveAuthError('missing');
  let viewer: Viewer;
  try {
    viewer = await verifyApiKey(lookup, key.trim(), now);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'SUBSCRIPTION_EXPIRED') throw new LiveAuthError('expired');
    // verifyApiKey answers 401 for unknown and revoked keys alike; a socket client is told which.
    const record = await lookup(hashApiKey(key.trim()));
    throw new LiveAuthError(record?.revokedAt ? 'revoked' : 'invalid');
  }
  try {
    requirePlan(viewer, 'liveOdds', 'live odds');
  } catch (error) {
    if (error instanceof AppError) throw new LiveAuthError('plan', error.message);
    throw error;
  }
  return viewer;
}

export interface KeyWatch {
  /** Re-checks `key` every period; calls `onFailure` once when it stops passing. Returns unwatch. */
  watch(key: string, onFailure: (error: LiveAuthError) => void): () => void;
  /** Runs one round of checks now (tests; an admin revocation hook). */
  checkNow(): Promise<void>;
  close(): void;
}

/**
 * Periodic re-verification of connected keys: one lookup per distinct key per round, however many
 * sockets share it, every `intervalMs` (default 3 s) and on `checkNow()`. With the authenticator's
 * cached lookup a round reads no database, so it can run often.
 */
export function createKeyWatch(lookup: KeyLookup, options: { intervalMs?: number; now?: () => Date; onError?: (error: Error) => void } = {}): KeyWatch {
  const watchers = new Map<string, Set<(error: LiveAuthError) => void>>();
  let running: Promise<void> | null = null;
  const round = async () => {
    for (const [key, callbacks] of [...watchers]) {
      try {
        await verifyLiveKey(lookup, key, options.now?.() ?? new Date());
      } catch (error) {
        if (!(error instanceof LiveAuthError)) {
          // A database hiccup says nothing about the key: keep the sockets, try again next round.
          options.onError?.(error as Error);
          continue;
        }
        watchers.delete(key);
        for (const callback of callbacks) callback(error);
      }
    }
  };
  const checkNow = () => {
    running ??= round().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = setInterval(() => void checkNow(), options.intervalMs ?? 3000);
  timer.unref();
  return {
    watch(key, onFailure) {
      const set = watchers.get(key) ?? new Set();
      set.add(onFailure);
      watchers.set(key, set);
      return () => {
        set.delete(onFailure);
        if (set.size === 0 && watchers.get(key) === set) watchers.delete(key);
      };
    },
    checkNow,
    close() {
      clearInterval(timer);
      watchers.clear();
    },
  };
}
