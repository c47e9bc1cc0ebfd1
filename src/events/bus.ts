import { EventEmitter } from 'node:events';
import Redis from 'ioredis';

/**
 * The change shape, declared once: the quotes of one game, market and book, of which at least one
 * moved, appeared or was withdrawn. (src/db's ChangeSet returns the same shape; db may not import
 * events, so it is structurally the same type.)
 */
export interface MarketChange {
  gameId: number;
  marketType: string;
  bookId: number;
}

/**
 * What one ingested document changed: published after its transaction commits, once per document
 * (one ingest = one event, so a subscriber gets the changes of one ingest together). It carries keys,
 * not values: each API process reads the current rows of those keys once per event (src/services/
 * live-streams.ts), whatever the number of subscribers.
 */
export interface OddsChangeEvent {
  /** When the document was seen (its fetched_at, or the time of ingest). */
  at: string;
  /** Games whose row, status, score or clock changed. */
  games: number[];
  /** Quotes that moved, appeared or were withdrawn, per game, market and book. */
  markets: MarketChange[];
  /**
   * The ingest counter's value that committed the change (src/db/change-log.ts): the global sequence
   * of the resumable odds stream. Absent on `missed` events and from publishers that predate it.
   */
  version?: number;
  /** How many quotes the commit wrote (moved, appeared or withdrawn): the ingest metrics' count. */
  quotes?: number;
  /**
   * Events may have been lost (the Redis connection was down): treat everything as changed. Sent
   * by each process to itself when its Redis subscription comes back.
   */
  missed?: boolean;
}

/**
 * An API key or account changed (revoked, plan, expiry, status): every process drops what it holds
 * for it. Absent fields mean "any": `{}` drops every cached key.
 */
export interface KeyChangeEvent {
  keyId?: string;
  accountId?: string;
}

/**
 * Line-movement signals (docs/signals.md) the ingest stored after a capture: new events, and leaders
 * whose followers changed. Like odds events it carries keys, not values: each API process reads the
 * stored rows once per event (src/graphql/resolvers/SignalEvents.ts).
 */
export interface SignalsEvent {
  /** When the capture that showed them was seen. */
  at: string;
  signals: Array<{ key: string; kind: string; gameId: number; marketType: string }>;
}

/** The topics of the bus and what each carries. */
export interface BusTopics {
  /** A committed ingest's changes. */
  odds: OddsChangeEvent;
  /** A key or account change that every process must apply at once. */
  keys: KeyChangeEvent;
  /** Signals stored after a capture (published after the capture's own odds event). */
  signals: SignalsEvent;
}

export type BusTopic = keyof BusTopics;

/** The bus between ingest, admin changes and every process: in-process, or Redis pub/sub across processes. */
export interface EventBus {
  publish<T extends BusTopic>(topic: T, event: BusTopics[T]): Promise<void>;
  /** Calls `handler` for every event of `topic` published from now on, by any process; returns unsubscribe. */
  subscribe<T extends BusTopic>(topic: T, handler: (event: BusTopics[T]) => void): () => void;
  close(): Promise<void>;
}

/** Redis channel per topic. */
const CHANNELS: Record<BusTopic, string> = { odds: 'odds:changes', keys: 'odds:keys', signals: 'odds:signals' };

/** A bus for one process: events reach subscribers of this process only. */
export function createLocalBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(topic, event) {
      emitter.emit(topic, event);
    },
    subscribe(topic, handler) {
      emitter.on(topic, handler);
      return () => emitter.off(topic, handler);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

/**
 * A bus over Redis pub/sub: every API process sharing the Redis gets the events of whichever
 * process publishes. Local subscribers hear events through Redis too, so all processes see one order.
 */
export async function createRedisBus(url: string, onError: (error: Error) => void = () => {}): Promise<EventBus> {
  // No offline queue: while Redis is down a publish fails at once (and is delivered locally)
  // instead of holding the ingest that awaits it.
  const publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  const subscriber = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true });
  publisher.on('error', onError);
  subscriber.on('error', onError);
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const local = createLocalBus();
  const topicOf = new Map(Object.entries(CHANNELS).map(([topic, channel]) => [channel, topic as BusTopic]));
  await subscriber.subscribe(...Object.values(CHANNELS));
  subscriber.on('message', (channel: string, message: string) => {
    const topic = topicOf.get(channel);
    if (!topic) return;
    try {
      void local.publish(topic, JSON.parse(message) as BusTopics[typeof topic]);
    } catch (error) {
      onError(error as Error);
    }
  });
  // ioredis resubscribes on reconnect; whatever was published meanwhile never arrives, so this
  // process assumes everything changed: caches drop, keys are verified again, live streams resync.
  let lost = false;
  subscriber.on('close', () => (lost = true));
  subscriber.on('ready', () => {
    if (!lost) return;
    lost = false;
    void local.publish('odds', { at: new Date().toISOString(), games: [], markets: [], missed: true });
    void local.publish('keys', {});
  });
  return {
    async publish(topic, event) {
      try {
        await publisher.publish(CHANNELS[topic], JSON.stringify(event));
      } catch (error) {
        // Redis unreachable: the commit stands; this process's own subscribers still hear it, and
        // the others catch up when their subscription returns (above).
        onError(error as Error);
        await local.publish(topic, event);
      }
    },
    subscribe: local.subscribe,
    async close() {
      await local.close();
      // A graceful QUIT lets a command in flight finish first: after a reconnect ioredis re-subscribes
      // by itself and nobody awaits that promise, so disconnect() would reject it unhandled.
      // A client that is not connected has nothing in flight: it is just dropped.
      // Right after a reconnect, the subscriber may still hold ioredis's own re-SUBSCRIBE in its queue
      // (its promise has no handler): a QUIT written before it would close the connection under it,
      // and the flushed command would reject unhandled ("Connection is closed.", which ends a process).
      // A PING queues behind it: once answered, nothing of ioredis's is left in flight. And a subscriber
      // still connecting must not queue one once its connection is ready: it is being closed.
      subscriber.options.autoResubscribe = false;
      if (subscriber.status === 'ready') await subscriber.ping().catch(() => {});
      await Promise.all(
        [subscriber, publisher].map(async (client) => {
          if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
          else client.disconnect();
        }),
      );
    },
  };
}
