import { startFeeds } from '../../src/ingest/feed-runner';
import { createLogger } from '../../src/logger';
import { NO_HTTP_ANSWER, sendWebhook } from '../../src/webhooks/send';
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
  // What the feed and the sender warn of, kept so that a wait that times out says where it stopped.
  const logged: string[] = [];
  const logger = createLogger({ logLevel: 'warn' }, {}, { write: (line: string) => void logged.push(line) });
  const feeds = startFeeds({
    config: t.config,
    db: t.db,
    bus: t.bus,
    logger,
    simulate: true,
    whileIngesting: () => {
      started++;
      return startWebhookWorker({ db: t.db, bus: t.bus, logger, config: t.config.webhooks });
    },
  });
  try {
    await waitFor('a delivered line move', () => receiver.accepted.length > 0, 150_000).catch(async (error: Error) => {
      const p = t.db.prisma;
      const [games, history, changes, deliveries, attempted, last] = await Promise.all([
        p.game.count(),
        p.oddsHistory.count(),
        p.changeLog.count(),
        p.webhookDelivery.count(),
        p.webhookDelivery.count({ where: { attempts: { gt: 0 } } }),
        p.webhookDelivery.findFirst({ where: { attempts: { gt: 0 } }, orderBy: { lastAttemptAt: 'desc' }, select: { status: true, lastStatus: true, lastError: true } }),
      ]);
      const stored = `games ${games}, history rows ${history}, change log entries ${changes}, deliveries ${deliveries} (${attempted} attempted, the last ${JSON.stringify(last)}), received ${receiver.received.length}`;
      throw new Error(`${error.message} (${stored}); logged: ${logged.join('') || 'nothing'}`);
    });
  } finally {
    await feeds.stop();
  }
  expect(started).toBe(1);
  expect(receiver.received.every((r) => r.verified && r.json.type === 'line_move')).toBe(true);
  expect(receiver.received[0]!.json.data.cents_moved).toBeGreaterThanOrEqual(1);
  // The simulated feed back-fills six hours before its first live move: the test may take as long as
  // its wait, not jest's default 30 s (a loaded machine took over 100 s).
}, 180_000);

describe('one attempt (src/webhooks/send.ts)', () => {
  const body = JSON.stringify({ type: 'webhook.test', timestamp: '2026-01-24T00:00:00.000Z', data: {} });
  const secret = 'whsec_' + Buffer.from('a secret of twenty-four b').toString('base64');
  const attempt = (url: string, allowPrivateTargets: boolean, timeoutMs = 2000) => sendWebhook(url, secret, 'msg_1', body, { timeoutMs, allowPrivateTargets, now: new Date() });

  test('when the target is a name, then it is resolved by the guarded lookup and the signed request arrives', async () => {
    receiver.secret = secret;
    receiver.answers = [204];
    expect(await attempt(`http://localhost:${receiver.port}/hooks`, true)).toEqual({ ok: true, status: 204, error: null });
    expect(receiver.received.at(-1)).toMatchObject({ id: 'msg_1', verified: true, body });
  });

  test('when private targets are refused, then a localhost or loopback target is not called', async () => {
    const before = receiver.received.length;
    expect(await attempt(`http://localhost:${receiver.port}/hooks`, false)).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/private/) });
    expect(await attempt(`http://127.0.0.1:${receiver.port}/hooks`, false)).toMatchObject({ ok: false, status: null });
    expect(receiver.received.length).toBe(before);
  });

  test('when the receiver redirects or never answers, then the attempt fails (no redirect followed, a deadline)', async () => {
    receiver.answers = [302];
    expect(await attempt(receiver.url, true)).toEqual({ ok: false, status: 302, error: 'HTTP 302' });
    receiver.answers = ['hang'];
    expect(await attempt(receiver.url, true, 300)).toMatchObject({ ok: false, status: null, error: NO_HTTP_ANSWER, detail: 'no answer within 300 ms' });
  });
});
