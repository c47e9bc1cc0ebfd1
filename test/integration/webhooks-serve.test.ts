import { startFeeds } from '../../src/ingest/feed-runner';
import { createLogger } from '../../src/logger';
import { startWebhookWorker } from '../../src/webhooks/worker';
import { startTestApp, type TestApp } from '../support/app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { waitFor } from './live-helpers';

// Which process sends (docs/webhooks.md): `odds serve` starts the webhook sender beside its feed
// (src/main.ts passes it to startFeeds as `whileIngesting`); a process that serves without a feed
// only manages webhooks. Here the simulated feed of `odds serve --simulate` moves prices.

let t: TestApp;
const receiver = new WebhookReceiver();

beforeAll(async () => {
  t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_POLL_MS: '30', SIMULATOR_INTERVAL_MS: '300' } });
  await receiver.start();
});
afterAll(async () => {
  await receiver.kill();
  await t?.close();
});

test('when a process serves without a feed, then it starts no sender (it only manages webhooks)', async () => {
  const whileIngesting = jest.fn(() => ({ stop: async () => {} }));
  const feeds = startFeeds({ config: t.config, db: t.db, bus: t.bus, logger: createLogger(t.config), simulate: false, whileIngesting });
  await feeds.stop();
  expect(whileIngesting).not.toHaveBeenCalled();
});

test('when the process ingests the simulated feed, then its sender delivers the signed events of the moves', async () => {
  const key = (await t.createKey('elite')).key;
  const created = await fetch(`${t.baseUrl}/api/v1/nba/odds/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiver.url, predicate: { type: 'line_move', min_cents: 1 } }),
  });
  expect(created.status).toBe(201);
  receiver.secret = ((await created.json()) as any).data.secret;
  let started = 0;
  const feeds = startFeeds({
    config: t.config,
    db: t.db,
    bus: t.bus,
    logger: createLogger(t.config),
    simulate: true,
    whileIngesting: () => {
      started++;
      return startWebhookWorker({ db: t.db, bus: t.bus, logger: createLogger(t.config), config: t.config.webhooks });
    },
  });
  try {
    await waitFor('a delivered line move', () => receiver.accepted.length > 0, 60_000);
  } finally {
    await feeds.stop();
  }
  expect(started).toBe(1);
  expect(receiver.received.every((r) => r.verified && r.json.type === 'line_move')).toBe(true);
  expect(receiver.received[0]!.json.data.cents_moved).toBeGreaterThanOrEqual(1);
});
