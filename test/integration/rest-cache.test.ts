import { createHash } from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';
import { countAgedQuotes } from '../../src/db/listing-repository';
import { ingestDocuments } from '../../src/ingest/ingest';
import { startTestApp, type TestApp } from '../support/app';
import { countingDatabase } from '../support/counting-database';
import { openTestDatabase } from '../support/database';
import { doc, readFeed } from '../support/feeds';
import { capture, type GameSpec } from './live-helpers';

// Cached REST bodies (REST_CACHE_MS) must never outlive an ingest: they are keyed by the data version,
// which the bus advances. And the HTTP side: ETag/304, Cache-Control, Vary, gzip and brotli.
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

describe('prices and HTTP caching', () => {
  const GAME = 4242;
  const spec = (home: number, away: number): GameSpec => ({ id: GAME, status: 'scheduled', start: '2026-01-09T00:30:00.000Z', books: { 15: { moneyline: [home, away] } } });
  const path = `/api/v1/nba/odds/games/${GAME}`;
  const homePrice = (body: any) => body.data.markets.moneyline.outcomes.find((o: any) => o.side === 'home')?.odds?.american;

  beforeAll(async () => {
    await ingestDocuments([capture('2026-01-08T13:00:00.000Z', spec(-150, 130))], { db: t.db, bus: t.bus });
  });

  test('when a price moves in an ingest, then the next GET shows the new price (the cache never serves the old one)', async () => {
    const before = await t.get(path, key);
    expect(before.status).toBe(200);
    expect(homePrice(before.body)).toBe('-150');
    expect(homePrice((await t.get(path, key)).body)).toBe('-150');
    await ingestDocuments([capture('2026-01-08T13:01:00.000Z', spec(-175, 150))], { db: t.db, bus: t.bus });
    const after = await t.get(path, key);
    expect(homePrice(after.body)).toBe('-175');
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
  });

  test('when a 200 is answered, then it carries a strong ETag, Cache-Control and Vary', async () => {
    const res = await t.get(path, key);
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.headers.get('cache-control')).toBe('private, max-age=5');
    expect(res.headers.get('vary')).toBe('Authorization, Accept-Encoding');
    expect((await t.get('/api/v1/nba/odds/sportsbooks', key)).headers.get('cache-control')).toBe('private, max-age=3600');
    expect((await t.get('/api/v1/nba/odds/live', key)).headers.get('cache-control')).toBe('private, max-age=1');
  });

  test('when If-None-Match carries the current ETag (alone, weak, or in a list), then the answer is 304 without a body, rate-limit headers kept', async () => {
    const etag = (await t.get(path, key)).headers.get('etag')!;
    for (const header of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const res = await fetch(t.baseUrl + path, { headers: { authorization: `Bearer ${key}`, 'if-none-match': header } });
      expect(res.status).toBe(304);
      expect(await res.text()).toBe('');
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.headers.get('x-ratelimit-limit')).toBe('300');
    }
    const stale = await fetch(t.baseUrl + path, { headers: { authorization: `Bearer ${key}`, 'if-none-match': '"an-old-tag"' } });
    expect(stale.status).toBe(200);
  });

  test('when If-None-Match comes without a valid key, then the answer is still 401 (no 304 leaks data)', async () => {
    const etag = (await t.get(path, key)).headers.get('etag')!;
    const res = await fetch(t.baseUrl + path, { headers: { 'if-none-match': etag } });
    expect(res.status).toBe(401);
  });

  test('when the client accepts br or gzip, then the body comes compressed and decodes to the same bytes', async () => {
    const plain = Buffer.from(await (await fetch(t.baseUrl + '/api/v1/nba/odds/teams', { headers: { authorization: `Bearer ${key}` } })).arrayBuffer());
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br', 'br', zlib.brotliDecompressSync],
      ['gzip', 'gzip', zlib.gunzipSync],
      ['br;q=0, gzip;q=0.5', 'gzip', zlib.gunzipSync],
    ] as const) {
      const res = await rawGet(t.baseUrl + '/api/v1/nba/odds/teams', { authorization: `Bearer ${key}`, 'accept-encoding': accept });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(decode(res.body).equals(plain)).toBe(true);
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
    }
    const identity = await rawGet(t.baseUrl + '/api/v1/nba/odds/teams', { authorization: `Bearer ${key}`, 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.equals(plain)).toBe(true);
    const nonsense = await rawGet(t.baseUrl + '/api/v1/nba/odds/teams', { authorization: `Bearer ${key}`, 'accept-encoding': ';;q=x,,' });
    expect(nonsense.status).toBe(200);
    expect(nonsense.body.equals(plain)).toBe(true);
  });

  test('when HEAD is asked, then the headers come without a body', async () => {
    const res = await rawGet(t.baseUrl + path, { authorization: `Bearer ${key}` }, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
    expect(res.headers.etag).toBeDefined();
  });
});

