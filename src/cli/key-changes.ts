import type { Config } from '../config';
import { createRedisBus, type KeyChangeEvent } from '../events/bus';

/**
 * Announces a key or account change to running API processes, which drop the key at once. Through
 * Redis when REDIS_URL is set; without Redis no other process can be told (with the embedded store
 * none can be running; with DATABASE_URL alone, servers see the change within their key cache TTL).
 */
export async function announceKeyChange(config: Config, change: KeyChangeEvent): Promise<void> {
  if (!config.redisUrl) return;
  const bus = await createRedisBus(config.redisUrl);
  try {
    await bus.publish('keys', change);
  } finally {
    await bus.close();
  }
}
