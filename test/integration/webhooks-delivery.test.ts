import { ingestDocuments } from '../../src/ingest/ingest';
import { createLogger } from '../../src/logger';
import { startWebhookWorker, type WebhookWorker } from '../../src/webhooks/worker';
import { startTestApp, type TestApp } from '../support/app';
import { openTestDatabase } from '../support/database';
import { doc, readSeries } from '../support/feeds';
import { WebhookReceiver } from '../support/webhook-receiver';
import { waitFor } from './live-helpers';

// Deliveries to a real HTTP receiver on 127.0.0.1 (docs/webhooks.md): Standard Webhooks signatures
// verified with the `standardwebhooks` package, retries after failures and after the receiver was
// killed mid-delivery, and no pending delivery lost when the service restarts. The ingesting
// process's part (the feed and the webhook sender) is played by ingestDocuments and
// startWebhookWorker, as src/main.ts runs them; prices move with the recorded captures of 2026-01-24.

const BASE = '/api/v1/nba/odds/webhooks';
const series = readSeries('nba-2026-01-24.jsonl.gz');
let next = 0;
/** Ingests the next `n` recorded captures, announcing each commit on the app's bus. */
async function ingestNext(app: TestApp, n: number): Promise<void> {
  for (let i = 0; i < n; i++, next++) await ingestDocuments([doc(series[next]!.body, series[next]!.fetched_at, `capture-${next}`)], { db: app.db, bus: app.bus });
}

// Retries in milliseconds instead of minutes, so the backoff runs its course within a test.
const ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_BASE_MS: '40', WEBHOOK_RETRY_MAX_MS: '200', WEBHOOK_TIMEOUT_MS: '3000', WEBHOOK_POLL_MS: '30' };

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let t: TestApp;
let worker: WebhookWorker;
let key: string;
/** The webhook of the first test, whose delivered events are aged past the log's retention before the restart. */
let firstHook = 0;

