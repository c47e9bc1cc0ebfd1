import { ingestDocuments } from '../../src/ingest/ingest';
import { createLogger } from '../../src/logger';
import { startWebhookWorker, type WebhookWorker } from '../../src/webhooks/worker';
import { startTestApp, type TestApp } from '../support/app';
import { openTestDatabase } from '../support/database';
import { doc, readSeries } from '../support/feeds';
import { WebhookReceiver } from '../support/webhook-receiver';

// The steam, reverse_line_movement and middle predicates (issue 23; docs/webhooks.md): their
// filters, the 400 for every bad value, and deliveries to a real receiver while the recorded captures
// of 2026-01-24 are ingested on the app's bus (as src/main.ts runs the ingest and the sender). Steam
// and RLM deliveries are the signals the ingest stored (GET /signals); middle deliveries are the
// middles of bettable prices (GET /markets/middles).

const BASE = '/api/v1/nba/odds';
const series = readSeries('nba-2026-01-24.jsonl.gz');
/** The evening's last captures and the next morning's first ones: steam, RLM and middles on several games. */
const CAPTURES = series.slice(0, 14);
const ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_BASE_MS: '40', WEBHOOK_RETRY_MAX_MS: '200', WEBHOOK_TIMEOUT_MS: '3000', WEBHOOK_POLL_MS: '30' };

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let t: TestApp;
let worker: WebhookWorker;
let key: string;
const receivers: WebhookReceiver[] = [];

const send = (method: string, path: string, body?: unknown) => t.request(method, path, key, body);

/** Every delivery of a webhook's log. */
async function log(id: number): Promise<any[]> {
  const res = await send('GET', `${BASE}/webhooks/${id}/deliveries?limit=1000`);
  expect(res.status).toBe(200);
  return res.body.data;
}

/** True once the sender has evaluated every ingest and every stored signal, and nothing is pending. */
async function settled(): Promise<boolean> {
  const [cursors, ingest, lastSignal, pending] = await Promise.all([
    db.prisma.webhookCursor.findMany(),
    db.prisma.ingestState.findUnique({ where: { id: 1 } }),
    db.prisma.lineSignal.aggregate({ _max: { id: true } }),
    db.prisma.webhookDelivery.count({ where: { status: 'pending' } }),
  ]);
  const at = (id: number) => cursors.find((c) => c.id === id)?.version ?? -1n;
  return at(1) >= (ingest?.version ?? 0n) && at(2) >= (lastSignal._max.id ?? 0n) && pending === 0;
}

beforeAll(async () => {
  db = await openTestDatabase();
  t = await startTestApp({ db, env: ENV });
  key = (await t.createKey('pro')).key;
  // The first capture is there before any webhook: the sender starts from it.
  await ingestDocuments([doc(CAPTURES[0]!.body, CAPTURES[0]!.fetched_at, 'capture-0')], { db: t.db, bus: t.bus });
  worker = startWebhookWorker({ db: t.db, config: t.config.webhooks, logger: createLogger(t.config), bus: t.bus });
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  for (const r of receivers) await r.kill();
  await t?.close();
  await db?.close();
});

