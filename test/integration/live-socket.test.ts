import { io as connect, type Socket } from 'socket.io-client';
import { ingestDocuments } from '../../src/ingest/ingest';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/app';
import { capture, waitFor, type GameSpec } from './live-helpers';

// The Socket.IO namespace /live-odds with the real socket.io-client: handshake, subscribe, pushes.

const A = (home: number): GameSpec => ({ id: 5001, status: 'inprogress', start: '2026-01-24T00:30:00.000Z', books: { 15: { spread: [home, -110, -110], moneyline: [-150, 130] }, 68: { total: [220.5, -110, -110] } } });
const B = (home: number): GameSpec => ({ id: 5002, status: 'inprogress', start: '2026-01-24T01:00:00.000Z', books: { 15: { spread: [home, -110, -110] } }, home: 9021, away: 9022 });

let clock = Date.parse('2026-01-24T01:00:00.000Z');
/** A fetched_at later than every earlier one (the store ignores older documents). */
const nextSeen = () => new Date((clock += 60_000)).toISOString();

interface Client {
  socket: Socket;
  pushes: any[];
  /** Resolves with the next push after the ones already received. */
  next(timeoutMs?: number): Promise<any>;
  /**
   * Resolves with the first successful push at index `seen` or later. Take `seen` before emitting:
   * a push may arrive in the same frame batch as the ack that precedes it.
   */
  after(seen: number, timeoutMs?: number): Promise<any>;
}

