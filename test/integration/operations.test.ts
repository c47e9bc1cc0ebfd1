import { startTestApp, type TestApp } from '../support/app';

// Endpoints for operators: liveness, readiness with data freshness, Prometheus metrics. None needs a key.

let t: TestApp;
beforeAll(async () => {
  // The response cache on, as in production (tests turn it off by default).
  t = await startTestApp({ feeds: ['test/fixtures/feeds/nba-2026-01-24-mixed-status.json'], env: { REST_CACHE_MS: '60000' } });
});
afterAll(() => t.close());

test('when /healthz is asked without a key, then it answers 200 ok', async () => {
  const res = await t.get('/healthz');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ success: true, data: { status: 'ok' } });
});

test('when /readyz is asked, then it reports the database, Redis and the time of the newest price', async () => {
  const res = await t.get('/readyz');
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({ status: 'ready', database: { ok: true }, redis: { ok: true, configured: false } });
  expect(new Date(res.body.data.feed.latest_price_at).getTime()).toBeLessThanOrEqual(Date.now());
  expect(res.body.data.feed.age_seconds).toBeGreaterThanOrEqual(0);
});

test('when /metrics is scraped after some requests, then it holds request counts and latency per route pattern, and event-loop lag', async () => {
  const { key } = await t.createKey('pro');
  await t.get('/api/v1/nba/odds/games?limit=1', key);
  await t.get('/api/v1/nba/odds/games/264315', key);
  await t.get('/api/v1/nba/odds/games/264315', key);
  await t.get('/api/v1/nba/odds/no-such-route', key);
  const res = await fetch(`${t.baseUrl}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  const text = await res.text();
  expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/v1\/nba\/odds\/games",status="200"\} 1/);
  expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/v1\/nba\/odds\/games\/:game_id",status="\d+"\} 2/);
  expect(text).toMatch(/response_cache_lookups_total\{outcome="hit"\} [1-9]/);
  expect(text).toMatch(/response_cache_lookups_total\{outcome="miss"\} [1-9]/);
  expect(text).toMatch(/^live_connections 0$/m);
  expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/api\/v1\/nba\/odds\/games"\}/);
  expect(text).toMatch(/nodejs_eventloop_lag_seconds/);
  expect(text).not.toContain(key);
});
