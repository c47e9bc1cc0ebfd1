import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { io as connect } from 'socket.io-client';
import { createApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createKey } from '../../src/db/account-store';
import type { Database } from '../../src/db/client';
import { ingestDocuments } from '../../src/ingest/ingest';
import { seedReferenceData } from '../../src/ingest/seed';
import { createRedisBus, type EventBus } from '../../src/events/bus';
import { createLogger } from '../../src/logger';
import { describeWithRedis, openTestDatabase, TEST_DATABASE_URL, TEST_REDIS_URL } from '../support/database';
import { capture, waitFor, type GameSpec } from './live-helpers';

// Two API processes (two apps, each with its own Redis bus) over one database: an ingest through
// one reaches a Socket.IO client of the other. Needs TEST_REDIS_URL; skipped otherwise.

if (!TEST_REDIS_URL) console.warn('live-redis.test.ts skipped: TEST_REDIS_URL is not set');

const game = (home: number): GameSpec => ({ id: 3001, status: 'inprogress', start: '2026-01-24T00:30:00.000Z', books: { 15: { spread: [home, -110, -110] } } });

describeWithRedis('two processes sharing Redis', () => {
  let db: Database;
  const servers: Array<{ app: App; bus: EventBus; url: string }> = [];

  beforeAll(async () => {
    db = await openTestDatabase();
    await seedReferenceData(db.prisma);
    const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: 'memory://', REDIS_URL: TEST_REDIS_URL });
    for (let i = 0; i < 2; i++) {
      const bus = await createRedisBus(TEST_REDIS_URL!);
      const app = createApp({ config, db, bus, logger: createLogger(config) });
      await new Promise<void>((resolve) => app.httpServer.listen(0, '127.0.0.1', resolve));
      servers.push({ app, bus, url: `http://127.0.0.1:${(app.httpServer.address() as AddressInfo).port}` });
    }
    await ingestDocuments([capture('2026-01-24T01:00:00.000Z', game(-3))], { db, bus: servers[0]!.bus });
  });
  afterAll(async () => {
    for (const s of servers) {
      await s.app.close();
      await new Promise<void>((resolve) => s.app.httpServer.close(() => resolve()));
      await s.bus.close();
    }
    await db.close();
  });

  test('when process A ingests, then a client of process B gets the change push', async () => {
    const { key } = await createKey(db.prisma, { plan: 'pro', expiresAt: null });
    const socket = connect(`${servers[1]!.url}/live-odds`, { auth: { apiKey: key }, transports: ['websocket'], reconnection: false, forceNew: true });
    const pushes: any[] = [];
    const changes: any[] = [];
    socket.on('live_odds', (p) => pushes.push(p));
    socket.on('odds_change', (d) => changes.push(d));
    await waitFor('the snapshot', () => pushes.length > 0);

    await ingestDocuments([capture('2026-01-24T01:01:00.000Z', game(-7.5))], { db, bus: servers[0]!.bus });
    // Other events may cross the shared Redis channel (the setup ingest, other test runs): wait for ours.
    const homePoint = (d: any) => d.quotes.find((q: any) => q.game_id === 3001 && q.side === 'home')?.point;
    await waitFor('the delta from the other process', () => changes.some((d) => homePoint(d) === -7.5));
    socket.close();
  });

  test('when process A stores a steam signal, then a client of process B that asked for signals gets it as line_signal', async () => {
    const { key } = await createKey(db.prisma, { plan: 'pro', expiresAt: null });
    const socket = connect(`${servers[1]!.url}/live-odds`, { auth: { apiKey: key }, transports: ['websocket'], reconnection: false, forceNew: true });
    const signals: any[] = [];
    socket.on('line_signal', (s) => signals.push(s));
    expect(await socket.emitWithAck('subscribe_signals', { game_id: 3002 })).toEqual({ success: true, filter: { game_id: [3002] } });
    // A game not started, three real books moving its spread from -3 to -4.5 within two minutes: steam.
    const pregame = (home: number): GameSpec => ({
      id: 3002,
      status: 'scheduled',
      start: '2026-01-25T00:30:00.000Z',
      books: { 68: { spread: [home, -110, -110] }, 79: { spread: [home, -110, -110] }, 69: { spread: [home, -110, -110] } },
    });
    await ingestDocuments([capture('2026-01-24T01:03:00.000Z', pregame(-3))], { db, bus: servers[0]!.bus });
    await ingestDocuments([capture('2026-01-24T01:05:00.000Z', pregame(-4.5))], { db, bus: servers[0]!.bus });
    await waitFor('the steam signal from the other process', () => signals.some((s) => s.kind === 'steam'));
    const steam = signals.find((s) => s.kind === 'steam');
    expect(steam).toMatchObject({ game_id: 3002, market_type: 'spread', side: 'home', data: { books: 3, direction: 'toward_side' } });
    expect(signals.every((s) => s.game_id === 3002)).toBe(true);
    socket.close();
  });

  // `odds ingest` runs dist/ (npm run build first) and needs the same database: PostgreSQL only.
  (TEST_DATABASE_URL ? test : test.skip)('when `odds ingest` runs as a separate process, then a client of each API process gets the delta', async () => {
    const { key } = await createKey(db.prisma, { plan: 'starter', expiresAt: null });
    const clients = servers.map((s) => {
      const socket = connect(`${s.url}/live-odds`, { auth: { apiKey: key, game_id: 3001 }, transports: ['websocket'], reconnection: false, forceNew: true });
      const state = { socket, snapshots: 0, changes: [] as any[] };
      socket.on('live_odds', () => state.snapshots++);
      socket.on('odds_change', (d) => state.changes.push(d));
      return state;
    });
    await waitFor('the snapshots', () => clients.every((c) => c.snapshots > 0));
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'odds-live-')), 'doc.json');
    writeFileSync(file, JSON.stringify(capture('2026-01-24T01:02:00.000Z', game(-9.5)).body));
    const bin = path.join(__dirname, '..', '..', 'bin', 'odds.js');
    await promisify(execFile)(process.execPath, [bin, 'ingest', file], { env: { ...process.env, DATABASE_URL: db.location, REDIS_URL: TEST_REDIS_URL, LOG_LEVEL: 'silent' } });
    const homePoint = (d: any) => d.quotes.find((q: any) => q.game_id === 3001 && q.side === 'home')?.point;
    await waitFor('the delta on both processes', () => clients.every((c) => c.changes.some((d) => homePoint(d) === -9.5)));
    for (const c of clients) c.socket.close();
  });
});
