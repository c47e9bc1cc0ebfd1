import { io as connect, type Socket } from 'socket.io-client';
import { ingestDocuments } from '../../src/ingest/ingest';
import { startTestApp, type TestApp } from '../support/app';
import { changeLogReplayReads, countingDatabase } from '../support/counting-database';
import { openTestDatabase } from '../support/database';
import { capture, waitFor, type GameSpec } from './live-helpers';

// The snapshot + delta protocol of /live-odds (docs/live-protocol.md): odds_change per ingest and
// filter, seq numbers, resync, reconnect with the last seq, the filter in the handshake.

const A = (home: number, total = 220.5): GameSpec => ({
  id: 7001,
  status: 'inprogress',
  start: '2026-01-24T00:30:00.000Z',
  books: { 15: { spread: [home, -110, -110], moneyline: [-150, 130] }, 68: { total: [total, -110, -110] } },
});
const B = (home: number): GameSpec => ({ id: 7002, status: 'inprogress', start: '2026-01-24T01:00:00.000Z', books: { 15: { spread: [home, -110, -110] } }, home: 9031, away: 9032 });

let clock = Date.parse('2026-01-24T01:00:00.000Z');
const nextSeen = () => new Date((clock += 60_000)).toISOString();
const quiet = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Client {
  socket: Socket;
  snapshots: any[];
  changes: any[];
}

