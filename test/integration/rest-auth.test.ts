import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/app';

// Authentication, subscriptions, revocation on a running server and rate limits (spec 5, 7).

const GAMES = '/api/v1/nba/odds/games?include_markets=false';
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ feeds: ['test/fixtures/feeds/nba-2026-01-24-mixed-status.json'] });
});
afterAll(() => t.close());

const UNAUTHORIZED = { success: false, error: 'Unauthorized: missing or invalid API key' };

test('when the key is missing, malformed or unknown, then 401 on every route', async () => {
  for (const path of ['/games', '/games/264315', '/games/264315/boxscore', '/games/264315/markets', '/teams', '/leagues', '/consensus', '/sportsbooks', '/betting-info']) {
    const res = await t.get('/api/v1/nba/odds' + path);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  }
  expect((await t.get(GAMES, 'not-a-key')).status).toBe(401);
  expect((await t.get(GAMES, 'sk_' + 'x'.repeat(43))).body).toEqual(UNAUTHORIZED);
  const raw = await fetch(t.baseUrl + GAMES, { headers: { authorization: 'Basic abc' } });
  expect(raw.status).toBe(401);
});

test('when the subscription ended or is inactive, then 403 saying it expired', async () => {
  const expired = await t.createKey('pro', { expiresAt: new Date(Date.now() - 1000) });
  const res = await t.get(GAMES, expired.key);
  expect(res.status).toBe(403);
  expect(res.body.success).toBe(false);
  expect(res.body.error).toMatch(/subscription expired/i);
  const canceled = await t.createKey('elite', { status: 'canceled' });
  expect((await t.get(GAMES, canceled.key)).status).toBe(403);
});

test('when the admin revokes a key on the running server, then it stops working at once', async () => {
  const { id, key } = await t.createKey('starter');
  expect((await t.get(GAMES, key)).status).toBe(200);
  const revoke = await t.graphql('mutation($id: String!) { revokeApiKey(id: $id) }', { id }, TEST_ADMIN_KEY);
  expect(revoke.body).toEqual({ data: { revokeApiKey: true } });
  expect((await t.get(GAMES, key)).status).toBe(401);
});

test('when the admin creates an account and key and later ends the subscription, then the key works then gets 403', async () => {
  const account = await t.graphql('mutation { createAccount(name: "acme", plan: PRO) { id plan subscriptionStatus subscriptionEndsAt } }', {}, TEST_ADMIN_KEY);
  expect(account.body.data.createAccount).toMatchObject({ plan: 'PRO', subscriptionStatus: 'ACTIVE', subscriptionEndsAt: null });
  const accountId = account.body.data.createAccount.id;
  const created = await t.graphql(
    'mutation($a: String) { createApiKey(accountId: $a, name: "ci") { id key accountId plan } }',
    { a: accountId },
    TEST_ADMIN_KEY,
  );
  const { key } = created.body.data.createApiKey;
  expect(key).toMatch(/^sk_/);
  expect((await t.get(GAMES, key)).status).toBe(200);
  const ended = await t.graphql(
    'mutation($a: String!, $e: DateTime) { updateAccount(id: $a, subscriptionEndsAt: $e) { subscriptionEndsAt } }',
    { a: accountId, e: new Date(Date.now() - 60_000).toISOString() },
    TEST_ADMIN_KEY,
  );
  expect(ended.body.data.updateAccount.subscriptionEndsAt).toBeTruthy();
  expect((await t.get(GAMES, key)).status).toBe(403);
  const listing = await t.graphql('{ apiKeys { id prefix accountId } }', {}, TEST_ADMIN_KEY);
  expect(listing.body.data.apiKeys.some((k: any) => k.accountId === accountId)).toBe(true);
  expect(JSON.stringify(listing.body)).not.toContain(key);
});

test('when admin mutations come without the admin key, then they are refused', async () => {
  const { key } = await t.createKey('elite');
  const withKey = await t.graphql('mutation { createAccount(name: "x", plan: PRO) { id } }', {}, key);
  expect(withKey.body.errors[0].extensions.code).toBe('FORBIDDEN');
  const anonymous = await t.graphql('mutation { revokeApiKey(id: "x") }');
  expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
});

test('when a starter key exceeds 60 requests a minute, then 429 with Retry-After and X-RateLimit headers', async () => {
  const { key } = await t.createKey('starter');
  const first = await t.get('/api/v1/nba/odds/sportsbooks', key);
  expect(first.headers.get('x-ratelimit-limit')).toBe('60');
  expect(first.headers.get('x-ratelimit-remaining')).toBe('59');
  expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
  for (let i = 1; i < 60; i++) expect((await t.get('/api/v1/nba/odds/sportsbooks', key)).status).toBe(200);
  const over = await t.get('/api/v1/nba/odds/sportsbooks', key);
  expect(over.status).toBe(429);
  expect(over.body.success).toBe(false);
  expect(over.body.error).toMatch(/rate limit/i);
  expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
  // another key has its own budget
  const other = await t.createKey('starter');
  expect((await t.get('/api/v1/nba/odds/sportsbooks', other.key)).status).toBe(200);
});

test('when the OpenAPI document is fetched without a key, then it is served', async () => {
  const res = await t.get('/api/v1/openapi.json');
  expect(res.status).toBe(200);
  expect(res.body.openapi).toBe('3.1.0');
  expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/api/v1/nba/odds/games', '/api/v1/nba/odds/games/{game_id}']));
});

test('when a route is unknown anywhere, then a JSON 404 envelope', async () => {
  for (const path of ['/nope', '/api/v1/nba/odds/nope', '/api/v2/x']) {
    const res = await t.get(path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: 'route not found' });
  }
});
