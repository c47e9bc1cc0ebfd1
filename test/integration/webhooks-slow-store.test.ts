import { ingestDocuments } from '../../src/ingest/ingest';
import { createLogger } from '../../src/logger';
import { startWebhookWorker } from '../../src/webhooks/worker';
import { startTestApp, type TestApp } from '../support/app';
import { describeWithPostgres } from '../support/database';
import { doc, readSeries } from '../support/feeds';
import { WebhookReceiver } from '../support/webhook-receiver';
import { waitFor } from './live-helpers';

// The sender stores each evaluated batch's deliveries in one transaction (src/db/webhook-repository.ts).
// On a loaded machine, storing a busy feed's batch took longer than Prisma's default 5 s: the round
// failed, the next one stored the same batch again, and nothing was ever sent. Here the database takes
// 6 s to store the first batch (a trigger sleeps once, as a loaded machine would be slow).

describeWithPostgres('a slow store of deliveries', () => {
  let t: TestApp;
  const receiver = new WebhookReceiver();
  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_POLL_MS: '30' } });
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.kill();
    await t?.close();
  });

  test('when storing a batch of deliveries takes longer than 5 seconds, then it is stored once and its events are sent', async () => {
    const { key } = await t.createKey('elite');
    const created = await t.request('POST', '/api/v1/nba/odds/webhooks', key, { url: receiver.url, predicate: { type: 'line_move', min_cents: 1 } });
    expect(created.status).toBe(201);
    receiver.secret = created.body.data.secret;
    await t.db.prisma.$executeRawUnsafe('CREATE TABLE slept (at timestamptz)');
    await t.db.prisma.$executeRawUnsafe(`CREATE FUNCTION slow_store() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NOT EXISTS (SELECT 1 FROM slept) THEN PERFORM pg_sleep(6); INSERT INTO slept VALUES (now()); END IF; RETURN NULL; END $$`);
    await t.db.prisma.$executeRawUnsafe('CREATE TRIGGER slow_store AFTER INSERT ON "WebhookDelivery" FOR EACH STATEMENT EXECUTE FUNCTION slow_store()');
    const worker = startWebhookWorker({ db: t.db, config: t.config.webhooks, logger: createLogger(t.config), bus: t.bus });
    try {
      for (const [i, c] of readSeries('nba-2026-01-24.jsonl.gz').slice(0, 3).entries()) await ingestDocuments([doc(c.body, c.fetched_at, `capture-${i}`)], { db: t.db, bus: t.bus });
      await waitFor('a delivered line move', () => receiver.accepted.length > 0, 40_000);
      // The slow transaction committed (its sleep is recorded) and no event came twice.
      expect(await t.db.prisma.$queryRawUnsafe('SELECT count(*)::int AS n FROM slept')).toEqual([{ n: 1 }]);
      expect(new Set(receiver.accepted).size).toBe(receiver.accepted.length);
    } finally {
      await worker.stop();
    }
  }, 90_000);
});
