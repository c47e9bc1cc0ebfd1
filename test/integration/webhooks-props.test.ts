import { normalizePlayerName } from '../../src/domain';
import { ingestDocuments } from '../../src/ingest/ingest';
import { readSources, type SourceDocument } from '../../src/ingest/sources';
import { createLogger } from '../../src/logger';
import { startWebhookWorker, type WebhookWorker } from '../../src/webhooks/worker';
import { startTestApp, type TestApp } from '../support/app';
import { openTestDatabase } from '../support/database';
import { feedPath } from '../support/feeds';
import { WebhookReceiver } from '../support/webhook-receiver';

// The EV webhook on player props (issue 22, docs/player-props.md): a webhook whose predicate is
// {type: ev, market_type: player_props, player_id?, prop_type?} gets the prop prices of the real
// props captures (The Odds API's event-odds endpoint) whose EV reaches its threshold; an EV webhook
// without market_type keeps watching the game markets only.

const BASE = '/api/v1/nba/odds/webhooks';
const PROPS = 'theoddsapi/wnba-props-2023-05_2023-07.jsonl.gz';
const ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_BASE_MS: '40', WEBHOOK_RETRY_MAX_MS: '200', WEBHOOK_TIMEOUT_MS: '3000', WEBHOOK_POLL_MS: '30' };
/** Captures ingested before the webhooks exist, then after. */
const BEFORE = 30;
const AFTER = 12;

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let t: TestApp;
let worker: WebhookWorker;
let key: string;
let docs: SourceDocument[];
const receivers: WebhookReceiver[] = [];

const send = (method: string, path: string, body?: unknown) => t.request(method, path, key, body);
async function register(predicate: Record<string, unknown>): Promise<{ id: number; receiver: WebhookReceiver }> {
  const receiver = new WebhookReceiver();
  await receiver.start();
  receivers.push(receiver);
  const created = await send('POST', BASE, { url: receiver.url, predicate });
  expect(created.status).toBe(201);
  receiver.secret = created.body.data.secret;
  return { id: created.body.data.id, receiver };
}
async function log(id: number): Promise<any[]> {
  const res = await send('GET', `${BASE}/${id}/deliveries?limit=1000`);
  expect(res.status).toBe(200);
  return res.body.data;
}
/** True once the sender has evaluated every committed ingest. */
async function caughtUp(): Promise<boolean> {
  const [cursor, ingest] = await Promise.all([db.prisma.webhookCursor.findUnique({ where: { id: 1 } }), db.prisma.ingestState.findUnique({ where: { id: 1 } })]);
  return cursor !== null && cursor.version >= (ingest?.version ?? 0n);
}

beforeAll(async () => {
  db = await openTestDatabase();
  t = await startTestApp({ db, env: ENV });
  key = (await t.createKey('pro')).key;
  docs = [];
  for await (const d of readSources(feedPath(PROPS))) docs.push(d);
  docs.sort((a, b) => a.fetchedAt!.getTime() - b.fetchedAt!.getTime());
  for (const d of docs.slice(0, BEFORE)) await ingestDocuments([d], { db: t.db, bus: t.bus });
  worker = startWebhookWorker({ db: t.db, config: t.config.webhooks, logger: createLogger(t.config), bus: t.bus });
}, 300_000);
afterAll(async () => {
  await worker?.stop();
  for (const r of receivers) await r.kill();
  await t?.close();
  await db?.close();
});

