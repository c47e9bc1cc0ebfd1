import { Writable } from 'node:stream';
import Redis from 'ioredis';
import { createLogger } from '../../src/logger';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/app';
import { describeWithRedis, TEST_REDIS_URL } from '../support/database';

// The admin key administers only; /graphql answers every refusal in GraphQL's shape; errors carry
// no internals; every response names its request id; one rate budget per key across processes.

const GAMES = '/api/v1/nba/odds/games?limit=1';
const post = (t: TestApp, body: string, headers: Record<string, string> = {}) =>
  fetch(`${t.baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('one app', () => {
  const lines: string[] = [];
  let t: TestApp;
  beforeAll(async () => {
    const capture = new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) });
    t = await startTestApp({ env: { RATE_LIMIT_ADMIN: '5', RATE_LIMIT_STARTER: '3' }, logger: createLogger({ logLevel: 'info' }, {}, capture) });
  });
  afterAll(() => t.close());

  test('when the admin key asks for data, then REST answers 403 and GraphQL FORBIDDEN, saying to use an API key', async () => {
    const rest = await t.get(GAMES, TEST_ADMIN_KEY);
    expect(rest.status).toBe(403);
    expect(rest.body).toEqual({ success: false, error: expect.stringMatching(/admin key only administers/) });
    const gql = await t.graphql('{ games { total } }', {}, TEST_ADMIN_KEY);
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  test('when the admin key passes its own rate limit, then it gets 429 with Retry-After; each admin action is logged without the key', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 7; i++) {
      last = await post(t, JSON.stringify({ query: 'mutation { createAccount(name: "audit", plan: PRO) { id } }' }), { authorization: `Bearer ${TEST_ADMIN_KEY}` });
      statuses.push(last.status);
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await last!.json()) as any).errors[0].extensions.code).toBe('RATE_LIMITED');
    const audit = lines.filter((l) => l.includes('"admin action"') && l.includes('createAccount'));
    expect(audit.length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(audit[0]!)).toMatchObject({ admin: true, operation: 'mutation', fields: ['createAccount'] });
    expect(lines.join('')).not.toContain(TEST_ADMIN_KEY);
  });

  test.each([
    ['invalid JSON', '{"query": ', 400, 'BAD_REQUEST'],
    ['a body over 100 kB', JSON.stringify({ query: `{ ok } # ${'x'.repeat(120_000)}` }), 413, 'PAYLOAD_TOO_LARGE'],
  ])('when /graphql gets %s, then it answers in GraphQL shape with its status and code', async (_name, body, status, code) => {
    const res = await post(t, body);
    expect(res.status).toBe(status);
    const json = (await res.json()) as unknown;
    expect(json).toEqual({ errors: [{ message: expect.any(String), extensions: { code } }] });
  });

  test('when a Starter key passes its limit on /graphql, then the 429 is in GraphQL shape with Retry-After', async () => {
    const { key } = await t.createKey('starter');
    let res: Awaited<ReturnType<TestApp['graphql']>> | undefined;
    for (let i = 0; i < 4; i++) res = await t.graphql('{ ok }', {}, key);
    expect(res!.status).toBe(429);
    expect(res!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(res!.body.errors[0].extensions.code).toBe('RATE_LIMITED');
  });

  test('when a GraphQL request fails validation or input checks, then the error carries no stack trace or file path', async () => {
    const { key } = await t.createKey('pro');
    for (const [query, auth] of [['{ nope }', key], ['{ games(limit: 5000) { total } }', key], ['{ games { total } }', undefined]] as const) {
      const res = await t.graphql(query, {}, auth);
      const text = JSON.stringify(res.body);
      expect(res.body.errors.length).toBeGreaterThan(0);
      expect(text).not.toMatch(/stacktrace|\/src\/|node_modules|\.ts:\d+/);
    }
  });

  test('when a request carries X-Request-Id, then the response echoes it; without one, a fresh id is given', async () => {
    const echoed = await fetch(`${t.baseUrl}/healthz`, { headers: { 'x-request-id': 'trace-abc.123' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-abc.123');
    const fresh = await fetch(`${t.baseUrl}/healthz`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describeWithRedis('one rate budget across processes (Redis)', () => {
  const stores: Redis[] = [];
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const store of stores) store.disconnect();
  });

  test('when a Starter key alternates between two API processes, then the shared budget refuses it at the limit with Retry-After', async () => {
    const store = () => {
      const client = new Redis(TEST_REDIS_URL!, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      stores.push(client);
      return client;
    };
    const a = await startTestApp({ env: { RATE_LIMIT_STARTER: '4' }, rateLimitStore: store() });
    apps.push(a);
    const b = await startTestApp({ db: a.db, env: { RATE_LIMIT_STARTER: '4' }, rateLimitStore: store() });
    apps.push(b);
    await new Promise((resolve) => setTimeout(resolve, 100)); // both clients connected
    const { key } = await a.createKey('starter');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await (i % 2 ? b : a).get(GAMES, key)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await b.get(GAMES, key);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  test('when Redis is unreachable, then requests are still answered and limited in the process', async () => {
    const down = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true, retryStrategy: () => null });
    down.on('error', () => {});
    stores.push(down);
    const t = await startTestApp({ env: { RATE_LIMIT_STARTER: '2' }, rateLimitStore: down });
    apps.push(t);
    const { key } = await t.createKey('starter');
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.get(GAMES, key)).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});
