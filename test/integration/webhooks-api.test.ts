import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/app';

// Managing webhooks through REST and GraphQL (docs/webhooks.md): plans, ownership, every bad body a
// client can send (a 400 naming the field, never a 500), the SSRF guard, the delivery log's paging.

const BASE = '/api/v1/nba/odds/webhooks';

let t: TestApp;
let strict: TestApp;
let pro: string;
let other: string;
let starter: string;

const send = (method: string, path: string, key: string | undefined, body?: unknown) => t.request(method, path, key, body);
const hook = { url: 'http://127.0.0.1:9/hooks', predicate: { type: 'ev', min_ev_per_100: 3 } };

beforeAll(async () => {
  t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  // The same database served with the default policy (private targets refused) and the response cache on.
  strict = await startTestApp({ db: t.db, env: { REST_CACHE_MS: '300000' } });
  pro = (await t.createKey('pro')).key;
  other = (await t.createKey('elite')).key;
  starter = (await t.createKey('starter')).key;
});
afterAll(async () => {
  await strict?.close();
  await t?.close();
});

describe('webhooks: registering and managing', () => {
  test('when a pro key registers a webhook, then it gets a 201 with the secret once, and lists and reads it without the secret', async () => {
    const created = await send('POST', BASE, pro, { ...hook, description: ' my alerts ', predicate: { type: 'ev', min_ev_per_100: 2.5, devig: 'shin', market_type: 'spread' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('private, no-store');
    const w = created.body.data;
    expect(w).toMatchObject({ url: hook.url, description: 'my alerts', enabled: true, predicate: { type: 'ev', min_ev_per_100: 2.5, devig: 'shin', market_type: 'spread', game_id: null } });
    expect(w.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

    const listed = await send('GET', BASE, pro);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((x: any) => x.id)).toContain(w.id);
    expect(listed.body.data.every((x: any) => !('secret' in x))).toBe(true);
    const one = await send('GET', `${BASE}/${w.id}`, pro);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(listed.body.data.find((x: any) => x.id === w.id));
  });

  test('when another key asks for, changes, tests or deletes a webhook, then it is not found and its list is its own', async () => {
    const w = (await send('POST', BASE, pro, hook)).body.data;
    for (const [method, path, body] of [
      ['GET', `${BASE}/${w.id}`],
      ['PATCH', `${BASE}/${w.id}`, { enabled: false }],
      ['DELETE', `${BASE}/${w.id}`],
      ['POST', `${BASE}/${w.id}/test`],
      ['GET', `${BASE}/${w.id}/deliveries`],
    ] as const) {
      const res = await send(method, path, other, body);
      expect([method, path, res.status, res.body]).toEqual([method, path, 404, { success: false, error: `webhook ${w.id} not found` }]);
    }
    expect((await send('GET', BASE, other)).body.data.map((x: any) => x.id)).not.toContain(w.id);
    // The list is the key's own, never a cached answer of another key of the same plan.
    expect((await send('GET', BASE, pro)).body.data.map((x: any) => x.id)).toContain(w.id);
  });

  test('when a starter key, no key or the admin key uses webhooks, then 403, 401 and 403', async () => {
    const refused = await send('POST', BASE, starter, hook);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/webhooks requires the Pro or Elite plan/);
    expect((await send('GET', BASE, starter)).status).toBe(403);
    expect((await send('GET', BASE, undefined)).status).toBe(401);
    const admin = await t.graphql('mutation { createWebhook(input: {url: "http://127.0.0.1/x", predicate: {type: STATUS_CHANGE}}) { id } }', {}, TEST_ADMIN_KEY);
    expect(admin.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  test('when a body is bad, then a 400 names the field and says what is allowed', async () => {
    const cases: Array<[unknown, RegExp]> = [
      ['{not json', /invalid parameter body: must be JSON/],
      [[], /invalid parameter body: must be a JSON object/],
      [{ predicate: { type: 'ev', min_ev_per_100: 1 } }, /invalid parameter url: is required/],
      [{ url: 'ftp://example.com/x', predicate: { type: 'arbitrage' } }, /invalid parameter url: must be an absolute http or https URL/],
      [{ url: 'not a url', predicate: { type: 'arbitrage' } }, /invalid parameter url: must be an absolute http or https URL/],
      [{ url: `https://example.com/${'a'.repeat(2100)}`, predicate: { type: 'arbitrage' } }, /invalid parameter url: must be at most 2048 characters/],
      [{ url: 'https://user:pw@example.com/x', predicate: { type: 'arbitrage' } }, /invalid parameter url: must not carry credentials/],
      [{ url: 'https://example.com/x' }, /invalid parameter predicate: is required/],
      [{ url: 'https://example.com/x', predicate: { type: 'sometimes' } }, /invalid parameter predicate.type: must be one of ev, arbitrage, line_move, status_change/],
      [{ url: 'https://example.com/x', predicate: { type: 'ev' } }, /invalid parameter predicate.min_ev_per_100: is required for an ev predicate/],
      [{ url: 'https://example.com/x', predicate: { type: 'ev', min_ev_per_100: 500 } }, /invalid parameter predicate.min_ev_per_100: must be a number from -100 to 100/],
      [{ url: 'https://example.com/x', predicate: { type: 'ev', min_ev_per_100: '3' } }, /invalid parameter predicate.min_ev_per_100: must be a number/],
      [{ url: 'https://example.com/x', predicate: { type: 'ev', min_ev_per_100: 3, devig: 'magic' } }, /invalid parameter predicate.devig: must be one of multiplicative/],
      [{ url: 'https://example.com/x', predicate: { type: 'line_move' } }, /invalid parameter predicate.min_cents: min_cents or min_points is required/],
      [{ url: 'https://example.com/x', predicate: { type: 'line_move', min_cents: 0 } }, /invalid parameter predicate.min_cents: must be an integer from 1 to 10000/],
      [{ url: 'https://example.com/x', predicate: { type: 'line_move', min_points: 0.1 } }, /invalid parameter predicate.min_points: must be a number from 0.5 to 100/],
      [{ url: 'https://example.com/x', predicate: { type: 'arbitrage', min_cents: 5 } }, /invalid parameter predicate.min_cents: is not a field of a arbitrage predicate/],
      [{ url: 'https://example.com/x', predicate: { type: 'status_change', book_id: 5 } }, /invalid parameter predicate.book_id: is not a field of a status_change predicate/],
      [{ url: 'https://example.com/x', predicate: { type: 'status_change', game_id: -4 } }, /invalid parameter predicate.game_id: must be an integer game id/],
      [{ url: 'https://example.com/x', predicate: { type: 'status_change', colour: 'red' } }, /invalid parameter predicate: unknown field colour/],
      [{ url: 'https://example.com/x', predicate: { type: 'status_change' }, secret: 'mine' }, /invalid parameter body: unknown field secret/],
      [{ url: 'https://example.com/x', predicate: { type: 'status_change' }, description: 'd'.repeat(201) }, /invalid parameter description: must be at most 200 characters/],
      [{ url: 'https://example.com/x', predicate: { type: 'status_change' }, enabled: 'yes' }, /invalid parameter enabled: must be true or false/],
    ];
    for (const [body, message] of cases) {
      const res = await send('POST', BASE, pro, body);
      expect([JSON.stringify(body).slice(0, 80), res.status]).toEqual([JSON.stringify(body).slice(0, 80), 400]);
      expect(res.body.error).toMatch(message);
    }
    const page = await send('GET', `${BASE}/1/deliveries?limit=0`, pro);
    expect(page.status).toBe(400);
    expect(page.body.error).toMatch(/invalid parameter limit: must be an integer from 1 to 1000/);
    expect((await send('GET', `${BASE}/abc`, pro)).status).toBe(400);
    expect((await send('GET', `${BASE}/999999`, pro)).status).toBe(404);
    expect((await send('PATCH', `${BASE}/1`, pro, { enabled: 'no' })).body.error).toMatch(/invalid parameter enabled: must be true or false/);
  });

  test('when the service refuses private targets, then loopback, private, link-local and localhost URLs are a 400', async () => {
    for (const url of ['http://127.0.0.1:8080/x', 'http://10.1.2.3/x', 'http://192.168.0.4/x', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/x', 'http://localhost:3000/x', 'http://[::ffff:127.0.0.1]/x']) {
      const res = await strict.request('POST', BASE, pro, { url, predicate: { type: 'status_change' } });
      expect([url, res.status]).toEqual([url, 400]);
      expect(res.body.error).toMatch(/invalid parameter url: must not point at a private, loopback, link-local or other special-purpose address/);
    }
    expect((await strict.request('POST', BASE, pro, { url: 'https://hooks.example.com/odds', predicate: { type: 'status_change' } })).status).toBe(201);
  });

  test('when two keys of one plan read their webhooks through the caching paths, then each sees only its own', async () => {
    const a = (await t.createKey('pro')).key;
    const b = (await t.createKey('pro')).key;
    const mine = (await strict.request('POST', BASE, a, { url: 'https://a.example.com/x', predicate: { type: 'status_change' } })).body.data.id;
    for (let round = 0; round < 2; round++) {
      expect((await strict.request('GET', BASE, a)).body.data.map((w: any) => w.id)).toEqual([mine]);
      const other = await strict.request('GET', BASE, b);
      expect(other.body.data).toEqual([]);
      expect(other.headers.get('cache-control')).toBe('private, no-store');
      const query = encodeURIComponent('{ webhooks { id } }');
      const viaGet = async (key: string) => (await (await fetch(`${strict.baseUrl}/graphql?query=${query}`, { headers: { authorization: `Bearer ${key}`, 'apollo-require-preflight': 'true' } })).json()) as any;
      expect((await viaGet(a)).data.webhooks).toEqual([{ id: mine }]);
      expect((await viaGet(b)).data.webhooks).toEqual([]);
    }
  });

  test('when a webhook is changed and deleted, then the answers say so and it is gone', async () => {
    const w = (await send('POST', BASE, pro, hook)).body.data;
    const changed = await send('PATCH', `${BASE}/${w.id}`, pro, { enabled: false, predicate: { type: 'line_move', min_points: 1.5, book_id: 7 }, description: 'moves' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ id: w.id, enabled: false, description: 'moves', predicate: { type: 'line_move', min_points: 1.5, book_id: 7, min_ev_per_100: null } });
    expect((await send('PATCH', `${BASE}/${w.id}`, pro, { description: null })).body.data.description).toBeNull();
    const deleted = await send('DELETE', `${BASE}/${w.id}`, pro);
    expect(deleted).toMatchObject({ status: 200, body: { success: true, data: { id: w.id, deleted: true } } });
    expect((await send('GET', `${BASE}/${w.id}`, pro)).status).toBe(404);
    expect((await send('DELETE', `${BASE}/${w.id}`, pro)).status).toBe(404);
  });

  test('when a test event is asked for, then it is stored pending and the delivery log pages newest first', async () => {
    const w = (await send('POST', BASE, pro, hook)).body.data;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await send('POST', `${BASE}/${w.id}/test`, pro);
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ event_type: 'webhook.test', status: 'pending', attempts: 0, last_status: null, delivered_at: null, payload: { type: 'webhook.test', data: { webhook_id: w.id } } });
      expect(res.body.data.webhook_id).toMatch(/^msg_[0-9a-f]{32}$/);
      ids.push(res.body.data.webhook_id);
    }
    const page = await send('GET', `${BASE}/${w.id}/deliveries?limit=2`, pro);
    expect(page.status).toBe(200);
    expect(page.body.data.map((d: any) => d.webhook_id)).toEqual([ids[2], ids[1]]);
    expect(page.body.pagination).toEqual({ limit: 2, offset: 0, total: 3, has_more: true });
    const rest = await send('GET', `${BASE}/${w.id}/deliveries?limit=2&offset=2`, pro);
    expect(rest.body.data.map((d: any) => d.webhook_id)).toEqual([ids[0]]);
  });

  test('when a key holds 20 webhooks, then the 21st is refused', async () => {
    const key = (await t.createKey('pro')).key;
    for (let i = 0; i < 20; i++) expect((await send('POST', BASE, key, hook)).status).toBe(201);
    const refused = await send('POST', BASE, key, hook);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/already has 20 webhooks/);
  });

  test('when the same webhooks are managed through GraphQL, then the answers agree with REST', async () => {
    const created = await t.graphql(
      'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { id secret predicate { type minCents } } }',
      { input: { url: 'http://127.0.0.1:9/g', predicate: { type: 'LINE_MOVE', minCents: 10 } } },
      pro,
    );
    const id = created.body.data.createWebhook.id;
    expect(created.body.data.createWebhook.predicate).toEqual({ type: 'LINE_MOVE', minCents: 10 });
    const read = await t.graphql('query($id: Int!) { webhook(id: $id) { id secret } }', { id }, pro);
    expect(read.body.data.webhook).toEqual({ id, secret: null });
    const bad = await t.graphql('mutation { createWebhook(input: {url: "http://127.0.0.1:9/g", predicate: {type: EV}}) { id } }', {}, pro);
    expect(bad.body.errors[0]).toMatchObject({ message: 'invalid parameter predicate.min_ev_per_100: is required for an ev predicate', extensions: { code: 'BAD_USER_INPUT' } });
  });
});
