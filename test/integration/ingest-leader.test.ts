import { waitForIngestLeadership } from '../../src/db/ingest-leader';
import { describeWithPostgres, TEST_DATABASE_URL } from '../support/database';

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
