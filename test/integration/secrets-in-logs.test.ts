import { Writable } from 'node:stream';
import { createClient } from 'graphql-ws';
import { connect } from 'socket.io-client';
import WebSocket from 'ws';
import { ConfigError, loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { redactUrl } from '../../src/redact';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/app';
import { waitFor } from './live-helpers';

// No API key, admin key or connection-string password may reach a log line, whatever transport
// carried it: the logs of a run that uses every transport, at the most verbose level, are searched.

const lines: string[] = [];
const capture = new Writable({
  write(chunk, _encoding, done) {
    lines.push(String(chunk));
    done();
  },
});

let t: TestApp;
let key: string;
const unknownKey = 'sk_live_' + 'f'.repeat(40);

beforeAll(async () => {
  t = await startTestApp({ feeds: ['test/fixtures/feeds/nba-2026-01-24-mixed-status.json'], logger: createLogger({ logLevel: 'trace' }, {}, capture) });
  key = (await t.createKey('elite')).key;
});
afterAll(() => t.close());

test('when every transport carries keys, valid and not, then no log line holds one', async () => {
  // REST: Bearer, an unknown key, a key in the query string, an x-api-key header.
  await t.get('/api/v1/nba/odds/games?limit=1', key);
  await t.get('/api/v1/nba/odds/games?limit=1', unknownKey);
  await fetch(`${t.baseUrl}/api/v1/nba/odds/games?api_key=${key}&limit=1`);
  await fetch(`${t.baseUrl}/api/v1/nba/odds/games?limit=1`, { headers: { 'x-api-key': key } });
  // GraphQL over HTTP, with an API key and with the admin key.
  await t.graphql('{ games(limit: 1) { total } }', {}, key);
  const created = await t.graphql('mutation { createApiKey(plan: PRO, name: "log test") { key } }', {}, TEST_ADMIN_KEY);
  const adminCreated: string = created.body.data.createApiKey.key;
  await t.graphql('{ apiKeys { id } }', {}, TEST_ADMIN_KEY);
  // graphql-ws: key in connection_init.
  const client = createClient({ url: t.baseUrl.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { apiKey: key }, retryAttempts: 0 });
  await new Promise((resolve, reject) => client.subscribe({ query: '{ ok }' }, { next: resolve, error: reject, complete: () => {} }));
  await client.dispose();
  // Socket.IO: key in the handshake, a good one and an unknown one.
  for (const apiKey of [key, unknownKey]) {
    const socket = connect(`${t.baseUrl}/live-odds`, { auth: { apiKey }, transports: ['websocket'], reconnection: false, forceNew: true });
    let settled = false;
    socket.on('live_odds', () => (settled = true));
    socket.on('connect_error', () => (settled = true));
    await waitFor('the socket to answer', () => settled);
    socket.close();
  }

  const logs = lines.join('');
  expect(lines.length).toBeGreaterThanOrEqual(7); // one per HTTP request at least
  expect(logs).toContain('/api/v1/nba/odds/games');
  for (const secret of [key, unknownKey, TEST_ADMIN_KEY, adminCreated]) expect(logs).not.toContain(secret);
  expect(logs).toContain('api_key=[redacted]');
});

test('when a key comes in Proxy-Authorization (or Cookie), then the request log shows the header redacted', async () => {
  const proxied = (await t.createKey('pro')).key;
  const before = lines.length;
  await fetch(`${t.baseUrl}/api/v1/nba/odds/leagues`, { headers: { 'proxy-authorization': `Bearer ${proxied}`, cookie: `key=${proxied}` } });
  await waitFor('the request log line', () => lines.slice(before).some((l) => l.includes('/api/v1/nba/odds/leagues')));
  const logged = lines.slice(before).join('');
  expect(logged).not.toContain(proxied);
  expect(logged).toContain('"proxy-authorization":"[redacted]"');
});

test('when a secret-bearing variable is invalid, then the configuration error names it without its value', () => {
  const attempt = () => loadConfig({ DATABASE_URL: 'mysql://admin:hunter2-secret@db:3306/odds', ADMIN_KEY: 'short-secret' });
  expect(attempt).toThrow(ConfigError);
  expect(attempt).toThrow(/DATABASE_URL/);
  expect(attempt).toThrow(/ADMIN_KEY/);
  try {
    attempt();
  } catch (error) {
    expect(String(error)).not.toMatch(/hunter2|short-secret/);
  }
});

test.each([
  ['postgresql://odds:s3cret@db:5432/odds', 'postgresql://odds:[redacted]@db:5432/odds'],
  ['/api/v1/nba/odds/games?api_key=sk_live_x&limit=1', '/api/v1/nba/odds/games?api_key=[redacted]&limit=1'],
  ['https://feed.example/scoreboard?token=abc&date=20260124', 'https://feed.example/scoreboard?token=[redacted]&date=20260124'],
  ['/healthz', '/healthz'],
])('when %s is logged, then it reads %s', (url, shown) => {
  expect(redactUrl(url)).toBe(shown);
});