function startServer(): Promise<TestApp> {
  return startTestApp({ db, env: ENV });
}
function startWorker(app: TestApp): WebhookWorker {
  return startWebhookWorker({ db: app.db, config: app.config.webhooks, logger: createLogger(app.config), bus: app.bus });
}
const send = (method: string, path: string, body?: unknown) => t.request(method, path, key, body);
async function register(receiver: WebhookReceiver, predicate: Record<string, unknown>): Promise<number> {
  const created = await send('POST', BASE, { url: receiver.url, predicate });
  expect(created.status).toBe(201);
  receiver.secret = created.body.data.secret;
  return created.body.data.id;
}
/** Every delivery of a webhook's log (newest first). */
async function log(id: number): Promise<any[]> {
  const res = await send('GET', `${BASE}/${id}/deliveries?limit=1000`);
  expect(res.status).toBe(200);
  return res.body.data;
}
/** True once the sender has evaluated every committed ingest (its cursor is at the ingest counter). */
async function caughtUp(): Promise<boolean> {
  const [cursor, ingest] = await Promise.all([db.prisma.webhookCursor.findUnique({ where: { id: 1 } }), db.prisma.ingestState.findUnique({ where: { id: 1 } })]);
  return cursor !== null && cursor.version >= (ingest?.version ?? 0n);
}
/** Waits until the sender has evaluated every ingest, the webhook has stored deliveries and none is pending. */
async function settled(id: number, timeoutMs = 20_000): Promise<any[]> {
  let deliveries: any[] = [];
  const started = Date.now();
  for (;;) {
    deliveries = (await caughtUp()) ? await log(id) : [];
    if (deliveries.length && deliveries.every((d) => d.status !== 'pending')) return deliveries;
    if (Date.now() - started > timeoutMs) throw new Error(`deliveries of webhook ${id} still pending: ${JSON.stringify(deliveries.filter((d) => d.status === 'pending').slice(0, 2))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
/** The receiver got every delivery of the log, accepted each webhook-id exactly once, with valid signatures. */
function expectExactlyOnce(receiver: WebhookReceiver, deliveries: any[]): void {
  expect(deliveries.every((d) => d.status === 'delivered')).toBe(true);
  const accepted = receiver.accepted;
  expect(new Set(accepted).size).toBe(accepted.length);
  expect(new Set(accepted)).toEqual(new Set(deliveries.map((d) => d.webhook_id)));
  expect(receiver.received.every((r) => r.verified)).toBe(true);
}

beforeAll(async () => {
  db = await openTestDatabase();
  t = await startServer();
  key = (await t.createKey('pro')).key;
  // The first capture is there before any webhook: the sender starts from it.
  await ingestNext(t, 1);
  worker = startWorker(t);
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await t?.close();
  await db?.close();
});

describe('webhooks: delivering', () => {
  const receivers: WebhookReceiver[] = [];
  const receiver = async () => {
    const r = new WebhookReceiver();
    await r.start();
    receivers.push(r);
    return r;
  };
  afterAll(async () => {
    for (const r of receivers) await r.kill();
  });

  test('when a test event is sent, then the receiver verifies its Standard Webhooks signature and the log shows it delivered', async () => {
    const r = await receiver();
    const id = await register(r, { type: 'status_change', game_id: 1 });
    firstHook = id;
    const asked = await send('POST', `${BASE}/${id}/test`);
    expect(asked.status).toBe(201);
    const [delivery] = await settled(id);
    expect(r.received).toHaveLength(1);
    const got = r.received[0]!;
    expect(got.verified).toBe(true);
    expect(got.id).toBe(asked.body.data.webhook_id);
    expect(got.signature).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(Math.abs(Number(got.timestamp) - Date.now() / 1000)).toBeLessThan(600);
    expect(got.json).toEqual({ type: 'webhook.test', timestamp: asked.body.data.payload.timestamp, data: { webhook_id: id, message: expect.any(String) } });
    expect(delivery).toMatchObject({ webhook_id: got.id, status: 'delivered', attempts: 1, last_status: 200, last_error: null });
    expect(delivery.delivered_at).not.toBeNull();
    // A body altered in transit fails verification with the same headers (the check is real).
    r.secret = 'whsec_' + Buffer.from('another secret of 24 bytes!').toString('base64');
    r.answers = [200];
    await send('POST', `${BASE}/${id}/test`);
    await settled(id);
    expect(r.received[1]!.verified).toBe(false);
  });

  test('when the receiver fails then recovers, then the event is retried with the same webhook-id and delivered once', async () => {
    const r = await receiver();
    const id = await register(r, { type: 'status_change', game_id: 1 });
    r.answers = [500, 503, 500];
    const asked = await send('POST', `${BASE}/${id}/test`);
    const [delivery] = await settled(id);
    expect(r.received.map((x) => [x.id, x.answered])).toEqual([
      [asked.body.data.webhook_id, 500],
      [asked.body.data.webhook_id, 503],
      [asked.body.data.webhook_id, 500],
      [asked.body.data.webhook_id, 200],
    ]);
    // Every attempt carries the same body; only the timestamp and its signature may differ.
    expect(new Set(r.received.map((x) => x.body)).size).toBe(1);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 4, last_status: 200, last_error: null });
    expectExactlyOnce(r, [delivery]);
  });

  test('when ingests move lines and change statuses, then each matching change is one signed event with its figures', async () => {
    const moves = await receiver();
    const statuses = await receiver();
    const moveId = await register(moves, { type: 'line_move', min_cents: 15, market_type: 'moneyline' });
    const statusId = await register(statuses, { type: 'status_change' });
    await ingestNext(t, 6);
    const moved = await settled(moveId);
    const changed = await settled(statusId);
    expectExactlyOnce(moves, moved);
    expectExactlyOnce(statuses, changed);
    for (const d of moved) {
      expect(d.event_type).toBe('line_move');
      const data = d.payload.data;
      expect(data.market_type).toBe('moneyline');
      expect(data.cents_moved).toBeGreaterThanOrEqual(15);
      expect(data.american).not.toBe(data.previous_american);
    }
    for (const d of changed) {
      expect(d.event_type).toBe('status_change');
      expect(d.payload.data.status).not.toBe(d.payload.data.previous_status);
    }
    // A game's last reported status is its status now: every change was reported, in order.
    const byVersion = [...changed].sort((a, b) => a.payload.data.version - b.payload.data.version);
    const last = byVersion.filter((d) => d.payload.data.game_id === changed[0].payload.data.game_id).at(-1)!;
    const game = await fetch(`${t.baseUrl}/api/v1/nba/odds/games/${last.payload.data.game_id}?include_markets=false&include_boxscore=false`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await game.json()) as any).data.status).toBe(last.payload.data.status);
  });

  test('when an EV threshold and arbitrage are watched, then only prices at or above it and real arbitrages fire', async () => {
    const r = await receiver();
    const arbs = await receiver();
    const id = await register(r, { type: 'ev', min_ev_per_100: 1, devig: 'multiplicative' });
    const arbId = await register(arbs, { type: 'arbitrage' });
    await ingestNext(t, 6);
    const deliveries = await settled(id);
    expectExactlyOnce(r, deliveries);
    for (const d of deliveries) {
      expect(d.payload.data).toMatchObject({ devig_method: 'multiplicative' });
      expect(d.payload.data.ev_per_100).toBeGreaterThanOrEqual(1);
    }
    const arbitrages = await settled(arbId);
    expectExactlyOnce(arbs, arbitrages);
    for (const d of arbitrages) {
      const { legs, profit_percentage, total_implied_probability } = d.payload.data;
      expect(legs).toHaveLength(2);
      // Two complementary sides whose implied probabilities sum below 1: a locked profit.
      expect(legs[0].side).not.toBe(legs[1].side);
      const implied = legs.reduce((sum: number, leg: any) => sum + 1 / leg.decimal, 0);
      expect(implied).toBeCloseTo(total_implied_probability, 3);
      expect(implied).toBeLessThan(1);
      expect(profit_percentage).toBeGreaterThan(0);
    }
  });

  test('when the receiver is killed during delivery and restarted, then it gets every event exactly once by webhook-id', async () => {
    const r = await receiver();
    const id = await register(r, { type: 'line_move', min_cents: 5 });
    // The first request kills the receiver before it answers (server closed, every socket destroyed).
    r.answers = ['die'];
    await ingestNext(t, 6);
    await waitFor('the receiver to be killed mid-delivery', () => r.received.some((x) => x.answered === null), 20_000);
    // While it is down, attempts fail (connection refused) and are retried later.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await r.start();
    const deliveries = await settled(id, 30_000);
    expect(deliveries.length).toBeGreaterThan(1);
    expectExactlyOnce(r, deliveries);
    const killed = r.received.find((x) => x.answered === null)!;
    expect(r.accepted).toContain(killed.id);
    expect(deliveries.find((d) => d.webhook_id === killed.id).attempts).toBeGreaterThan(1);
  });

  test('when the service stops with pending deliveries and starts again on the same database, then none is lost', async () => {
    const r = await receiver();
    const id = await register(r, { type: 'line_move', min_cents: 5 });
    const testId = await register(r, { type: 'status_change', game_id: 1 });
    // The receiver is down: attempts fail and the deliveries stay pending.
    await r.kill();
    const asked = [];
    for (let i = 0; i < 3; i++) asked.push((await send('POST', `${BASE}/${testId}/test`)).body.data.webhook_id);
    const started = Date.now();
    for (;;) {
      const pending = await log(testId);
      if (pending.every((d) => d.attempts >= 1 && d.status === 'pending')) break;
      if (Date.now() - started > 10_000) throw new Error('attempts did not fail');
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    // The first webhook's delivered events are made 31 days old: the restarted sender prunes them.
    expect((await log(firstHook)).length).toBe(2);
    await db.prisma.webhookDelivery.updateMany({ where: { webhookId: firstHook }, data: { createdAt: new Date(Date.now() - 31 * 86_400_000) } });
    // Restart: the sender and the API stop; captures are ingested while no sender runs.
    await worker.stop();
    await t.close();
    t = await startServer();
    await ingestNext(t, 20);
    worker = startWorker(t);
    await r.start();
    const tests = await settled(testId, 30_000);
    expect(tests.map((d) => d.webhook_id).sort()).toEqual([...asked].sort());
    const changes = await settled(id, 30_000);
    expect(changes.length).toBeGreaterThan(0);
    // One receiver, two webhooks of one key: each id once, each signature valid for its own webhook.
    const accepted = r.accepted;
    expect(new Set(accepted).size).toBe(accepted.length);
    expect(new Set(accepted)).toEqual(new Set([...tests, ...changes].map((d) => d.webhook_id)));
    expect([...tests, ...changes].every((d) => d.status === 'delivered')).toBe(true);
    expect(await log(firstHook)).toEqual([]);
  });
});