describe('webhooks: EV on player props', () => {
  test('when EV on player_props is watched (all, one player and prop), then prop prices fire with player and prop, narrowed as asked, and a game-market EV webhook gets none', async () => {
    // A player of the earlier captures who is quoted again in the later ones (players play many games).
    const later = new Set<string>();
    for (const d of docs.slice(BEFORE, BEFORE + AFTER)) for (const b of (d.body as any).data.bookmakers) for (const m of b.markets) for (const o of m.outcomes) later.add(normalizePlayerName(o.description));
    let player: { id: number; name: string } | undefined;
    for (const g of await db.prisma.game.findMany({ select: { id: true } })) {
      const res = await t.get(`/api/v1/nba/odds/games/${g.id}/markets?market_type=player_props`, key);
      player = (res.body.data.markets.player_props?.outcomes ?? []).map((o: any) => o.player).find((p: any) => later.has(normalizePlayerName(p.name)));
      if (player) break;
    }
    expect(player).toBeDefined();

    const all = await register({ type: 'ev', min_ev_per_100: -100, devig: 'multiplicative', market_type: 'player_props' });
    const one = await register({ type: 'ev', min_ev_per_100: -100, devig: 'multiplicative', market_type: 'player_props', player_id: player!.id, prop_type: 'points' });
    const games_ = await register({ type: 'ev', min_ev_per_100: -100, devig: 'multiplicative' });
    for (const d of docs.slice(BEFORE, BEFORE + AFTER)) await ingestDocuments([d], { db: t.db, bus: t.bus });

    const started = Date.now();
    let allLog: any[] = [];
    let oneLog: any[] = [];
    for (;;) {
      if (await caughtUp()) {
        allLog = await log(all.id);
        oneLog = await log(one.id);
        if (allLog.length && oneLog.length && [...allLog, ...oneLog].every((d) => d.status !== 'pending')) break;
      }
      if (Date.now() - started > 60_000) throw new Error(`deliveries not settled: ${allLog.length} and ${oneLog.length}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const d of allLog) {
      expect(d.status).toBe('delivered');
      expect(d.payload.type).toBe('ev');
      expect(d.payload.data.market_type).toMatch(/^player_/);
      expect(d.payload.data).toMatchObject({ player_id: expect.any(Number), prop_type: d.payload.data.market_type.replace(/^player_/, ''), devig_method: 'multiplicative' });
      expect(d.payload.data.ev_per_100).toBeGreaterThanOrEqual(-100);
    }
    // The narrowed webhook gets exactly the events of the wide one for that player and prop.
    const narrowed = (list: any[]) => list.map((d) => JSON.stringify({ ...d.payload.data, webhook_id: 0 })).sort();
    expect(oneLog.length).toBeGreaterThan(0);
    expect(narrowed(oneLog)).toEqual(narrowed(allLog.filter((d) => d.payload.data.player_id === player!.id && d.payload.data.prop_type === 'points')));
    // The received bodies are the logged ones, signed.
    expect(one.receiver.received.every((r) => r.verified)).toBe(true);
    // A game-market EV webhook never gets a prop (these captures carry props only: nothing at all).
    expect(await log(games_.id)).toEqual([]);
  }, 120_000);

  test('when an EV predicate on props is asked through GraphQL, then it is stored with its player and prop type', async () => {
    const res = await t.graphql(
      'mutation { createWebhook(input: { url: "http://127.0.0.1:9/x", predicate: { type: EV, minEvPer100: 2, marketType: PLAYER_PROPS, propType: "rebounds", playerId: 7 } }) { predicate { type marketType propType playerId } } }',
      {},
      key,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createWebhook.predicate).toEqual({ type: 'EV', marketType: 'PLAYER_PROPS', propType: 'rebounds', playerId: 7 });
  });

  test('when a props predicate is bad, then it answers 400 naming the field', async () => {
    const url = 'https://example.com/hooks';
    for (const [predicate, message] of [
      [{ type: 'line_move', min_cents: 5, market_type: 'player_props' }, /invalid parameter predicate.market_type: player_props is only for ev predicates/],
      [{ type: 'arbitrage', market_type: 'player_props' }, /invalid parameter predicate.market_type: player_props is only for ev predicates/],
      [{ type: 'ev', min_ev_per_100: 1, player_id: 3 }, /invalid parameter predicate.player_id: needs market_type player_props/],
      [{ type: 'ev', min_ev_per_100: 1, market_type: 'total', prop_type: 'points' }, /invalid parameter predicate.prop_type: needs market_type player_props/],
      [{ type: 'ev', min_ev_per_100: 1, market_type: 'player_props', prop_type: 'dunks' }, /invalid parameter predicate.prop_type: must be one of points, rebounds/],
      [{ type: 'ev', min_ev_per_100: 1, market_type: 'player_props', player_id: 'abc' }, /invalid parameter predicate.player_id: must be an integer player id/],
      [{ type: 'ev', min_ev_per_100: 1, market_type: 'player_props', player_id: 0 }, /invalid parameter predicate.player_id: must be an integer player id/],
      [{ type: 'ev', min_ev_per_100: 1, market_type: 'player_points' }, /invalid parameter predicate.market_type/],
      [{ type: 'line_move', min_cents: 5, prop_type: 'points' }, /invalid parameter predicate.prop_type: is not a field of a line_move predicate/],
    ] as const) {
      const res = await send('POST', BASE, { url, predicate });
      expect({ predicate, status: res.status }).toEqual({ predicate, status: 400 });
      expect(res.body.error).toMatch(message);
    }
  });
});
