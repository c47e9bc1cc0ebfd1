import { LiveAuthError } from './live-key';
import type { Plan, Viewer } from './viewer';

/** Open live connections (Socket.IO and graphql-ws together) one key may hold in one API process, by plan. */
export const DEFAULT_LIVE_CONNECTIONS: Readonly<Record<Plan, number>> = { starter: 10, pro: 100, elite: 5000 };

/**
 * Counts the live connections of each key in this process and refuses one past the plan's cap. A
 * connection holds its place from the handshake until it closes (`release`, idempotent). `onTotal`
 * hears the number of open connections of every key after each change (metrics).
 */
export function createConnectionLimiter(limits: Readonly<Record<Plan, number>> = DEFAULT_LIVE_CONNECTIONS, onTotal: (open: number) => void = () => {}) {
  const open = new Map<string, number>();
  let total = 0;
  return {
    /**
     * Takes a place for `viewer`'s key.
     * @throws LiveAuthError 'connections' when the key already holds its plan's number of connections
     */
    acquire(viewer: Viewer): () => void {
      const held = open.get(viewer.keyId) ?? 0;
      const limit = limits[viewer.plan];
      if (held >= limit) {
        throw new LiveAuthError('connections', `Too many connections: the ${viewer.plan} plan allows ${limit} live connections per API key; close one first`);
      }
      open.set(viewer.keyId, held + 1);
      onTotal(++total);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const now = (open.get(viewer.keyId) ?? 1) - 1;
        if (now > 0) open.set(viewer.keyId, now);
        else open.delete(viewer.keyId);
        onTotal(--total);
      };
    },
  };
}

export type ConnectionLimiter = ReturnType<typeof createConnectionLimiter>;
