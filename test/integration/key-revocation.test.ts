import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createKey } from '../../src/db/account-store';
import { createLocalBus, createRedisBus, type EventBus } from '../../src/events/bus';
import { seedReferenceData } from '../../src/ingest/seed';
import { createLogger } from '../../src/logger';
import { TEST_ADMIN_KEY, startTestApp, type TestApp } from '../support/app';
import { openTestDatabase, TEST_DATABASE_URL, TEST_REDIS_URL } from '../support/database';

// Verified keys are held in memory (src/auth/authenticate.ts). A revocation, a downgrade or an expiry
// must still be refused at once: the admin mutations and the CLI announce every change on the bus,
// and every API process drops the key. The key cache's TTL is set to an hour here, far beyond any
// wait of these tests, so only the bus can explain a refusal.

jest.setTimeout(60_000);

const ROUTE = '/api/v1/nba/odds/sportsbooks';
const BIN = path.join(__dirname, '..', '..', 'bin', 'odds.js');

async function adminGraphql(baseUrl: string, query: string): Promise<any> {
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_ADMIN_KEY}` },
    body: JSON.stringify({ query }),
  });
  return res.json();
}

async function statusOf(baseUrl: string, key: string, route = ROUTE): Promise<number> {
  const res = await fetch(baseUrl + route, { headers: { authorization: `Bearer ${key}` } });
  await res.arrayBuffer();
  return res.status;
}

describe('one process', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  test('when a key in use is revoked through the admin mutation, then the very next request is refused with 401', async () => {
    const { id, key } = await t.createKey('pro');
    expect(await statusOf(t.baseUrl, key)).toBe(200);
    expect(await statusOf(t.baseUrl, key)).toBe(200); // now served from the key cache
    const revoked = await adminGraphql(t.baseUrl, `mutation { revokeApiKey(id: "${id}") }`);
    expect(revoked.data.revokeApiKey).toBe(true);
    expect(await statusOf(t.baseUrl, key)).toBe(401);
  });

  test('when an account is downgraded to Starter through the admin mutation, then its key loses the Pro routes at once', async () => {
    const { key, accountId } = await t.createKey('pro');
    expect(await statusOf(t.baseUrl, key, '/api/v1/nba/odds/live/movement')).toBe(200);
    const updated = await adminGraphql(t.baseUrl, `mutation { updateAccount(id: "${accountId}", plan: STARTER) { plan } }`);
    expect(updated.errors).toBeUndefined();
    expect(await statusOf(t.baseUrl, key, '/api/v1/nba/odds/live/movement')).toBe(403);
  });

  test('when an account is made inactive through the admin mutation, then its key is refused with 403 at once', async () => {
    const { key, accountId } = await t.createKey('elite');
    expect(await statusOf(t.baseUrl, key)).toBe(200);
    await adminGraphql(t.baseUrl, `mutation { updateAccount(id: "${accountId}", subscriptionStatus: INACTIVE) { plan } }`);
    expect(await statusOf(t.baseUrl, key)).toBe(403);
  });

  test('when an account reaches its subscription end while its key is cached, then the key is refused with 403', async () => {
    const endsAt = new Date(Date.now() + 1500);
    const { key } = await t.createKey('pro', { expiresAt: endsAt });
    expect(await statusOf(t.baseUrl, key)).toBe(200);
    await new Promise((r) => setTimeout(r, Math.max(0, endsAt.getTime() - Date.now()) + 50));
    expect(await statusOf(t.baseUrl, key)).toBe(403);
  });

  test('when the admin mutation names an unknown key, then it answers false and nothing breaks', async () => {
    const res = await adminGraphql(t.baseUrl, 'mutation { revokeApiKey(id: "key_nope") }');
    expect(res.data.revokeApiKey).toBe(false);
  });
});

// Two API processes on one PostgreSQL and one Redis: a revocation in one (admin mutation) or by the
// CLI (a third process) is refused by the other within 1 s (the bound).
const describeScaleOut = TEST_DATABASE_URL && TEST_REDIS_URL ? describe : describe.skip;
if (!(TEST_DATABASE_URL && TEST_REDIS_URL)) console.warn('key-revocation.test.ts: two-process tests skipped (TEST_DATABASE_URL and TEST_REDIS_URL are not both set)');

describeScaleOut('two processes on PostgreSQL and Redis', () => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  const servers: Array<{ app: App; bus: EventBus; url: string }> = [];

  beforeAll(async () => {
    db = await openTestDatabase('postgres');
    await seedReferenceData(db.prisma);
    const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: 'memory://', ADMIN_KEY: TEST_ADMIN_KEY, REDIS_URL: TEST_REDIS_URL });
    for (let i = 0; i < 2; i++) {
      const bus = await createRedisBus(TEST_REDIS_URL!);
      const app = createApp({ config, db, bus, logger: createLogger(config), keyCacheTtlMs: 3_600_000 });
      await new Promise<void>((resolve) => app.httpServer.listen(0, '127.0.0.1', resolve));
      servers.push({ app, bus, url: `http://127.0.0.1:${(app.httpServer.address() as AddressInfo).port}` });
    }
  });
  afterAll(async () => {
    for (const s of servers) {
      await s.app.close();
      s.app.httpServer.closeAllConnections();
      await new Promise<void>((resolve) => s.app.httpServer.close(() => resolve()));
      await s.bus.close();
    }
    await db?.close();
  });

  /** Asks `url` until it refuses `key` with `status`; fails if that takes more than 1 s from now. */
  async function refusedWithinOneSecond(url: string, key: string, status: number): Promise<void> {
    const started = Date.now();
    let last = await statusOf(url, key);
    while (last !== status && Date.now() - started <= 1000) {
      await new Promise((r) => setTimeout(r, 20));
      last = await statusOf(url, key);
    }
    expect({ status: last, withinOneSecond: Date.now() - started <= 1000 }).toEqual({ status, withinOneSecond: true });
  }

  test('when a key is revoked through the admin mutation of one process, then the other refuses it within 1 s', async () => {
    const [a, b] = servers as [(typeof servers)[0], (typeof servers)[0]];
    const { id, key } = await createKey(db.prisma, { plan: 'elite' });
    expect(await statusOf(a.url, key)).toBe(200);
    expect(await statusOf(b.url, key)).toBe(200);
    const res = await adminGraphql(a.url, `mutation { revokeApiKey(id: "${id}") }`);
    expect(res.data.revokeApiKey).toBe(true);
    expect(await statusOf(a.url, key)).toBe(401);
    await refusedWithinOneSecond(b.url, key, 401);
  });

  test('when a key is revoked with `odds keys revoke`, then both running processes refuse it within 1 s', async () => {
    const { id, key } = await createKey(db.prisma, { plan: 'elite' });
    for (const s of servers) expect(await statusOf(s.url, key)).toBe(200);
    const child = spawn(process.execPath, [BIN, 'keys', 'revoke', id], {
      env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: db.url!, REDIS_URL: TEST_REDIS_URL!, DATA_DIR: 'memory://' },
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    for (const s of servers) await refusedWithinOneSecond(s.url, key, 401);
  });

  test('when an account is made inactive with `odds accounts update`, then both running processes refuse its key within 1 s', async () => {
    const { key, account_id } = await createKey(db.prisma, { plan: 'pro' });
    for (const s of servers) expect(await statusOf(s.url, key)).toBe(200);
    const child = spawn(process.execPath, [BIN, 'accounts', 'update', account_id, '--status', 'inactive'], {
      env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: db.url!, REDIS_URL: TEST_REDIS_URL!, DATA_DIR: 'memory://' },
    });
    const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
    expect(code).toBe(0);
    for (const s of servers) await refusedWithinOneSecond(s.url, key, 403);
  });
});

// Without any announcement the key cache still forgets a key after its TTL (the safety net).
test('when a key is revoked behind the service’s back (no bus event), then it is refused once the key cache TTL has passed', async () => {
  const db = await openTestDatabase('pglite');
  await seedReferenceData(db.prisma);
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: 'memory://' });
  const bus = createLocalBus();
  const app = createApp({ config, db, bus, logger: createLogger(config), keyCacheTtlMs: 200 });
  await new Promise<void>((resolve) => app.httpServer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(app.httpServer.address() as AddressInfo).port}`;
  try {
    const { id, key } = await createKey(db.prisma, { plan: 'pro' });
    expect(await statusOf(url, key)).toBe(200);
    await db.prisma.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
    await new Promise((r) => setTimeout(r, 300));
    expect(await statusOf(url, key)).toBe(401);
  } finally {
    await app.close();
    app.httpServer.closeAllConnections();
    await new Promise<void>((resolve) => app.httpServer.close(() => resolve()));
    await bus.close();
    await db.close();
  }
});
