import { createHash } from 'node:crypto';
import { clientAddress } from '../../src/auth/client-address';
import { ingestDocuments } from '../../src/ingest/ingest';
import { startTestApp, type TestApp } from '../support/app';
import { capture, type GameSpec } from './live-helpers';

// Every in-memory cache is bounded in bytes, keys included (issue 20): long URLs, many URLs, many
// persisted queries and requests without a key cannot grow the process. What the caches do is in /metrics.

/** The value of one sample of /metrics (0 when absent). */
async function metric(t: TestApp, name: string, labels: string): Promise<number> {
  const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** `count` distinct team ids from `from`, comma-separated (a long URL with an empty answer). */
const idList = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i).join(',');

const SMALL = 65_536;

describe('byte bounds of the response cache and the parsed URLs', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { REST_CACHE_MS: '60000', REST_CACHE_MAX_BYTES: String(SMALL), PARSED_URLS_MAX_BYTES: String(SMALL) } });
    key = (await t.createKey('elite')).key;
  });
  afterAll(() => t.close());

  test('when many distinct long URLs are asked, then the caches stay within their bytes, keys included, and count their evictions', async () => {
    for (let i = 0; i < 40; i++) {
      const res = await t.get(`/api/v1/nba/odds/teams?team_id=${idList(100_000 + i * 1000, 500)}`, key);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    }
    expect(await metric(t, 'cache_bytes', 'cache="responses"')).toBeLessThanOrEqual(SMALL);
    expect(await metric(t, 'cache_bytes', 'cache="responses"')).toBeGreaterThan(0);
    expect(await metric(t, 'cache_max_bytes', 'cache="responses"')).toBe(SMALL);
    expect(await metric(t, 'cache_events_total', 'cache="responses",event="evict"')).toBeGreaterThan(0);
    expect(await metric(t, 'cache_events_total', 'cache="parsed_urls",event="evict"')).toBeGreaterThan(0);
  });

  test('when the same URL is asked twice, then the second is a hit of both caches', async () => {
    const path = '/api/v1/nba/odds/teams?team_id=1,2';
    const hits = await metric(t, 'cache_events_total', 'cache="responses",event="hit"');
    const parsedHits = await metric(t, 'cache_events_total', 'cache="parsed_urls",event="hit"');
    await t.get(path, key);
    await t.get(path, key);
    expect(await metric(t, 'cache_events_total', 'cache="responses",event="hit"')).toBe(hits + 1);
    expect(await metric(t, 'cache_events_total', 'cache="parsed_urls",event="hit"')).toBe(parsedHits + 1);
  });

  test('when an ingest advances the data version, then the answers of the old version are dropped at once', async () => {
    await t.get('/api/v1/nba/odds/sportsbooks', key);
    const expired = await metric(t, 'cache_events_total', 'cache="responses",event="expire"');
    const spec: GameSpec = { id: 4545, status: 'scheduled', start: '2026-01-09T00:30:00.000Z', books: { 15: { moneyline: [-120, 100] } } };
    await ingestDocuments([capture('2026-01-08T15:00:00.000Z', spec)], { db: t.db, bus: t.bus });
    expect(await metric(t, 'cache_events_total', 'cache="responses",event="expire"')).toBeGreaterThan(expired);
  });
});

describe('byte bound of the listing rows (services/listing-memo.ts)', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { LISTING_ROWS_MAX_BYTES: String(SMALL), REST_CACHE_MS: '0' } });
    key = (await t.createKey('elite')).key;
    const specs: GameSpec[] = Array.from({ length: 6 }, (_, i) => ({ id: 4600 + i, status: 'scheduled', start: '2026-01-09T00:30:00.000Z', books: { 15: { moneyline: [-120, 100] }, 16: { moneyline: [-110, -105] } } }));
    await ingestDocuments([capture('2026-01-08T15:00:00.000Z', ...specs)], { db: t.db, bus: t.bus });
  });
  afterAll(() => t.close());

  test('when many listing scopes are asked, then the memo of their rows stays within its bytes and reports in /metrics', async () => {
    for (let i = 0; i < 6; i++) {
      for (const market of ['moneyline', 'spread', 'total']) {
        const res = await t.get(`/api/v1/nba/odds/markets/${market}?game_id=${4600 + i}&date=2026-01-08`, key);
        expect(res.status).toBe(200);
      }
    }
    expect(await metric(t, 'cache_max_bytes', 'cache="listing_rows"')).toBe(SMALL);
    expect(await metric(t, 'cache_bytes', 'cache="listing_rows"')).toBeGreaterThan(0);
    expect(await metric(t, 'cache_bytes', 'cache="listing_rows"')).toBeLessThanOrEqual(SMALL);
    expect(await metric(t, 'cache_events_total', 'cache="listing_rows",event="miss"')).toBeGreaterThan(0);
  });
});

