import { Client } from 'pg';

/** Session advisory lock held by the one process that ingests into a shared PostgreSQL database. */
const LEADER_LOCK_ID = 7_243_002;

export interface IngestLeadership {
  /** Resolves once this process holds the lock (at once when it is free). */
  acquired: Promise<void>;
  /**
   * Resolves if the lock's connection closes while held and not released (a database restart, an
   * administrator's terminate): the session, and with it the lock, is gone, and another process may
   * take over. Never resolves otherwise.
   */
  lost: Promise<void>;
  /** Gives the lock up (or stops waiting for it). */
  release(): Promise<void>;
}

/**
 * Waits to become the ingesting process of a shared PostgreSQL database: a session advisory lock on
 * a connection of its own, tried every `retryMs`, so that when the leader stops or dies (its
 * connection closes) another process takes over. Serving processes never need it.
 */
export function waitForIngestLeadership(databaseUrl: string, retryMs = 15_000, onWaiting: () => void = () => {}): IngestLeadership {
  let client: Client | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: () => void = () => {};
  let markLost: () => void = () => {};
  const lost = new Promise<void>((resolve) => (markLost = resolve));

  const acquired = (async () => {
    let told = false;
    while (!stopped) {
      const attempt = new Client({ connectionString: databaseUrl });
      // A connection cut while idle emits 'error': unhandled, it would end the process. Its end is
      // what tells (below).
      attempt.on('error', () => {});
      try {
        await attempt.connect();
        const { rows } = await attempt.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [LEADER_LOCK_ID]);
        if (rows[0]?.ok) {
          client = attempt; // kept open: the session holds the lock
          attempt.on('end', () => {
            if (!stopped) markLost();
          });
          if (stopped) await attempt.end();
          return;
        }
      } catch {
        // Unreachable for now: keep trying, as a follower would.
      }
      await attempt.end().catch(() => {});
      if (!told) onWaiting();
      told = true;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, retryMs);
      });
    }
    throw new Error('stopped before becoming the ingesting process');
  })();
  acquired.catch(() => {});

  return {
    acquired,
    lost,
    async release() {
      stopped = true;
      if (timer) clearTimeout(timer);
      wake();
      // Closing the session releases the lock.
      await client?.end().catch(() => {});
    },
  };
}
