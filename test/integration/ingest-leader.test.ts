import { loadConfig } from '../../src/config';
import { waitForIngestLeadership } from '../../src/db/ingest-leader';
import { createLocalBus } from '../../src/events/bus';
import { startFeeds } from '../../src/ingest/feed-runner';
import { seedReferenceData } from '../../src/ingest/seed';
import { createLogger } from '../../src/logger';
import { describeWithPostgres, openTestDatabase, TEST_DATABASE_URL } from '../support/database';
import { waitFor } from './live-helpers';

describeWithPostgres('one ingesting process per PostgreSQL database', () => {
  test('when a second process asks while the first ingests, then it waits, and it takes over once the first stops', async () => {
    const url = TEST_DATABASE_URL!;
    const first = waitForIngestLeadership(url, 50);
    await first.acquired;
    let waiting = false;
    let secondLeads = false;
    const second = waitForIngestLeadership(url, 50, () => (waiting = true));
    void second.acquired.then(() => (secondLeads = true));
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(waiting).toBe(true);
      expect(secondLeads).toBe(false);
      await first.release();
      await second.acquired;
      expect(secondLeads).toBe(true);
    } finally {
      await first.release();
      await second.release();
    }
  });

  test('when the leader\'s lock connection is cut, then its feed stops without ending the process, and goes on once it holds the lock again', async () => {
    const db = await openTestDatabase('postgres');
    const bus = createLocalBus();
    try {
      await seedReferenceData(db.prisma);
      const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: 'memory://', DATABASE_URL: db.url, SIMULATOR_INTERVAL_MS: '200' });
      const warned: string[] = [];
      const logger = createLogger({ logLevel: 'warn' }, {}, { write: (line: string) => void warned.push(line) });
      const feeds = startFeeds({ config, db, bus, logger, simulate: true });
      let captures = 0;
      bus.subscribe('odds', () => captures++);
      try {
        await waitFor('the simulated feed ingesting', () => captures > 0, 30_000);
        // The lock's session cut, as a database restart or an administrator would: unhandled, the
        // connection's error ended the process.
        const cut = await db.prisma.$queryRawUnsafe<Array<{ ok: boolean }>>(
          "SELECT pg_terminate_backend(pid) AS ok FROM pg_locks WHERE locktype = 'advisory' AND objid = 7243002 AND granted",
        );
        expect(cut).toEqual([{ ok: true }]);
        await waitFor('the loss told', () => warned.some((line) => line.includes('feeds stopped until this process holds the lock again')), 10_000);
        // No other process wanted the lock: it is taken back, and the feed goes on.
        const before = captures;
        await waitFor('ingesting again', () => captures > before, 30_000);
      } finally {
        await feeds.stop();
      }
    } finally {
      await bus.close();
      await db.close();
    }
  }, 90_000);

  test('when a waiting process is stopped, then it never becomes the leader', async () => {
    const url = TEST_DATABASE_URL!;
    const leader = waitForIngestLeadership(url, 50);
    await leader.acquired;
    const follower = waitForIngestLeadership(url, 50);
    await follower.release();
    await expect(follower.acquired).rejects.toThrow(/stopped/);
    await leader.release();
  });
});
