import { execFileSync } from 'node:child_process';
import { createRedisBus, type EventBus, type OddsChangeEvent } from '../../src/events/bus';
import { ingestDocuments } from '../../src/ingest/ingest';
import { seedReferenceData } from '../../src/ingest/seed';
import { openTestDatabase } from '../support/database';
import { freePort, startRedisServer } from '../support/redis-server';
import { capture, waitFor, type GameSpec } from './live-helpers';

// Redis is an accelerator, never a dependency of a commit: while it is down the ingesting process
// commits at its pace and its own subscribers still hear every change; other processes catch up
// when it returns (a `missed` event: everything may have changed).

let hasRedisServer = true;
try {
  execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
} catch {
  hasRedisServer = false;
  console.warn('redis-outage.test.ts skipped: no redis-server binary');
}
const describeWithRedisServer = hasRedisServer ? describe : describe.skip;

const game = (home: number): GameSpec => ({ id: 5001, status: 'inprogress', start: '2026-01-24T00:30:00.000Z', books: { 15: { spread: [home, -110, -110] } } });

describeWithRedisServer('Redis outage', () => {
  test('when Redis dies, then ingest commits without error and the ingesting process still hears its changes; when it returns, the other process is told it missed events', async () => {
    const port = await freePort();
    let redis = await startRedisServer(port);
    const buses: EventBus[] = [];
    const db = await openTestDatabase('pglite');
    try {
      await seedReferenceData(db.prisma);
      const ingester = await createRedisBus(redis.url);
      const other = await createRedisBus(redis.url);
      buses.push(ingester, other);
      const heardHere: OddsChangeEvent[] = [];
      const heardThere: OddsChangeEvent[] = [];
      ingester.subscribe('odds', (e) => heardHere.push(e));
      other.subscribe('odds', (e) => heardThere.push(e));

      await ingestDocuments([capture('2026-01-24T01:00:00.000Z', game(-3))], { db, bus: ingester });
      await waitFor('both processes hear the first ingest', () => heardHere.length === 1 && heardThere.length === 1);

      await redis.stop();
      const summary = await ingestDocuments([capture('2026-01-24T01:01:00.000Z', game(-4))], { db, bus: ingester });
      expect(summary.rejected).toBe(0);
      expect(heardHere.filter((e) => e.markets.some((m) => m.gameId === 5001))).toHaveLength(2);
      const quotes = await db.prisma.quote.findMany({ where: { gameId: 5001, side: 'home', marketType: 'spread' } });
      expect(quotes.map((q) => q.point)).toContain(-4);

      redis = await startRedisServer(port);
      await waitFor('the other process is told it missed events', () => heardThere.some((e) => e.missed === true), 5000);
    } finally {
      for (const bus of buses) await bus.close();
      await redis.stop();
      await db.close();
    }
  }, 90_000); // a Redis server killed and started again, and the clients' reconnects: 11 s alone, past 30 s at load average 10
});
