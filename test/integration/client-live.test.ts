import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { liveStateOf, OddsClient, type LiveChange, type LiveFeed, type LiveGame } from '../../clients/typescript/src';
import { createApp } from '../../src/app';
import { ingestDocuments } from '../../src/ingest/ingest';
import { createLogger } from '../../src/logger';
import { startTestApp, type TestApp } from '../support/app';
import { doc, readSeries } from '../support/feeds';
import { waitFor } from './live-helpers';

// The live helper of the TypeScript client (issue 38's done-criterion): it follows a real evening,
// the server drops every connection in the middle of it, more captures are ingested while the
// clients are away, and the state the helper hands out at the end equals GET /live; on Socket.IO
// (resume with stream/last_seq, or a resync snapshot) and on SSE (resume with Last-Event-ID). Then
// the same across a graceful shutdown and a new process on the same address.

const series = readSeries('nba-2026-01-24.jsonl.gz');
/** The evening of 2026-01-23 (US): four games being played, two more tip off, six end, two start late. */
const EVENING = series.slice(0, 8);
/** The next afternoon: game 264314 from its tip-off (after the evening above, as the day went on). */
const AFTERNOON = series.slice(58, 62);

describe('the live helper across a dropped connection on a real evening', () => {
  let t: TestApp;
  let key: string;
  const sockets = new Set<Socket>();
  /** While true the server is "down": every connection is cut as it arrives. */
  let down = false;
  const feeds: LiveFeed[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    // Every TCP connection the server accepts, so the test can cut them all (WebSocket upgrades and
    // SSE responses included, which closeAllConnections does not reach).
    t.app.httpServer.on('connection', (socket: Socket) => {
      if (down) return void socket.destroy();
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    key = (await t.createKey('elite')).key;
  });
  afterAll(async () => {
    for (const feed of feeds) feed.close();
    await t.close();
  });

  const ingest = (i: number, captures = EVENING) => ingestDocuments([doc(captures[i]!.body, captures[i]!.fetched_at, `capture-${captures[i]!.fetched_at}`)], { db: t.db, bus: t.bus });
  /** GET /live as the helper's state (games being played, each with status, score and displayed quotes). */
  const liveNow = async (): Promise<LiveGame[]> => {
    const live = await t.get('/api/v1/nba/odds/live', key);
    expect(live.status).toBe(200);
    return liveStateOf(live.body.data).games;
  };
  /** Waits until the state of every feed still open equals GET /live (read once: nothing is ingested meanwhile). */
  const settled = async (what: string) => {
    const truth = await liveNow();
    const open = feeds.filter((feed) => feed.status !== 'closed');
    // The same equality as the assertion below (JSON text would also compare key order, which a
    // state built from deltas need not share with one built from GET /live: a wait that timed out
    // while the assertion then passed).
    const same = (feed: LiveFeed) => {
      try {
        expect(feed.state.games).toEqual(truth);
        return true;
      } catch {
        return false;
      }
    };
    try {
      await waitFor(what, () => open.every(same), 20_000);
    } finally {
      for (const feed of open) expect(feed.state.games).toEqual(truth);
    }
    return truth;
  };

  test('when the server drops every connection mid-evening and captures come meanwhile, then each helper ends with the state of GET /live', async () => {
    await ingest(0);
    const client = new OddsClient({ baseUrl: t.baseUrl, apiKey: key });
    const socketIo = client.live({ transport: 'socket.io', reconnectDelayMs: 100 });
    const sse = client.live({ transport: 'sse' });
    feeds.push(socketIo, sse);
    const changes = new Map<LiveFeed, LiveChange[]>(feeds.map((f) => [f, []]));
    for (const feed of feeds) feed.on('change', (c) => changes.get(feed)!.push(c));
    const errors: string[] = [];
    for (const feed of feeds) feed.on('error', (e) => errors.push(e.message));
    await Promise.all(feeds.map((f) => f.ready));
    expect((await settled('the first snapshots')).length).toBe(4);

    for (const i of [1, 2, 3]) await ingest(i);
    const before = await settled('the deltas of captures 1 to 3');
    expect(before.map((g) => g.game_id).sort()).toEqual([263564, 263565, 263566, 263567, 263568]);
    for (const feed of feeds) expect(changes.get(feed)!.filter((c) => c.kind === 'delta').length).toBeGreaterThan(0);

    // Every connection cut at once, and refused while two captures (six games end) are ingested.
    const reconnecting = feeds.map((f) => new Promise<void>((resolve) => f.on('status', (s) => s === 'reconnecting' && resolve())));
    const seen = feeds.map((f) => changes.get(f)!.length);
    expect(sockets.size).toBeGreaterThan(0);
    down = true;
    for (const socket of sockets) socket.destroy();
    await Promise.all(reconnecting);
    await ingest(4);
    await ingest(5);
    down = false;
    const away = await settled('the state after the reconnect');
    expect(away.map((g) => g.game_id)).toEqual([263565, 263568]);

    // Both resumed where they stood (Socket.IO: the stream's missed deltas replayed on stream/last_seq;
    // SSE: a catch-up from Last-Event-ID), not with a fresh snapshot; the games that ended left.
    for (const [i, feed] of feeds.entries()) {
      const after = changes.get(feed)!.slice(seen[i]);
      expect(after.filter((c) => c.kind === 'snapshot' && c.reason !== 'interval')).toEqual([]);
      expect(after.filter((c) => c.kind === 'delta').flatMap((c) => c.removed).sort()).toEqual([263564, 263566, 263567]);
    }

    for (const i of [6, 7]) await ingest(i);
    const end = await settled('the end of the evening');
    expect(end.flatMap((g) => g.quotes).length).toBeGreaterThan(10);
    for (const feed of feeds) expect(feed.status).toBe('live');
    expect(errors).toEqual([]);
  }, 120_000);

  test.each(['socket.io', 'sse'] as const)('when the key or the filter is refused on %s, then ready rejects with a fatal LiveError saying why, and the helper stops', async (transport) => {
    const refused = async (apiKey: string, filter = {}) => {
      const feed = new OddsClient({ baseUrl: t.baseUrl, apiKey }).live({ transport, filter });
      feeds.push(feed);
      const error = await feed.ready.then(
        () => null,
        (e: unknown) => e,
      );
      expect(feed.status).toBe('closed');
      return error;
    };
    expect(await refused('sk_not_a_key')).toMatchObject({ name: 'LiveError', fatal: true, message: expect.stringMatching(/invalid API key/i) });
    expect(await refused(key, { book_id: -4 })).toMatchObject({ name: 'LiveError', fatal: true, message: expect.stringMatching(/book_id/) });
  });

  test('when the server shuts down and another process starts on the same address while captures come, then each helper resumes and ends with the state of GET /live', async () => {
    // A process of its own (the shared app of this file stays up for GET /live): same database and bus.
    const first = createApp({ config: t.config, db: t.db, bus: t.bus, logger: createLogger(t.config) });
    await new Promise<void>((resolve) => first.httpServer.listen(0, '127.0.0.1', resolve));
    const { port } = first.httpServer.address() as AddressInfo;
    const client = new OddsClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: key });
    const local = [client.live({ transport: 'socket.io', reconnectDelayMs: 100 }), client.live({ transport: 'sse' })];
    feeds.push(...local);
    const changes = new Map<LiveFeed, LiveChange[]>(local.map((f) => [f, []]));
    for (const feed of local) feed.on('change', (c) => changes.get(feed)!.push(c));
    await Promise.all(local.map((f) => f.ready));
    await ingest(0, AFTERNOON);
    await settled('the state before the restart');
    const seen = local.map((f) => changes.get(f)!.length);

    // A graceful shutdown (Socket.IO "io server disconnect", SSE `shutdown`), a capture while no
    // process serves, then a new process on the same port.
    const reconnecting = local.map((f) => new Promise<void>((resolve) => f.on('status', (s) => s === 'reconnecting' && resolve())));
    await first.close();
    await new Promise<void>((resolve) => first.httpServer.close(() => resolve()));
    await Promise.all(reconnecting);
    await ingest(1, AFTERNOON);
    await ingest(2, AFTERNOON);
    const second = createApp({ config: t.config, db: t.db, bus: t.bus, logger: createLogger(t.config) });
    await new Promise<void>((resolve) => second.httpServer.listen(port, '127.0.0.1', resolve));
    try {
      const after = await settled('the state after the restart');
      expect(after.map((g) => g.game_id)).toContain(264314);
      // Both resume from the stored change log, which spans processes (Socket.IO with stream "global"
      // and last_seq, SSE with Last-Event-ID): the missed deltas, no snapshot.
      for (let i = 0; i < local.length; i++) expect(changes.get(local[i]!)!.slice(seen[i]).filter((c) => c.kind === 'snapshot' && c.reason !== 'interval')).toEqual([]);
      expect(local.map((feed) => feed.status)).toEqual(['live', 'live']);
    } finally {
      for (const feed of local) feed.close();
      await second.close();
      second.httpServer.closeAllConnections();
      await new Promise<void>((resolve) => second.httpServer.close(() => resolve()));
    }
  }, 120_000);
});
