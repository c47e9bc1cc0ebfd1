import type { EventBus } from './bus';

/**
 * The data version: a number every response cache keys on. It advances when an ingest commits (an
 * 'odds' event on the bus, from this process or another), when the ingest has stored signals after
 * it (a 'signals' event), and when what follows the clock actually
 * changes: the clock state (e.g. the league's local date and how many quotes are old enough to be
 * flagged stale) is read at a coarse tick and the version advances only when it differs from the
 * last reading. Between two advances every read of the same request gives the same bytes.
 */
export interface DataVersion {
  readonly current: number;
  /** Calls `handler` after each advance; returns unsubscribe. */
  onAdvance(handler: (version: number) => void): () => void;
  /** Reads the clock state now (tests; the tick does it on its own). */
  checkClock(): Promise<void>;
  close(): void;
}

export interface DataVersionOptions {
  /**
   * A fingerprint of everything the clock decides in a response: equal fingerprints promise equal
   * responses for equal data. Evaluated at each tick and after each ingest.
   */
  clockState?: () => string | Promise<string>;
  /** Period of the clock tick, ms (default 1000). */
  tickMs?: number;
  onError?: (error: unknown) => void;
}

export function createDataVersion(bus: EventBus, options: DataVersionOptions = {}): DataVersion {
  let current = 0;
  let lastClock: string | undefined;
  let closed = false;
  let checking: Promise<void> | null = null;
  const handlers = new Set<(version: number) => void>();
  const advance = () => {
    current++;
    for (const handler of [...handlers]) handler(current);
  };
  const readClock = async () => {
    if (!options.clockState || closed) return;
    try {
      const state = await options.clockState();
      if (lastClock !== undefined && state !== lastClock && !closed) advance();
      lastClock = state;
    } catch (error) {
      options.onError?.(error);
    }
  };
  const checkClock = () => {
    checking ??= readClock().finally(() => {
      checking = null;
    });
    return checking;
  };
  const unsubscribe = bus.subscribe('odds', () => {
    if (closed) return;
    advance();
    // The ingest reset the clock-driven flags of what it touched: take the new state as the base.
    void checkClock();
  });
  // Signals (read by /signals and /live/movement's labels) are announced after their capture's 'odds'
  // event; the ingest commits them with its prices (src/ingest/signals.ts), but a 'signals' event
  // alone still means cached bytes that read them are out of date.
  const unsubscribeSignals = bus.subscribe('signals', () => {
    if (!closed) advance();
  });
  void checkClock();
  const timer = options.clockState ? setInterval(() => void checkClock(), options.tickMs ?? 1000) : null;
  timer?.unref();
  return {
    get current() {
      return current;
    },
    onAdvance(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    checkClock,
    close() {
      closed = true;
      unsubscribe();
      unsubscribeSignals();
      if (timer) clearInterval(timer);
      handlers.clear();
    },
  };
}