function open(t: TestApp, auth: Record<string, unknown>, onConnect?: (s: Socket) => void): Client {
  const socket = connect(`${t.baseUrl}/live-odds`, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
  const c: Client = { socket, snapshots: [], changes: [] };
  socket.on('live_odds', (p) => c.snapshots.push(p));
  socket.on('odds_change', (d) => c.changes.push(d));
  if (onConnect) socket.on('connect', () => onConnect(socket));
  return c;
}

describe('/live-odds snapshot + delta protocol', () => {
  let t: TestApp;
  let key: string;
  const clients: Client[] = [];
  const track = (c: Client) => (clients.push(c), c);
  let home = -3;
  const ingest = (...specs: GameSpec[]) => ingestDocuments([capture(nextSeen(), ...specs)], { db: t.db, bus: t.bus });

  beforeAll(async () => {
    t = await startTestApp();
    key = (await t.createKey('starter')).key;
    await ingest(A(home), B(-1));
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.socket.close();
  });
  afterAll(() => t.close());

  test('when subscribe is sent right on connect, then the very first push already honours the filter', async () => {
    const c = track(open(t, { apiKey: key }, (s) => s.emit('subscribe', { game_id: 7002 })));
    await waitFor('the first push', () => c.snapshots.length > 0);
    await quiet(300);
    expect(c.snapshots).toHaveLength(1);
    expect(c.snapshots[0]).toMatchObject({ success: true, reason: 'snapshot', seq: expect.any(Number), stream: expect.any(String) });
    expect(c.snapshots[0].data.map((g: any) => g.game_id)).toEqual([7002]);
  });

  test('when the handshake carries the filter, then the first push is filtered without a subscribe', async () => {
    const c = track(open(t, { apiKey: key, game_id: 7001, market_type: 'total' }));
    await waitFor('the first push', () => c.snapshots.length > 0);
    expect(c.snapshots[0].data.map((g: any) => g.game_id)).toEqual([7001]);
    expect(Object.keys(c.snapshots[0].data[0].markets)).toEqual(['total']);
  });

  test('when the filter is in the query string, then the first push is filtered without a subscribe', async () => {
    // The server keeps only what the handshake reads of a connection's first request (memory per
    // idle socket), the query string included: the namespace is joined after that request is gone.
    const socket = connect(`${t.baseUrl}/live-odds`, { auth: { apiKey: key }, query: { game_id: '7002', market_type: 'total' }, transports: ['websocket'], reconnection: false, forceNew: true });
    const c = track({ socket, snapshots: [], changes: [] });
    socket.on('live_odds', (p) => c.snapshots.push(p));
    await waitFor('the first push', () => c.snapshots.length > 0);
    expect(c.snapshots[0].data.map((g: any) => g.game_id)).toEqual([7002]);
    expect(Object.keys(c.snapshots[0].data[0].markets)).toEqual(['total']);
  });

  test('when the handshake filter is bad, then connect_error names the field', async () => {
    const error = await new Promise<Error>((resolve) => {
      const socket = connect(`${t.baseUrl}/live-odds`, { auth: { apiKey: key, book_id: -4 }, transports: ['websocket'], reconnection: false, forceNew: true });
      socket.on('connect_error', (e) => (socket.close(), resolve(e)));
    });
    expect(error.message).toMatch(/book_id/);
  });

  test('when one ingest changes two markets in scope, then one odds_change carries both, numbered after the snapshot; other filters get it empty', async () => {
    const all = track(open(t, { apiKey: key, game_id: 7001 }));
    const book68 = track(open(t, { apiKey: key, book_id: 68, market_type: 'total' }));
    const gameB = track(open(t, { apiKey: key, game_id: 7002 }));
    await waitFor('the snapshots', () => [all, book68, gameB].every((c) => c.snapshots.length > 0));
    home -= 0.5;
    await ingest(A(home, 221.5), B(-1));
    await waitFor('the deltas', () => all.changes.length > 0 && book68.changes.length > 0);
    await quiet(200);
    expect(all.changes).toHaveLength(1);
    const delta = all.changes[0];
    expect(delta).toMatchObject({ stream: all.snapshots[0].stream, seq: all.snapshots[0].seq + 1, base_seq: all.snapshots[0].seq, at: expect.any(String), games: [] });
    expect(new Set(delta.quotes.map((q: any) => `${q.book_id}:${q.market_type}`))).toEqual(new Set(['15:spread', '68:total']));
    expect(delta.quotes.find((q: any) => q.market_type === 'spread' && q.side === 'home')).toMatchObject({ point: home, price: -110, is_live: false, is_available: true, period: 'full_game' });
    expect(book68.changes[0].quotes.every((q: any) => q.book_id === 68 && q.market_type === 'total')).toBe(true);
    // Every ingest's delta reaches every filter, empty outside it, so base_seq keeps meeting each client's seq.
    await waitFor('the empty delta of the other game', () => gameB.changes.length > 0);
    expect(gameB.changes.map((c: any) => [c.seq, c.base_seq, c.games, c.quotes])).toEqual([[delta.seq, delta.base_seq, [], []]]);
    // No snapshot for a change: those come on subscribe, resync and the interval.
    expect(all.snapshots).toHaveLength(1);
  });

  test('when an ingest commits and its delta is pushed, then /metrics counts the ingest lag, the quotes changed and the push latency', async () => {
    const metric = async (name: string) => {
      const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
      return Number(new RegExp(`^${name.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
    };
    const before = { ingests: await metric('ingest_lag_seconds_count'), quotes: await metric('ingest_quotes_changed_total'), pushes: await metric('live_push_latency_seconds_count{transport="socket.io"}') };
    const c = track(open(t, { apiKey: key, game_id: 7001 }));
    await waitFor('the snapshot', () => c.snapshots.length > 0);
    home -= 0.5;
    await ingest(A(home), B(-1));
    await waitFor('the delta', () => c.changes.length > 0);
    // the push is counted as it leaves, the delta may arrive first
    let pushes = await metric('live_push_latency_seconds_count{transport="socket.io"}');
    for (let i = 0; i < 50 && !(pushes > (before.pushes || 0)); i++) pushes = (await quiet(20), await metric('live_push_latency_seconds_count{transport="socket.io"}'));
    expect(pushes).toBe((before.pushes || 0) + 1);
    expect(await metric('ingest_lag_seconds_count')).toBe(before.ingests + 1);
    // the home spread of one book moved
    expect(await metric('ingest_quotes_changed_total')).toBeGreaterThan(before.quotes);
  });

  test('when a game starts playing, then its delta carries every quote of it, as a snapshot would show it', async () => {
    const C = (status: GameSpec['status'], total: number): GameSpec => ({
      id: 7003,
      status,
      start: '2026-01-24T01:30:00.000Z',
      books: { 15: { spread: [-2, -110, -110], moneyline: [-130, 110] }, 68: { total: [total, -110, -110] } },
      home: 9033,
      away: 9034,
    });
    await ingest(A(home), B(-1), C('scheduled', 210.5));
    const c = track(open(t, { apiKey: key }));
    await waitFor('the snapshot', () => c.snapshots.length > 0);
    expect(c.snapshots[0].data.map((g: any) => g.game_id)).not.toContain(7003);
    // Tip-off: only book 68's total moves, yet the client does not hold the game at all.
    await ingest(A(home), B(-1), C('inprogress', 211.5));
    await waitFor('the delta', () => c.changes.length > 0);
    const fresh = track(open(t, { apiKey: key }));
    await waitFor('a fresh snapshot', () => fresh.snapshots.length > 0);
    const shown = fresh.snapshots[0].data.find((g: any) => g.game_id === 7003);
    const inSnapshot = Object.entries<any>(shown.markets)
      .flatMap(([type, m]) => (m?.outcomes ?? []).map((o: any) => `${o.book_id}:${type}:${o.side}:${o.point}:${o.odds.original}`))
      .sort();
    const inDelta = c.changes[0].quotes.filter((q: any) => q.game_id === 7003).map((q: any) => `${q.book_id}:${q.market_type}:${q.side}:${q.point}:${q.price}`).sort();
    expect(inSnapshot.length).toBeGreaterThan(2);
    expect(inDelta).toEqual(inSnapshot);
    expect(c.changes[0].games).toEqual([expect.objectContaining({ game_id: 7003, status: 'in_progress' })]);
    // Once held, the game's next delta carries only what moved.
    await ingest(A(home), B(-1), C('inprogress', 212.5));
    await waitFor('the next delta', () => c.changes.length > 1);
    expect(new Set(c.changes[1].quotes.map((q: any) => `${q.book_id}:${q.market_type}`))).toEqual(new Set(['68:total']));
    await ingest(A(home), B(-1), C('complete', 212.5));
  });

  test('when a client asks resync, then it gets a fresh snapshot at the current seq', async () => {
    const c = track(open(t, { apiKey: key, game_id: 7001 }));
    await waitFor('the snapshot', () => c.snapshots.length > 0);
    home -= 0.5;
    await ingest(A(home), B(-1));
    await waitFor('the delta', () => c.changes.length > 0);
    expect(await c.socket.timeout(3000).emitWithAck('resync')).toEqual({ success: true });
    await waitFor('the resync snapshot', () => c.snapshots.length > 1);
    expect(c.snapshots[1]).toMatchObject({ success: true, reason: 'resync', seq: c.changes.at(-1).seq, stream: c.changes.at(-1).stream });
    expect(c.snapshots[1].data[0].markets.spread.outcomes.find((o: any) => o.side === 'home').point).toBe(home);
  });

  test('when a client reconnects with its stream and last seq, then it gets the missed deltas and no snapshot', async () => {
    const watcher = track(open(t, { apiKey: key, game_id: 7001, market_type: 'spread' }));
    const first = track(open(t, { apiKey: key, game_id: 7001, market_type: 'spread' }));
    await waitFor('the snapshots', () => watcher.snapshots.length > 0 && first.snapshots.length > 0);
    const { stream, seq } = first.snapshots[0];
    first.socket.close();
    // One delta at a time: a read that starts after the next commit already carries both changes.
    for (let i = 0; i < 2; i++) {
      home -= 0.5;
      const before = watcher.changes.length;
      await ingest(A(home), B(-1));
      await waitFor('the delta to the one still connected', () => watcher.changes.length > before);
    }
    const back = track(open(t, { apiKey: key, game_id: 7001, market_type: 'spread', stream, last_seq: seq }));
    await waitFor('the missed deltas', () => back.changes.length >= 2);
    expect(back.changes.map((d) => d.seq)).toEqual([seq + 1, seq + 2]);
    expect(back.changes).toEqual(watcher.changes.slice(-2));
    await quiet(300);
    expect(back.snapshots).toEqual([]);
  });

  test('when a client reconnects with a stream the server does not hold, then it gets a snapshot with reason resync', async () => {
    const c = track(open(t, { apiKey: key, game_id: 7001, stream: 'ffff', last_seq: 12 }));
    await waitFor('the snapshot', () => c.snapshots.length > 0);
    expect(c.snapshots[0]).toMatchObject({ success: true, reason: 'resync', seq: expect.any(Number) });
  });

  test('when a client opts out of changes, then it gets snapshots only', async () => {
    const c = track(open(t, { apiKey: key }, (s) => s.emit('subscribe', { game_id: 7001, changes: false })));
    await waitFor('the snapshot', () => c.snapshots.length > 0);
    home -= 0.5;
    await ingest(A(home), B(-1));
    await quiet(400);
    expect(c.changes).toEqual([]);
  });

  test.each([
    [{ changes: 'no' }, /changes must be a boolean/],
    [{ stream: 'abc' }, /last_seq/],
    [{ stream: 'abc', last_seq: -1 }, /last_seq/],
    [{ stream: 'not hex!', last_seq: 1 }, /stream/],
  ])('when subscribe has %j, then the ack names the bad field', async (payload, message) => {
    const c = track(open(t, { apiKey: key }));
    await waitFor('connected', () => c.socket.connected);
    const ack = await c.socket.timeout(3000).emitWithAck('subscribe', payload);
    expect(ack).toMatchObject({ success: false, error: expect.stringMatching(message) });
  });
});

test('when many clients reconnect at once with the same stream and last seq, then the change log is read once for them all, and each gets the missed deltas', async () => {
  // A reconnect storm: the clients of a process that died all hold the newest seq and come back to
  // the others at once. Counted: the log's replay reads.
  const base = await openTestDatabase();
  const counting = countingDatabase(base, changeLogReplayReads);
  const w = await startTestApp({ db: counting.db });
  const sockets: Client[] = [];
  try {
    const stormKey = (await w.createKey('elite')).key;
    const feed = (spread: number) => ingestDocuments([capture(nextSeen(), A(spread), B(-1))], { db: w.db, bus: w.bus });
    await feed(-3);
    const watcher = open(w, { apiKey: stormKey, game_id: 7001, market_type: 'spread' });
    sockets.push(watcher);
    await waitFor('the snapshot', () => watcher.snapshots.length > 0);
    const { stream, seq } = watcher.snapshots[0];
    for (const spread of [-3.5, -4]) {
      const before = watcher.changes.length;
      await feed(spread);
      await waitFor('the delta', () => watcher.changes.length > before);
    }
    counting.reset();
    const back = Array.from({ length: 20 }, () => open(w, { apiKey: stormKey, game_id: 7001, market_type: 'spread', stream, last_seq: seq }));
    sockets.push(...back);
    await waitFor('the missed deltas on every client', () => back.every((c) => c.changes.length >= 2));
    for (const c of back) expect(c.changes).toEqual(watcher.changes.slice(-2));
    expect(counting.count()).toBe(1);
    await quiet(300);
    expect(back.flatMap((c) => c.snapshots)).toEqual([]);
    // The shared answer ends when the feed moves: the next delta reaches them all, and a client that
    // comes back after it reads the log again.
    await feed(-4.5);
    await waitFor('the next delta on every client', () => back.every((c) => c.changes.length === 3));
    const late = open(w, { apiKey: stormKey, game_id: 7001, market_type: 'spread', stream, last_seq: seq });
    sockets.push(late);
    await waitFor('the late client\'s deltas', () => late.changes.length >= 3);
    expect(late.changes).toEqual(watcher.changes.slice(-3));
    expect(counting.count()).toBe(2);
  } finally {
    for (const c of sockets) c.socket.close();
    await w.close();
    await base.close();
  }
});
