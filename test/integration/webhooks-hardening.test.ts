import net, { type AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Database } from '../../src/db/client';
import { createLogger } from '../../src/logger';
import { NO_HTTP_ANSWER } from '../../src/webhooks/send';
import { startWebhookWorker, type WebhookWorker } from '../../src/webhooks/worker';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/app';

// Webhooks under hostile but honest use (issue 20): text a database cannot store, the per-key cap
// under a burst of concurrent creations, targets in every special-purpose address range, and a
// delivery log that does not tell a port scanner which ports are open.

const BASE = '/api/v1/nba/odds/webhooks';

let t: TestApp;
let strict: TestApp;
let pro: string;
/** Turns the database's transactions into failures that are not an outage (the masked 500). */
let broken = false;


/** The test database, whose interactive transactions fail with a plain error while `broken` is set. */
function breakable(db: Database): Database {
  const prisma = new Proxy(db.prisma, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === '$transaction') {
        return (...args: unknown[]) => {
          if (broken) return Promise.reject(new Error('disk on fire at /var/lib/postgresql'));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { ...db, prisma };
}

beforeAll(async () => {
  t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', RATE_LIMIT_PRO: '100000', WEBHOOK_TIMEOUT_MS: '500', WEBHOOK_POLL_MS: '30', WEBHOOK_RETRY_BASE_MS: '600000' } });
  strict = await startTestApp({ db: breakable(t.db) });
  pro = (await t.createKey('pro')).key;
});
afterAll(async () => {
  await strict?.close();
  await t?.close();
});

describe('webhooks: text a database cannot store', () => {
  const CONTROL = ['\u0000', '\n', '\r', '\t', '\u001b', '\u007f', '\u0085', '\ud800'];

  test.each(CONTROL.map((c) => [JSON.stringify(c), c]))('when the description holds %s, then REST answers 400 naming the field', async (_name, c) => {
    const res = await t.request('POST', BASE, pro, { url: 'https://hooks.example.com/x', description: `my${c}alerts`, predicate: { type: 'status_change' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'invalid parameter description: must not contain control characters (NUL, tab, line breaks, ...)' });
  });

  test.each(CONTROL.map((c) => [JSON.stringify(c), c]))('when the url holds %s, then REST answers 400 naming the field', async (_name, c) => {
    const res = await t.request('POST', BASE, pro, { url: `https://hooks.example.com/a${c}b`, predicate: { type: 'status_change' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'invalid parameter url: must not contain control characters (NUL, tab, line breaks, ...)' });
  });

  test('when a change holds a NUL, then PATCH answers 400 and the webhook is unchanged', async () => {
    const created = await t.request('POST', BASE, pro, { url: 'https://hooks.example.com/x', description: 'before', predicate: { type: 'status_change' } });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    for (const body of [{ description: 'after\u0000' }, { url: 'https://hooks.example.com/\u0000' }]) {
      const res = await t.request('PATCH', `${BASE}/${id}`, pro, body);
      expect([Object.keys(body)[0], res.status]).toEqual([Object.keys(body)[0], 400]);
    }
    expect((await t.request('GET', `${BASE}/${id}`, pro)).body.data).toMatchObject({ url: 'https://hooks.example.com/x', description: 'before' });
  });

  test('when GraphQL sends a NUL in a webhook or an admin name, then the error is BAD_USER_INPUT naming the field', async () => {
    const create = 'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { id } }';
    for (const [input, field] of [
      [{ url: 'https://hooks.example.com/x', description: 'a\u0000b', predicate: { type: 'STATUS_CHANGE' } }, 'description'],
      [{ url: 'https://hooks.example.com/\u0000', predicate: { type: 'STATUS_CHANGE' } }, 'url'],
    ] as const) {
      const res = await t.graphql(create, { input }, pro);
      expect(res.body.errors[0]).toMatchObject({ message: `invalid parameter ${field}: must not contain control characters (NUL, tab, line breaks, ...)`, extensions: { code: 'BAD_USER_INPUT' } });
    }
    const admin = await t.graphql('mutation($n: String!) { createAccount(name: $n, plan: PRO) { id } }', { n: 'acme\u0000' }, TEST_ADMIN_KEY);
    expect(admin.body.errors[0]).toMatchObject({ message: 'invalid parameter name: must not contain control characters (NUL, tab, line breaks, ...)', extensions: { code: 'BAD_USER_INPUT' } });
    const revoke = await t.graphql('mutation($id: String!) { revokeApiKey(id: $id) }', { id: 'k\u0000' }, TEST_ADMIN_KEY);
    expect(revoke.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('webhooks: the masked 500', () => {
  afterEach(() => {
    broken = false;
  });

  test('when the database fails in an unexpected way, then REST answers 500 with the request id it sent in X-Request-Id, and no detail', async () => {
    broken = true;
    const res = await strict.request('POST', BASE, pro, { url: 'https://hooks.example.com/x', predicate: { type: 'status_change' } });
    expect(res.status).toBe(500);
    const id = res.headers.get('x-request-id');
    expect(id).toBeTruthy();
    expect(res.body).toEqual({ success: false, error: `internal error (request id ${id})` });
    const mine = await strict.request('POST', BASE, pro, { url: 'https://hooks.example.com/x', predicate: { type: 'status_change' } }, { 'x-request-id': 'client-chosen-42' });
    expect(mine.body).toEqual({ success: false, error: 'internal error (request id client-chosen-42)' });
  });

  test('when the same failure happens over GraphQL, then the error carries the request id too', async () => {
    broken = true;
    const res = await strict.graphql('mutation { createWebhook(input: {url: "https://hooks.example.com/x", predicate: {type: STATUS_CHANGE}}) { id } }', {}, pro);
    const id = res.headers.get('x-request-id');
    expect(res.body.errors[0]).toMatchObject({ message: `internal error (request id ${id})`, extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: id } });
    expect(JSON.stringify(res.body)).not.toMatch(/disk on fire/);
  });
});

describe('webhooks: the per-key cap', () => {
  test('when 200 creations of one key arrive at once, then exactly 20 are created and the others are refused with a 400', async () => {
    const key = (await t.createKey('pro')).key;
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => t.request('POST', BASE, key, { url: `https://hooks.example.com/${i}`, predicate: { type: 'status_change' } })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 400)).toHaveLength(180);
    expect(results.find((r) => r.status === 400)!.body.error).toMatch(/already has 20 webhooks/);
    expect((await t.request('GET', BASE, key)).body.count).toBe(20);
  });

  test('when two keys create at once, then each gets its own 20', async () => {
    const [a, b] = [(await t.createKey('pro')).key, (await t.createKey('elite')).key];
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => t.request('POST', BASE, i % 2 ? a : b, { url: `https://hooks.example.com/${i}`, predicate: { type: 'status_change' } })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(40);
    expect((await t.request('GET', BASE, a)).body.count).toBe(20);
    expect((await t.request('GET', BASE, b)).body.count).toBe(20);
  });
});

describe('webhooks: targets in special-purpose ranges (SSRF)', () => {
  const REFUSED = [
    // IPv4: this network, private, CGNAT, loopback, link-local, IETF assignments, documentation, AS112, AMT, 6to4 relay, benchmarking, multicast, reserved, broadcast
    '0.0.0.0', '0.1.2.3', '10.1.2.3', '100.64.0.1', '127.0.0.1', '127.9.9.9', '169.254.169.254', '172.16.0.1', '192.0.0.9', '192.0.2.1', '192.31.196.1', '192.52.193.1',
    '192.88.99.1', '192.168.1.1', '192.175.48.1', '198.18.0.1', '198.19.255.254', '198.51.100.7', '203.0.113.9', '224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255',
    // IPv4 spelled as the URL parser reads it
    '2130706433', '0x7f.1', '017700000001',
    // IPv6: unspecified, loopback, IPv4-mapped and -compatible, NAT64 (well-known and local-use), discard, Teredo, benchmarking, documentation, ORCHID, 6to4, ULA, link-local, site-local, multicast, outside 2000::/3
    '[::]', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:8.8.8.8]', '[::127.0.0.1]', '[::7f00:1]', '[64:ff9b::7f00:1]', '[64:ff9b::808:808]', '[64:ff9b:1::a00:1]', '[100::1]', '[2001::1]',
    '[2001:2::1]', '[2001:db8::1]', '[2001:20::1]', '[3fff::1]', '[2002:7f00:1::]', '[2002:808:808::1]', '[fc00::1]', '[fd12:3456::1]', '[fe80::1]', '[fec0::1]', '[ff02::1]', '[5f00::1]', '[4000::1]',
    // names
    'localhost', 'LOCALHOST.', 'api.localhost',
  ];

  test.each(REFUSED)('when the target host is %s, then registration is refused with a 400', async (host) => {
    const res = await strict.request('POST', BASE, pro, { url: `http://${host}:8080/hooks`, predicate: { type: 'status_change' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^invalid parameter url: must not point at a private, loopback, link-local or other special-purpose address/);
  });

  test("when the target is one of this host's own interface addresses, then registration is refused", async () => {
    const own = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((e) => (e.family === 'IPv6' ? `[${e.address}]` : e.address)));
    expect(own.length).toBeGreaterThan(0);
    for (const host of own) {
      const res = await strict.request('POST', BASE, pro, { url: `http://${host}:3000/x`, predicate: { type: 'status_change' } });
      expect([host, res.status]).toEqual([host, 400]);
    }
  });

  test.each(['8.8.8.8', '1.1.1.1', '[2606:4700:4700::1111]', '[2a00:1450:4001::200e]', 'hooks.example.com'])('when the target host is %s, then registration is accepted', async (host) => {
    const key = (await t.createKey('pro')).key;
    const res = await strict.request('POST', BASE, key, { url: `https://${host}/hooks`, predicate: { type: 'status_change' } });
    expect(res.status).toBe(201);
  });
});

describe('webhooks: the delivery log does not tell open ports from closed ones', () => {
  let worker: WebhookWorker;
  const servers: net.Server[] = [];
  const listen = async (onConnection: (socket: net.Socket) => void): Promise<number> => {
    const server = net.createServer(onConnection);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  };
  beforeAll(() => {
    worker = startWebhookWorker({ db: t.db, config: t.config.webhooks, logger: createLogger(t.config), bus: t.bus });
  });
  afterAll(async () => {
    await worker.stop();
    for (const s of servers) {
      s.close();
    }
  });

  test('when the target port is closed, speaks another protocol, resets or never answers, then every log entry says the same', async () => {
    const closedPort = await listen(() => undefined);
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    const targets = {
      closed: closedPort,
      // an SSH-like service: it speaks first, then closes
      banner: await listen((s) => s.end('SSH-2.0-OpenSSH_9.6\r\n')),
      reset: await listen((s) => s.resetAndDestroy()),
      silent: await listen(() => undefined),
    };
    const key = (await t.createKey('pro')).key;
    const hooks: Record<string, number> = {};
    for (const [name, port] of Object.entries(targets)) {
      const created = await t.request('POST', BASE, key, { url: `http://127.0.0.1:${port}/hooks`, predicate: { type: 'status_change' } });
      expect(created.status).toBe(201);
      hooks[name] = created.body.data.id;
      expect((await t.request('POST', `${BASE}/${hooks[name]}/test`, key)).status).toBe(201);
    }
    const entries: Record<string, any> = {};
    // Until each delivery has had its first attempt (the next is minutes away: WEBHOOK_RETRY_BASE_MS).
    for (let round = 0; round < 300 && Object.keys(entries).length < Object.keys(hooks).length; round++) {
      for (const [name, id] of Object.entries(hooks)) {
        const [entry] = (await t.request('GET', `${BASE}/${id}/deliveries`, key)).body.data;
        if (entry?.attempts >= 1) entries[name] = entry;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(Object.keys(entries).sort()).toEqual(Object.keys(hooks).sort());
    for (const [name, entry] of Object.entries(entries)) {
      expect([name, entry.last_status, entry.last_error]).toEqual([name, null, NO_HTTP_ANSWER]);
    }
  });
});