/** A GET through node:http (fetch would decode the body itself). */
function rawGet(url: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('when pregame quotes age past 15 minutes, then the clock state counts them as stale (the data version advances)', async () => {
  // GAME 4242's two moneyline quotes were last seen at 13:01 (pregame)
  const at = (iso: string) => countAgedQuotes(t.db.prisma, new Date(iso));
  const before = await at('2026-01-08T13:15:00.000Z');
  const after = await at('2026-01-08T13:16:01.000Z');
  expect(after - before).toBe(2);
});

test('when a path parameter has a malformed %-escape, then the answer is a 400 envelope', async () => {
  const res = await t.get('/api/v1/nba/odds/games/%E0%A4%A', key);
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ success: false, error: 'invalid request: malformed URL encoding' });
});

describe('GraphQL over GET and persisted queries', () => {
  const QUERY = 'query Books($n: Int!) { sportsbooks { id name } teams(teamId: [$n]) { id } }';
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');
  const getGraphql = (params: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${t.baseUrl}/graphql?${new URLSearchParams(params)}`, { headers: { authorization: `Bearer ${key}`, ...headers } });

  test('when a query is sent with GET, then the answer has an ETag and a matching If-None-Match gets a 304', async () => {
    const res = await getGraphql({ query: QUERY, variables: JSON.stringify({ n: 1 }) });
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect(body.data.sportsbooks.length).toBeGreaterThan(0);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    const again = await getGraphql({ query: QUERY, variables: JSON.stringify({ n: 1 }) }, { 'if-none-match': etag });
    expect(again.status).toBe(304);
  });

  test('when a persisted query is registered, then a GET with only its hash is answered with the same bytes and ETag', async () => {
    const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: sha(QUERY) } });
    const registered = await getGraphql({ query: QUERY, extensions, variables: JSON.stringify({ n: 2 }) });
    expect(registered.status).toBe(200);
    const byHash = await getGraphql({ extensions, variables: JSON.stringify({ n: 2 }) });
    expect(byHash.status).toBe(200);
    expect(byHash.headers.get('etag')).toBe(registered.headers.get('etag'));
    expect(await byHash.text()).toBe(await registered.text());
  });

  test('when a GET names an unknown persisted query, then Apollo answers PERSISTED_QUERY_NOT_FOUND', async () => {
    const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: sha('query { ok }  # never sent') } });
    const res = await getGraphql({ extensions }, { 'apollo-require-preflight': 'true' });
    const body: any = await res.json();
    expect(body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  test('when a GET carries a mutation, a bad query or no key, then it is not served from the cache (GraphQL errors, no ETag)', async () => {
    const mutation = await getGraphql({ query: 'mutation { ok }' }, { 'apollo-require-preflight': 'true' });
    expect(mutation.status).toBeGreaterThanOrEqual(400);
    expect(mutation.headers.get('etag')).toBeNull();
    const bad = await getGraphql({ query: '{ nope }' }, { 'apollo-require-preflight': 'true' });
    expect(((await bad.json()) as any).errors.length).toBeGreaterThan(0);
    expect(bad.headers.get('etag')).toBeNull();
    const anonymous = await fetch(`${t.baseUrl}/graphql?${new URLSearchParams({ query: QUERY, variables: '{"n":1}' })}`, { headers: { 'apollo-require-preflight': 'true' } });
    const body: any = await anonymous.json();
    expect(body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(anonymous.headers.get('etag')).toBeNull();
  });
});

test('when an ingest advances the data version, then the answers polled recently are computed again before anyone asks', async () => {
  const base = await openTestDatabase();
  const counting = countingDatabase(base);
  const w = await startTestApp({ db: counting.db, env: { REST_CACHE_MS: '60000' } });
  try {
    const GAME = 4343;
    const spec = (home: number): GameSpec => ({ id: GAME, status: 'scheduled', start: '2026-01-09T00:30:00.000Z', books: { 15: { moneyline: [home, 120] } } });
    const path = `/api/v1/nba/odds/games/${GAME}`;
    const price = (body: any) => body.data.markets.moneyline.outcomes.find((o: any) => o.side === 'home')?.odds?.american;
    const wKey = (await w.createKey('pro')).key;
    // Ingests go through the uncounted client: only the app's own reads are counted.
    await ingestDocuments([capture('2026-01-08T14:00:00.000Z', spec(-140))], { db: base, bus: w.bus });
    expect(price((await w.get(path, wKey)).body)).toBe('-140');

    counting.reset();
    await ingestDocuments([capture('2026-01-08T14:01:00.000Z', spec(-160))], { db: base, bus: w.bus });
    // the warm-up runs the route's SQL on its own; wait until it has and is done
    let last = -1;
    for (let quiet = 0; quiet < 6; ) {
      await new Promise((r) => setTimeout(r, 50));
      const now = counting.count();
      quiet = now === last && now > 0 ? quiet + 1 : 0;
      last = now;
    }
    counting.reset();
    const after = await w.get(path, wKey);
    expect(price(after.body)).toBe('-160');
    // served from bytes computed before the request (a cold run reads several tables; the clock
    // check of the data version may add one statement)
    expect(counting.count()).toBeLessThanOrEqual(1);
  } finally {
    await w.close();
    await base.close();
  }
});