describe('webhooks: steam, reverse_line_movement and middle predicates', () => {
  test('when a predicate has a bad value or a field of another type, then a 400 names the field and what is allowed', async () => {
    const url = 'https://example.com/hook';
    for (const [predicate, message] of [
      [{ type: 'steam', min_books: 1 }, /predicate.min_books: must be an integer from 2 to 50/],
      [{ type: 'steam', min_books: 2.5 }, /predicate.min_books/],
      [{ type: 'steam', min_books: '3' }, /predicate.min_books/],
      [{ type: 'steam', min_tickets_percent: 70 }, /predicate.min_tickets_percent: is not a field of a steam predicate/],
      [{ type: 'steam', min_points: 0.1 }, /predicate.min_points: must be a number from 0.5 to 100/],
      [{ type: 'steam', min_cents: 0 }, /predicate.min_cents: must be an integer from 1 to 10000/],
      [{ type: 'steam', book_id: 15 }, /predicate.book_id: is not a field of a steam predicate/],
      [{ type: 'reverse_line_movement', min_tickets_percent: 40 }, /predicate.min_tickets_percent: must be a number from 50 to 100/],
      [{ type: 'reverse_line_movement', min_tickets_percent: 101 }, /predicate.min_tickets_percent/],
      [{ type: 'reverse_line_movement', min_window: 2 }, /predicate.min_window: is not a field of a reverse_line_movement predicate/],
      [{ type: 'middle', market_type: 'moneyline' }, /predicate.market_type: must be one of spread, total for a middle predicate/],
      [{ type: 'middle', min_window: 0 }, /predicate.min_window: must be a number of points from 0.5 to 100/],
      [{ type: 'middle', min_window: 'wide' }, /predicate.min_window/],
      [{ type: 'middle', min_ev_per_100: 500 }, /predicate.min_ev_per_100: must be a number from -100 to 100/],
      [{ type: 'middle', min_books: 3 }, /predicate.min_books: is not a field of a middle predicate/],
      [{ type: 'middle', devig: 'power' }, /predicate.devig: is not a field of a middle predicate/],
      [{ type: 'middle', min_ev_per_100: Number.MAX_VALUE }, /predicate.min_ev_per_100/],
      [{ type: 'middle', min_window: null }, /predicate.min_window/],
    ] as const) {
      const res = await send('POST', `${BASE}/webhooks`, { url, predicate });
      expect([JSON.stringify(predicate), res.status]).toEqual([JSON.stringify(predicate), 400]);
      expect(res.body.error).toMatch(message);
    }
    // GraphQL refuses with the same words.
    const gql = await t.graphql(`mutation { createWebhook(input: { url: "${url}", predicate: { type: MIDDLE, marketType: MONEYLINE } }) { id } }`, {}, key);
    expect(gql.body.errors[0].message).toMatch(/predicate.market_type: must be one of spread, total/);
  });

  test('when the captures are ingested, then each predicate delivers exactly the stored signals or middles it picks, signed, with their figures', async () => {
    const hooks: Record<string, { id: number; receiver: WebhookReceiver }> = {};
    const register = async (name: string, predicate: Record<string, unknown>) => {
      const receiver = new WebhookReceiver();
      await receiver.start();
      receivers.push(receiver);
      const created = await send('POST', `${BASE}/webhooks`, { url: receiver.url, predicate });
      expect(created.status).toBe(201);
      expect(created.body.data.predicate).toMatchObject(predicate);
      receiver.secret = created.body.data.secret;
      hooks[name] = { id: created.body.data.id, receiver };
    };
    await register('steam', { type: 'steam' });
    await register('steam 5 books on totals', { type: 'steam', min_books: 5, market_type: 'total' });
    await register('steam of 1 point', { type: 'steam', min_points: 1, min_cents: 20, min_books: 3 });
    await register('rlm', { type: 'reverse_line_movement' });
    await register('rlm 75%', { type: 'reverse_line_movement', min_tickets_percent: 75 });
    await register('middle', { type: 'middle' });
    await register('middle 2 points wide', { type: 'middle', min_window: 2, market_type: 'total' });

    for (const [i, capture] of CAPTURES.slice(1).entries()) await ingestDocuments([doc(capture.body, capture.fetched_at, `capture-${i + 1}`)], { db: t.db, bus: t.bus });
    const started = Date.now();
    while (!(await settled())) {
      if (Date.now() - started > 60_000) throw new Error('the sender did not catch up');
      await new Promise((r) => setTimeout(r, 50));
    }

    // The signals stored after the first capture (the webhooks were registered then).
    const after = new Date(CAPTURES[1]!.fetched_at);
    const signals = (await db.prisma.lineSignal.findMany({ where: { detectedAt: { gte: after } } })).map((s) => ({ ...s, data: s.data as any }));
    const booksMoving = (s: any, points: number, cents: number) => new Set(s.data.moves.filter((m: any) => m.size >= (m.unit === 'points' ? points : cents)).map((m: any) => m.book_id)).size;
    const expected: Record<string, string[]> = {
      steam: signals.filter((s) => s.kind === 'steam').map((s) => s.key),
      'steam 5 books on totals': signals.filter((s) => s.kind === 'steam' && s.marketType === 'total' && booksMoving(s, 0, 0) >= 5).map((s) => s.key),
      'steam of 1 point': signals.filter((s) => s.kind === 'steam' && booksMoving(s, 1, 20) >= 3).map((s) => s.key),
      rlm: signals.filter((s) => s.kind === 'reverse_line_movement').map((s) => s.key),
      'rlm 75%': signals.filter((s) => s.kind === 'reverse_line_movement' && s.data.majority_tickets_percent >= 75).map((s) => s.key),
    };
    for (const [name, keys] of Object.entries(expected)) {
      const deliveries = await log(hooks[name]!.id);
      expect({ name, keys: deliveries.map((d) => d.payload.data.signal_key).sort() }).toEqual({ name, keys: [...keys].sort() });
      expect({ name, delivered: deliveries.every((d) => d.status === 'delivered' && d.event_type === d.payload.type) }).toEqual({ name, delivered: true });
    }
    // Each filter picked something and left something out: none of the checks above is vacuous.
    expect(expected.steam!.length).toBeGreaterThan(expected['steam 5 books on totals']!.length);
    expect(expected['steam 5 books on totals']!.length).toBeGreaterThan(0);
    expect(expected['steam of 1 point']!.length).toBeGreaterThan(0);
    expect(expected['steam of 1 point']!.length).toBeLessThan(expected.steam!.length);
    expect(expected.rlm!.length).toBeGreaterThan(expected['rlm 75%']!.length);
    expect(expected['rlm 75%']!.length).toBeGreaterThan(0);

    // A delivered steam event carries the signal as /signals serves it.
    const steam = (await log(hooks.steam!.id))[0]!;
    const served = (await t.get(`${BASE}/signals?game_id=${steam.payload.data.game_id}&kind=steam`, key)).body.data.find((s: any) => s.key === steam.payload.data.signal_key);
    expect(steam.payload).toMatchObject({ type: 'steam', data: { webhook_id: hooks.steam!.id, game_id: served.game_id, market_type: served.market_type, side: served.side, at: served.at, detected_at: served.detected_at, ...served.data } });
    const received = hooks.steam!.receiver.received;
    expect(received.length).toBe(expected.steam!.length);
    expect(received.every((r) => r.verified)).toBe(true);

    // Middles: every delivered middle is one of bettable prices with the figures asked for.
    const middles = await log(hooks.middle!.id);
    expect(middles.length).toBeGreaterThan(0);
    for (const d of middles) {
      const m = d.payload.data;
      expect(m.window_high).toBeGreaterThan(m.window_low);
      expect(m.low.book_id).not.toBeUndefined();
      expect(['spread', 'total']).toContain(m.market_type);
    }
    const wide = await log(hooks['middle 2 points wide']!.id);
    expect(wide.length).toBeGreaterThan(0);
    expect(wide.length).toBeLessThan(middles.length);
    expect(wide.every((d) => d.payload.data.market_type === 'total' && d.payload.data.window_high - d.payload.data.window_low >= 2)).toBe(true);
    const keyOf = (m: any) => `${m.game_id}|${m.market_type}|${[m.low, m.high].map((l: any) => `${l.book_id}/${l.side}/${l.point}/${l.american}`).join('|')}`;
    const delivered = new Set(middles.map((d) => keyOf(d.payload.data)));
    expect(new Set(wide.map((d) => keyOf(d.payload.data))).size).toBe(wide.length);
    for (const k of wide.map((d) => keyOf(d.payload.data))) expect(delivered.has(k)).toBe(true);

    // The middles GET /markets/middles lists for the last capture's instant were each delivered.
    const last = CAPTURES.at(-1)!.fetched_at;
    const listed = (await t.get(`${BASE}/markets/middles?as_of=${encodeURIComponent(last)}&date=2026-01-24`, key)).body.data as any[];
    const listedKeys = listed
      .filter((m) => m.period === 'full_game')
      .map((m) => keyOf({ game_id: m.game_id, market_type: m.market_type, low: { book_id: m.low.book_id, side: m.low.side, point: m.low.point, american: m.low.odds.original }, high: { book_id: m.high.book_id, side: m.high.side, point: m.high.point, american: m.high.odds.original } }));
    expect(listedKeys.length).toBeGreaterThan(0);
    expect(listedKeys.filter((k) => !delivered.has(k))).toEqual([]);
  }, 240_000);
});
