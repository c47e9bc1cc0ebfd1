import { ingestDocuments } from '../../src/ingest/ingest';
import { startTestApp, type TestApp } from '../support/app';
import { doc, readFeed } from '../support/feeds';

// Cached REST results (REST_CACHE_MS) must never outlive an ingest: the cache is cleared by the bus.
let t: TestApp;
let key: string;
const FIRST = readFeed('nba-2026-01-08-scheduled.json');

beforeAll(async () => {
  t = await startTestApp({ env: { REST_CACHE_MS: '60000' } });
  key = (await t.createKey('pro')).key;
  await ingestDocuments([doc(FIRST, '2026-01-08T12:00:00Z')], { db: t.db, bus: t.bus });
});
afterAll(() => t?.close());

test('when a route is read, data is ingested and the route is read again, then the second read shows the new data', async () => {
  const gameId = FIRST.games[0].id;
  const before = await t.get(`/api/v1/nba/odds/games/${gameId}?include_markets=false`, key);
  expect(before.status).toBe(200);
  expect((await t.get(`/api/v1/nba/odds/games/${gameId}?include_markets=false`, key)).body).toEqual(before.body);

  const moved = structuredClone(FIRST);
  moved.games[0].num_bets = (moved.games[0].num_bets ?? 0) + 1234;
  moved.games[0].status_display = 'moved by test';
  await ingestDocuments([doc(moved, '2026-01-08T12:05:00Z')], { db: t.db, bus: t.bus });

  const after = await t.get(`/api/v1/nba/odds/games/${gameId}?include_markets=false`, key);
  expect(after.body.data.num_bets).toBe(moved.games[0].num_bets);
  expect(after.body.data.status_display).toBe('moved by test');
});

test('when two plans read a gated route, then each gets its own answer (the plan is part of the cache key)', async () => {
  const starter = (await t.createKey('starter')).key;
  const pro = await t.get('/api/v1/nba/odds/live/movement', key);
  expect(pro.status).toBe(200);
  const denied = await t.get('/api/v1/nba/odds/live/movement', starter);
  expect(denied.status).toBe(403);
  expect(denied.body.success).toBe(false);
});
