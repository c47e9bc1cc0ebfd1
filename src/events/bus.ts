import { EventEmitter } from 'node:events';
import Redis from 'ioredis';

/** What one ingested document changed: published after its transaction commits. */
export interface OddsChangeEvent {
  /** When the document was seen (its fetched_at, or the time of ingest). */
  at: string;
  /** Games whose row, status, score or quotes changed. */
  games: number[];
  /** Quotes that moved, appeared or were withdrawn, per game, market and book. */
  markets: Array<{ gameId: number; marketType: string; bookId: number }>;
}

/** The bus between ingest and the live transports: in-process, or Redis pub/sub across processes. */
export interface EventBus {
  publish(event: OddsChangeEvent): Promise<void>;
  /** Calls `handler` for every event published from now on, by any process; returns unsubscribe. */
  subscribe(handler: (event: OddsChangeEvent) => void): () => void;
  close(): Promise<void>;
}

const CHANNEL = 'odds:changes';

/** A bus for one process: events reach subscribers of this process only. */
export function createLocalBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(event) {
      emitter.emit(CHANNEL, event);
    },
    subscribe(handler) {
      emitter.on(CHANNEL, handler);
      return () => emitter.off(CHANNEL, handler);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

/**
 * A bus over Redis pub/sub: every API process sharing the Redis gets the events of whichever
 * process ingests. Local subscribers hear events through Redis too, so all processes see one order.
 */
export async function createRedisBus(url: string, onError: (error: Error) => void = () => {}): Promise<EventBus> {
  const options = { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true };
  const publisher = new Redis(url, options);
  const subscriber = new Redis(url, options);
  publisher.on('error', onError);
  subscriber.on('error', onError);
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const local = createLocalBus();
  await subscriber.subscribe(CHANNEL);
  subscriber.on('message', (_channel: string, message: string) => {
    try {
      void local.publish(JSON.parse(message) as OddsChangeEvent);
    } catch (error) {
      onError(error as Error);
    }
  });
  return {
    async publish(event) {
      await publisher.publish(CHANNEL, JSON.stringify(event));
    },
    subscribe: local.subscribe,
    async close() {
      await local.close();
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