function open(t: TestApp, auth: Record<string, unknown> | undefined): Client {
  const socket = connect(`${t.baseUrl}/live-odds`, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
  const pushes: any[] = [];
  socket.on('live_odds', (p) => pushes.push(p));
  return {
    socket,
    pushes,
    async next(timeoutMs = 3000) {
      const seen = pushes.length;
      await waitFor('a live_odds push', () => pushes.length > seen, timeoutMs);
      return pushes[seen];
    },
    async after(seen, timeoutMs = 3000) {
      const found = () => pushes.slice(seen).find((p) => p.success);
      await waitFor('a successful live_odds push', () => found() !== undefined, timeoutMs);
      return found();
    },
  };
}

/** Connects and waits for the first push (the snapshot every socket gets on connect). */
async function connected(t: TestApp, key: string): Promise<Client> {
  const client = open(t, { apiKey: key });
  await waitFor('the first push', () => client.pushes.length > 0);
  return client;
}

const connectError = (t: TestApp, auth: Record<string, unknown> | undefined) =>
  new Promise<Error>((resolve, reject) => {
    const socket = connect(`${t.baseUrl}/live-odds`, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
    socket.on('connect', () => {
      socket.close();
      reject(new Error('connected'));
    });
    socket.on('connect_error', (error) => {
      socket.close();
      resolve(error);
    });
  });

const subscribe = (c: Client, filter: unknown) => c.socket.timeout(3000).emitWithAck('subscribe', filter);
const quiet = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Socket.IO /live-odds', () => {
  let t: TestApp;
  let starter: { id: string; key: string };
  const clients: Client[] = [];
  const track = (c: Client) => (clients.push(c), c);

  beforeAll(async () => {
    t = await startTestApp();
    starter = await t.createKey('starter');
    await ingestDocuments([capture(nextSeen(), A(-3), B(-1))], { db: t.db, bus: t.bus });
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.socket.close();
  });
  afterAll(() => t.close());

  test.each([
    ['no auth', undefined, /missing API key/],
    ['an empty key', { apiKey: '' }, /missing API key/],
    ['an unknown key', { apiKey: 'sk_live_0000000000000000000000000000000000000000' }, /invalid API key/],
  ])('when the handshake has %s, then connect_error says so', async (_name, auth, message) => {
    expect((await connectError(t, auth)).message).toMatch(message);
  });

  test('when the key was revoked, then connect_error says revoked', async () => {
    const key = await t.createKey('pro');
    // through the admin mutation, which announces it on the bus: sockets close at once, not on a poll
    await t.graphql(`mutation { revokeApiKey(id: "${key.id}") }`, undefined, TEST_ADMIN_KEY);
    expect((await connectError(t, { apiKey: key.key })).message).toMatch(/revoked/);
  });

  test('when the subscription expired, then connect_error says expired', async () => {
    const key = await t.createKey('pro', { expiresAt: new Date('2020-01-01T00:00:00Z') });
    expect((await connectError(t, { apiKey: key.key })).message).toMatch(/subscription expired/);
  });

  test('when a Starter connects without subscribing, then it gets every live game, the same data as GET /odds/live', async () => {
    const c = track(await connected(t, starter.key));
    const push = c.pushes[0];
    const rest = await t.get('/api/v1/nba/odds/live', starter.key);
    expect(push).toMatchObject({ success: true, updated_at: rest.body.updated_at });
    expect(push.data).toEqual(rest.body.data);
    expect(push.data.map((g: any) => g.game_id)).toEqual([5001, 5002]);
  });

  test('when subscribe narrows to a game and a market type, then the ack names the filter and pushes carry only those', async () => {
    const c = track(await connected(t, starter.key));
    const seen = c.pushes.length;
    const ack = await subscribe(c, { game_id: 5001, market_type: 'spread' });
    expect(ack).toEqual({ success: true, filter: { game_id: 5001, market_type: 'spread' } });
    const push = await c.after(seen);
    expect(push.data.map((g: any) => g.game_id)).toEqual([5001]);
    expect(Object.keys(push.data[0].markets)).toEqual(['spread']);
    const rest = await t.get('/api/v1/nba/odds/live?game_id=5001&market_type=spread', starter.key);
    expect(push.data).toEqual(rest.body.data);
  });

  test('when the subscribe payload is bad, then live_odds carries success:false and the socket keeps working', async () => {
    const c = track(await connected(t, starter.key));
    const ack = await subscribe(c, { game_id: 'five' });
    expect(ack).toMatchObject({ success: false, error: expect.stringMatching(/game_id/) });
    expect(c.pushes.at(-1)).toEqual({ success: false, error: expect.stringMatching(/game_id/) });
    expect((await subscribe(c, { market_type: 'corners' })).error).toMatch(/market_type/);
    expect((await subscribe(c, { gameId: 1 })).error).toMatch(/unknown field gameId/);
    expect((await subscribe(c, 'all')).success).toBe(false);
    const seen = c.pushes.length;
    expect(await subscribe(c, { book_id: 68 })).toEqual({ success: true, filter: { book_id: 68 } });
    const push = await c.after(seen);
    expect(push.success).toBe(true);
  });

  test('when a quote in scope changes, then an odds_change with the new line follows; a change elsewhere pushes an empty one (seq moves on)', async () => {
    const c = track(await connected(t, starter.key));
    const changes: any[] = [];
    c.socket.on('odds_change', (d) => changes.push(d));
    const seen = c.pushes.length;
    await subscribe(c, { game_id: 5001 });
    await c.after(seen);
    const before = c.pushes.length;
    await ingestDocuments([capture(nextSeen(), B(-2))], { db: t.db, bus: t.bus });
    await quiet(300);
    expect(c.pushes.length).toBe(before);
    // Every ingest has its delta on every stream, empty outside the filter: base_seq keeps meeting the client's seq.
    await waitFor('the empty delta', () => changes.length === 1);
    expect(changes[0]).toMatchObject({ stream: 'global', games: [], quotes: [] });
    changes.length = 0;

    await ingestDocuments([capture(nextSeen(), A(-4.5))], { db: t.db, bus: t.bus });
    // A delta, not a snapshot (those come on subscribe and every 20 s); how fast is the benches' question.
    await waitFor('the delta', () => changes.length > 0);
    const home = changes[0].quotes.find((q: any) => q.market_type === 'spread' && q.side === 'home');
    expect(home).toMatchObject({ game_id: 5001, book_id: 15, point: -4.5, price: -110 });
    expect(c.pushes.length).toBe(before);
  });

  test('when the client unsubscribes, then no more pushes arrive', async () => {
    const c = track(await connected(t, starter.key));
    expect(await c.socket.timeout(3000).emitWithAck('unsubscribe')).toEqual({ success: true });
    const count = c.pushes.length;
    await ingestDocuments([capture(nextSeen(), A(-5))], { db: t.db, bus: t.bus });
    await quiet(400);
    expect(c.pushes.length).toBe(count);
  });

  test('when the key is revoked while connected, then the socket is told and disconnected within 1 s', async () => {
    const key = await t.createKey('pro');
    const c = track(await connected(t, key.key));
    const disconnected = new Promise<string>((resolve) => c.socket.on('disconnect', (reason) => resolve(reason)));
    // through the admin mutation, which announces it on the bus: sockets close at once, not on a poll
    await t.graphql(`mutation { revokeApiKey(id: "${key.id}") }`, undefined, TEST_ADMIN_KEY);
    const started = Date.now();
    expect(await disconnected).toBe('io server disconnect');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(c.pushes.at(-1)).toEqual({ success: false, error: expect.stringMatching(/revoked/) });
  }, 10_000);
});

describe('Socket.IO /live-odds periodic pushes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { LIVE_PUSH_INTERVAL_MS: '300' } });
    await ingestDocuments([capture(nextSeen(), A(-3))], { db: t.db, bus: t.bus });
  });
  afterAll(() => t.close());

  test('when nothing changes, then a full snapshot still arrives every LIVE_PUSH_INTERVAL_MS', async () => {
    const c = await connected(t, (await t.createKey('elite')).key);
    await waitFor('three interval pushes', () => c.pushes.filter((p) => p.reason === 'interval').length >= 3, 3000);
    const intervals = c.pushes.filter((p) => p.reason === 'interval');
    expect(intervals.every((p) => p.success && p.data.length === 1)).toBe(true);
    c.socket.close();
  });
});
