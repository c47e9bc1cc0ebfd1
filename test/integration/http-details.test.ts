import net from 'node:net';
import { startTestApp, type TestApp } from '../support/app';

// HTTP details a hostile or careless client meets (issue 20): too many query parameters, methods a
// route does not take, a request without Host, and plan refusals over GraphQL GET.

const BASE = '/api/v1/nba/odds';
let t: TestApp;
let cached: TestApp;
let elite: string;
let starter: string;

beforeAll(async () => {
  t = await startTestApp({ feeds: ['test/fixtures/feeds/nba-2026-01-24-mixed-status.json'] });
  // The same database with the response cache on: GraphQL GETs go through the cached path first.
  cached = await startTestApp({ db: t.db, env: { REST_CACHE_MS: '300000' } });
  elite = (await t.createKey('elite')).key;
  starter = (await t.createKey('starter')).key;
});
afterAll(async () => {
  await cached?.close();
  await t?.close();
});

async function request(app: TestApp, method: string, path: string, key?: string, headers: Record<string, string> = {}) {
  const res = await fetch(app.baseUrl + path, { method, headers: { ...headers, ...(key && { authorization: `Bearer ${key}` }) } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? (JSON.parse(text) as any) : undefined };
}

/** Sends raw bytes and returns the raw answer (the server closes the connection after it). */
function raw(bytes: string): Promise<string> {
  const { port } = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      answer += chunk;
      // one answer is enough: stop once its declared body has arrived
      const [head, body = ''] = answer.split('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(head ?? '');
      if (length && Buffer.byteLength(body) >= Number(length[1])) socket.end();
    });
    socket.on('end', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('query parameters past the 1,000th', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => `x${i}=1`).join('&');

  test('when a REST request carries 1,001 parameters, then it is a 400 in the envelope, not a silently shortened query', async () => {
    const res = await request(t, 'GET', `${BASE}/games?${many(1000)}&limit=0`, elite);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'invalid request: more than 1000 query parameters' });
  });

  test('when a request carries exactly 1,000 parameters, then the last one is read', async () => {
    const res = await request(t, 'GET', `${BASE}/games?${many(999)}&limit=0`, elite);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^invalid parameter limit: /);
    expect((await request(t, 'GET', `${BASE}/games?${many(999)}&limit=1`, elite)).status).toBe(200);
  });

  test('when a GraphQL GET or another endpoint carries 1,001 parameters, then it is a 400 in its own shape', async () => {
    const graphql = await request(t, 'GET', `/graphql?${many(1000)}&query=${encodeURIComponent('{ ok }')}`, elite);
    expect(graphql.status).toBe(400);
    expect(graphql.body).toEqual({ errors: [{ message: 'invalid request: more than 1000 query parameters', extensions: { code: 'BAD_USER_INPUT' } }] });
    const health = await request(t, 'GET', `/healthz?${many(1001)}`);
    expect(health.status).toBe(400);
    expect(health.body.success).toBe(false);
  });

  test('when the pieces are empty (&&&), then they are not parameters', async () => {
    expect((await request(t, 'GET', `${BASE}/leagues?${'&'.repeat(3000)}`, elite)).status).toBe(200);
  });
});

describe('methods a route does not take', () => {
  test.each([
    ['PUT', `${BASE}/games`, 'GET, HEAD'],
    ['POST', `${BASE}/games`, 'GET, HEAD'],
    ['DELETE', `${BASE}/games/264317`, 'GET, HEAD'],
    ['PATCH', `${BASE}/markets/spread`, 'GET, HEAD'],
    ['OPTIONS', `${BASE}/leagues`, 'GET, HEAD'],
    ['PUT', `${BASE}/webhooks/1`, 'GET, HEAD, PATCH, DELETE'],
    ['GET', `${BASE}/clv`, 'POST'],
    ['POST', `${BASE}/stream`, 'GET'],
    ['PUT', '/healthz', 'GET, HEAD'],
    ['POST', '/metrics', 'GET, HEAD'],
    ['DELETE', '/api/v1/openapi.json', 'GET, HEAD'],
    ['POST', '/docs/graphql', 'GET, HEAD'],
    ['PUT', '/', 'GET, HEAD'],
  ])('when %s %s is asked, then 405 with Allow: %s, in the envelope', async (method, path, allow) => {
    const res = await request(t, method, path, elite);
    expect([res.status, res.headers.get('allow')]).toEqual([405, allow]);
    expect(res.body).toEqual({ success: false, error: expect.stringMatching(new RegExp(`^method not allowed: ${method} .* takes ${allow}$`)) });
  });

  test('when /graphql is asked with another method than GET or POST, then 405 with Allow in GraphQL shape', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const res = await request(t, method, '/graphql', elite);
      expect([method, res.status, res.headers.get('allow'), res.body.errors[0].extensions.code]).toEqual([method, 405, 'GET, POST', 'BAD_REQUEST']);
    }
  });

  test('when a path is unknown, then it is still 404 whatever the method', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      expect((await request(t, method, `${BASE}/nothing-here`, elite)).status).toBe(404);
    }
    expect((await request(t, 'GET', '/docs/guides/no-such-guide', elite)).status).toBe(404);
  });

  test('when a route is asked with HEAD, then it answers like GET without a body', async () => {
    const res = await request(t, 'HEAD', `${BASE}/leagues`, elite);
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
  });
});

describe('a request without Host', () => {
  test('when an HTTP/1.1 request has no Host header, then it is a 400 in the envelope', async () => {
    const answer = await raw('GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(answer.split('\r\n\r\n')[1]!)).toEqual({ success: false, error: 'invalid request: an HTTP/1.1 request must carry a Host header' });
  });

  test('when an HTTP/1.0 request has no Host header, then it is served (1.0 does not require it)', async () => {
    const answer = await raw('GET /healthz HTTP/1.0\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('plan refusals over GraphQL GET', () => {
  const movement = `/graphql?query=${encodeURIComponent('{ lineMovement { records { gameId } } }')}`;

  test.each([
    ['without the response cache', () => t],
    ['with the response cache', () => cached],
  ])('when a starter key asks for a Pro field by GET %s, then the error is FORBIDDEN with the plan message, not a CSRF refusal', async (_name, app) => {
    const res = await request(app(), 'GET', movement, starter);
    expect(res.body.errors[0]).toMatchObject({ message: expect.stringMatching(/requires the Pro or Elite plan/), extensions: { code: 'FORBIDDEN' } });
    expect(res.body.errors[0].message).not.toMatch(/Cross-Site Request Forgery/);
  });

  test('when an elite key asks for it by GET, then it is answered', async () => {
    const res = await request(t, 'GET', movement, elite);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(Array.isArray(res.body.data.lineMovement.records)).toBe(true);
  });

  test('when a GET carries no key and no preflight header, then Apollo still refuses it as a possible CSRF', async () => {
    const res = await request(t, 'GET', movement);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });
});