describe('persisted queries', () => {
  let t: TestApp;
  let key: string;
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');
  /** A query made long by a comment (comments cost no tokens), distinct per `n`. */
  const longQuery = (n: number, bytes: number) => `# ${String(n).padEnd(bytes, '.')}\nquery Q${n} { sportsbooks { id } }`;
  const register = (query: string, auth?: string) =>
    fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(auth && { authorization: `Bearer ${auth}` }) },
      body: JSON.stringify({ query, extensions: { persistedQuery: { version: 1, sha256Hash: sha(query) } } }),
    });
  const byHash = async (query: string) => {
    const res = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: sha(query) } } }),
    });
    return (await res.json()) as { data?: unknown; errors?: Array<{ extensions: { code: string } }> };
  };

  beforeAll(async () => {
    t = await startTestApp({ env: { PERSISTED_QUERIES_MAX_BYTES: String(SMALL) } });
    key = (await t.createKey('pro')).key;
  });
  afterAll(() => t.close());

  test('when a request with a key registers a query, then its hash alone runs it later', async () => {
    const query = longQuery(1, 100);
    expect((await register(query, key)).status).toBe(200);
    expect((await byHash(query)).data).toBeDefined();
  });

  test('when a request without a key sends a query with its hash, then the query is not kept', async () => {
    const query = longQuery(2, 100);
    await register(query);
    expect((await byHash(query)).errors?.[0]?.extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  test('when queries past the byte bound are registered, then the oldest leave (evictions counted) and the store stays bounded', async () => {
    const queries = Array.from({ length: 8 }, (_, i) => longQuery(100 + i, 12_000));
    for (const query of queries) expect((await register(query, key)).status).toBe(200);
    expect((await byHash(queries[0]!)).errors?.[0]?.extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect((await byHash(queries[7]!)).data).toBeDefined();
    expect(await metric(t, 'cache_events_total', 'cache="persisted_queries",event="evict"')).toBeGreaterThan(0);
  });

  test('when requests without a key send many distinct documents padded with comments, then the parsed documents kept stay within the bytes, their source text counted: the oldest leave', async () => {
    // Apollo's own store counted a document by its JSON form, without the source its locations point
    // into: 300 documents of 98 kB kept 29 MB (issue 39). A comment is no token: the parser's limit lets it by.
    for (let i = 0; i < 8; i++) {
      const query = `query Padded${i} { __typename }\n# ${'x'.repeat(12_000)}`;
      const res = await fetch(`${t.baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ data: { __typename: 'Query' } });
    }
    expect(await metric(t, 'cache_events_total', 'cache="graphql_documents",event="evict"')).toBeGreaterThan(0);
  });
});

describe('requests without a key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_ANONYMOUS: '3' } });
  });
  afterAll(() => t.close());

  test('when one address sends more keyless requests a minute than allowed, then REST and /graphql answer 429 in their own shapes, and keyed requests still pass', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await t.get('/api/v1/nba/odds/teams');
      expect(res.status).toBe(401);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
    const refused = await t.get('/api/v1/nba/odds/teams', 'sk_not_a_real_key_0000000000000000');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, error: expect.stringMatching(/without an API key from one address, retry in \d+ s/) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
    const graphql = await t.graphql('{ __typename }', undefined, '');
    expect(graphql.status).toBe(429);
    expect(graphql.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    const { key } = await t.createKey('pro');
    expect((await t.get('/api/v1/nba/odds/teams', key)).status).toBe(200);
  });

  test('when addresses are counted, then IPv4-mapped IPv6 counts as IPv4 and IPv6 counts by its /64', () => {
    expect(clientAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress('2001:db8:1:2:aaaa::1')).toBe(clientAddress('2001:db8:1:2:bbbb::9'));
    expect(clientAddress('2001:db8:1:2::1')).not.toBe(clientAddress('2001:db8:1:3::1'));
    expect(clientAddress(undefined)).toBe('unknown');
    expect(clientAddress('not an address')).toBe('unknown');
  });
});

test('when an answer is asked once, then the warm-up computes it again after the next ingest, not after every later one', async () => {
  const w = await startTestApp({ env: { REST_CACHE_MS: '60000' } });
  // Answers of past data versions leave the cache when the version advances, so the bytes the cache
  // holds are those of answers computed under the current version: by the warm-up, nobody else asks.
  const held = () => metric(w, 'cache_bytes', 'cache="responses"');
  try {
    const GAME = 4646;
    const spec = (home: number): GameSpec => ({ id: GAME, status: 'scheduled', start: '2026-01-09T00:30:00.000Z', books: { 15: { moneyline: [home, 120] } } });
    const wKey = (await w.createKey('pro')).key;
    await ingestDocuments([capture('2026-01-08T16:00:00.000Z', spec(-140))], { db: w.db, bus: w.bus });
    expect((await w.get(`/api/v1/nba/odds/games/${GAME}`, wKey)).status).toBe(200);
    expect(await held()).toBeGreaterThan(0);

    await ingestDocuments([capture('2026-01-08T16:01:00.000Z', spec(-150))], { db: w.db, bus: w.bus });
    // computed again without a request (waits for the warm-up, however slow the machine)
    while ((await held()) === 0) await new Promise((r) => setTimeout(r, 20));

    // warmed for two data versions after its last request at most (an ingest may advance it twice)
    await ingestDocuments([capture('2026-01-08T16:02:00.000Z', spec(-160))], { db: w.db, bus: w.bus });
    await ingestDocuments([capture('2026-01-08T16:03:00.000Z', spec(-170))], { db: w.db, bus: w.bus });
    await new Promise((r) => setTimeout(r, 300));
    // nobody asked since: nothing is computed under the new version
    expect(await held()).toBe(0);
  } finally {
    await w.close();
  }
});
