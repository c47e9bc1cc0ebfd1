import type { AddressInfo } from 'node:net';
import { createApp, type App, type AppDeps } from '../../src/app';
import type { Plan } from '../../src/auth/viewer';
import { loadConfig, type Config } from '../../src/config';
import type { Database } from '../../src/db/client';
import { createKey, updateAccount } from '../../src/db/account-store';
import { ingestDocuments } from '../../src/ingest/ingest';
import { seedReferenceData } from '../../src/ingest/seed';
import { readSources } from '../../src/ingest/sources';
import { createLocalBus, type EventBus } from '../../src/events/bus';
import { createLogger, type Logger } from '../../src/logger';
import { openTestDatabase } from './database';

/** Admin key of every test app (Authorization: Bearer ADMIN_KEY on admin mutations). */
export const TEST_ADMIN_KEY = 'test-admin-key-0123456789';

export interface TestApp {
  /** http://127.0.0.1:<port>, no trailing slash. */
  baseUrl: string;
  db: Database;
  bus: EventBus;
  app: App;
  config: Config;
  /** A fresh API key (`sk_...`) of a new account on `plan`; `expiresAt` in the past gives a 403 key. */
  createKey(plan?: Plan, opts?: { expiresAt?: Date | null; status?: 'active' | 'canceled' | 'inactive' }): Promise<{ id: string; key: string; accountId: string }>;
  /** GET `path` (relative to baseUrl) with `Authorization: Bearer key`; returns status, headers and parsed JSON. */
  get(path: string, key?: string): Promise<{ status: number; headers: Headers; body: any }>;
  /**
   * `method` on `path` with `Authorization: Bearer key` (when given), `body` when given (a string as
   * it is, anything else as JSON) and extra `headers`; returns status, headers and parsed JSON.
   */
  request(method: string, path: string, key?: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }>;
  /** POST a GraphQL request to /graphql with `Authorization: Bearer key`. */
  graphql(query: string, variables?: Record<string, unknown>, key?: string): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Feed files or folders to ingest after seeding (e.g. test/fixtures/feeds/...). */
  feeds?: string[];
  /** Environment overrides for loadConfig (LEAGUE_TIME_ZONE, ...). */
  env?: Record<string, string>;
  /** The app's clock (default: the real one). */
  now?: () => Date;
  /** Use this database instead of opening one (it is not closed by close()). */
  db?: Database;
  /** The app's logger (default: silent unless env sets LOG_LEVEL). */
  logger?: Logger;
  /** Redis client for shared rate-limit counters. */
  rateLimitStore?: AppDeps['rateLimitStore'];
  /** The polled sources' quotas by format name, shown by /readyz and /metrics. */
  feedQuotas?: AppDeps['feedQuotas'];
}

/**
 * fetch, with a GET sent again once when the kept-alive connection it went out on was reset: the
 * server closes an idle connection after its keep-alive timeout (5 s) and the client retires it ~2 s
 * before (the Keep-Alive hint), but on a machine so loaded that the test's event loop runs seconds
 * late, the client can pick the connection in the instant the server drops it (ECONNRESET, seen once
 * at load average 16 on 2 cores). Browsers retry an idempotent request then; so does this client.
 */
async function fetchOnce(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = ((error as { cause?: { code?: string } }).cause ?? {}).code;
    if ((init.method ?? 'GET') !== 'GET' || (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET')) throw error;
    return fetch(url, init);
  }
}

/**
 * Opens a test database (TEST_DATABASE_URL or in-memory PGlite), seeds the reference data, ingests
 * `feeds`, creates the app and listens on 127.0.0.1 port 0. Open one per test file (beforeAll).
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = options.db ?? (await openTestDatabase());
  await seedReferenceData(db.prisma);
  for (const feed of options.feeds ?? []) await ingestDocuments(readSources(feed), { db });
  // REST results are not cached in tests unless a test asks (REST_CACHE_MS), so ingests without a bus show at once.
  const config = loadConfig({ LOG_LEVEL: 'silent', ADMIN_KEY: TEST_ADMIN_KEY, DATA_DIR: 'memory://', REST_CACHE_MS: '0', ...options.env });
  const bus = createLocalBus();
  const app = createApp({ config, db, bus, logger: options.logger ?? createLogger(config), rateLimitStore: options.rateLimitStore, ...(options.now && { now: options.now }), ...(options.feedQuotas && { feedQuotas: options.feedQuotas }) });
  await new Promise<void>((resolve) => app.httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = app.httpServer.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const send = async (path: string, init: RequestInit) => {
    const res = await fetchOnce(baseUrl + path, init);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: the test sees the text
    }
    return { status: res.status, headers: res.headers, body };
  };
  return {
    baseUrl,
    db,
    bus,
    app,
    config,
    async createKey(plan = 'pro', opts = {}) {
      const created = await createKey(db.prisma, { plan, expiresAt: opts.expiresAt ?? null });
      if (opts.status) await updateAccount(db.prisma, created.account_id, { subscriptionStatus: opts.status });
      return { id: created.id, key: created.key, accountId: created.account_id };
    },
    get: (path, key) => send(path, { headers: key ? { authorization: `Bearer ${key}` } : {} }),
    request: (method, path, key, body, headers = {}) =>
      send(path, {
        method,
        headers: { ...headers, ...(key && { authorization: `Bearer ${key}` }), ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      }),
    graphql: (query, variables, key) =>
      send('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key && { authorization: `Bearer ${key}` }) },
        body: JSON.stringify({ query, variables }),
      }),
    async close() {
      await app.close();
      // fetch keeps connections alive; end them so the server (and jest) can stop at once
      const closed = new Promise<void>((resolve) => app.httpServer.close(() => resolve()));
      app.httpServer.closeAllConnections();
      await closed;
      await bus.close();
      if (!options.db) await db.close();
    },
  };
}
