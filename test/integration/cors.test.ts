import { io as connect } from 'socket.io-client';
import { loadConfig } from '../../src/config';
import { startTestApp, type TestApp } from '../support/app';

// CORS by an allow-list (CORS_ORIGINS), off by default: pages of a listed origin may call REST,
// /graphql and Socket.IO's long-polling from a browser; other origins get no allowance.

const ALLOWED = 'https://board.example.test';
const REFUSED = 'https://evil.example.test';

describe('with CORS_ORIGINS set', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { CORS_ORIGINS: `${ALLOWED}, http://localhost:5173` } });
    ({ key } = await t.createKey('pro'));
  });
  afterAll(() => t.close());

  const get = (path: string, origin: string) => fetch(t.baseUrl + path, { headers: { origin, authorization: `Bearer ${key}` } });
  const preflight = (path: string, origin: string, method = 'GET') =>
    fetch(t.baseUrl + path, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type' } });

  test('when a listed origin calls REST, then the answer allows that origin and exposes the rate-limit and request-id headers', async () => {
    const res = await get('/api/v1/nba/odds/games?limit=1', ALLOWED);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('vary')).toMatch(/Origin/);
    expect(res.headers.get('access-control-expose-headers')).toMatch(/X-RateLimit-Remaining.*Retry-After/);
    expect(res.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
  });

  test('when an origin not listed calls REST, then the answer carries no allowance (the browser refuses it)', async () => {
    const res = await get('/api/v1/nba/odds/games?limit=1', REFUSED);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('when a listed origin sends a preflight for /graphql, then it is answered 204 with the methods and headers it may use', async () => {
    const res = await preflight('/graphql', 'http://localhost:5173', 'POST');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/Authorization/i);
    expect(res.headers.get('access-control-max-age')).toBe('600');
  });

  test('when an origin not listed sends a preflight, then no allowance is given', async () => {
    const res = await preflight('/api/v1/nba/odds/games', REFUSED);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('when a listed origin posts a GraphQL query, then the answer allows it', async () => {
    const res = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { origin: ALLOWED, 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  test("when Socket.IO's long-polling handshake comes from a listed origin, then it is allowed; from another, not", async () => {
    const poll = (origin: string) => fetch(`${t.baseUrl}/socket.io/?EIO=4&transport=polling`, { headers: { origin } });
    const allowed = await poll(ALLOWED);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect((await poll(REFUSED)).headers.get('access-control-allow-origin')).toBeNull();
    // and a client on long-polling still gets through to /live-odds
    const socket = connect(`${t.baseUrl}/live-odds`, { auth: { apiKey: key }, transports: ['polling'], reconnection: false, forceNew: true, extraHeaders: { origin: ALLOWED } });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
    } finally {
      socket.disconnect();
    }
  });
});

describe('without CORS_ORIGINS (the default)', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t.close());

  test('when any origin calls REST or sends a preflight, then no CORS header is sent', async () => {
    const res = await fetch(`${t.baseUrl}/healthz`, { headers: { origin: ALLOWED } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await fetch(`${t.baseUrl}/graphql`, { method: 'OPTIONS', headers: { origin: ALLOWED, 'access-control-request-method': 'POST' } });
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  });
});

test.each([['*'], ['board.example.test'], ['https://board.example.test/path'], ['ftp://x.test']])('when CORS_ORIGINS is %j, then the configuration is refused naming the variable', (value) => {
  expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(/CORS_ORIGINS="[^"]*": must be origins/);
});
