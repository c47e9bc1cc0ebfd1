import http from 'node:http';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Database } from '../../src/db/client';
import { ingestDocuments } from '../../src/ingest/ingest';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/app';
import { changeLogReplayReads, countingDatabase } from '../support/counting-database';
import { openTestDatabase } from '../support/database';
import { doc, readSeries } from '../support/feeds';
import { waitFor } from './live-helpers';

// GET /api/v1/nba/odds/stream (docs/live-protocol.md, section Server-Sent Events): read with a real
// EventSource client (the `eventsource` package, the WHATWG client for Node) or plain fetch for the
// refusals. Prices move by ingesting the recorded captures of 2026-01-24 (test/fixtures/feeds).

const STREAM = '/api/v1/nba/odds/stream';
const LIVE = new Set(['in_progress', 'live']);
const series = readSeries('nba-2026-01-24.jsonl.gz').slice(0, 8);
const captureDoc = (i: number) => doc(series[i]!.body, series[i]!.fetched_at, `capture-${i}`);

type EventSourceCtor = typeof import('eventsource', { with: { 'resolution-mode': 'import' } }).EventSource;
let EventSourceClass: EventSourceCtor;

interface Quote {
  price: number;
  point: number | null;
  is_available: boolean;
  is_live: boolean;
  line_status: string;
}

/** A client that keeps the state the protocol describes: a snapshot replaces it, a delta updates it. */
class StreamClient {
  readonly source: InstanceType<EventSourceCtor>;
  games = new Map<number, { status: string; home_score: number | null; away_score: number | null }>();
  quotes = new Map<string, Quote>();
  lastId: number | null = null;
  snapshots: any[] = [];
  changes: any[] = [];
  heartbeats: Array<{ id: string; data: any }> = [];
  errors: any[] = [];

  constructor(baseUrl: string, key: string, opts: { query?: string; lastEventId?: number | string; from?: StreamClient } = {}) {
    if (opts.from) {
      // Carries on from another client's state (the same application, reconnecting).
      this.games = new Map(opts.from.games);
      this.quotes = new Map(opts.from.quotes);
      this.lastId = opts.from.lastId;
    }
    const lastEventId = opts.lastEventId ?? opts.from?.lastId ?? undefined;
    this.source = new EventSourceClass(`${baseUrl}${STREAM}${opts.query ?? ''}`, {
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${key}`, ...(lastEventId != null && { 'last-event-id': String(lastEventId) }) },
        }),
    });
    this.source.addEventListener('live_odds', (e) => this.onSnapshot(JSON.parse(e.data), e.lastEventId));
    this.source.addEventListener('odds_change', (e) => this.onChange(JSON.parse(e.data), e.lastEventId));
    this.source.addEventListener('heartbeat', (e) => this.heartbeats.push({ id: e.lastEventId, data: JSON.parse(e.data) }));
  }

  private onSnapshot(payload: any, id: string) {
    if (!payload.success) return void this.errors.push(payload);
    this.snapshots.push(payload);
    this.games.clear();
    this.quotes.clear();
    for (const game of payload.data) {
      this.games.set(game.game_id, { status: game.status, home_score: game.boxscore?.total_home_points ?? null, away_score: game.boxscore?.total_away_points ?? null });
      for (const [type, market] of Object.entries<any>(game.markets ?? {})) {
        for (const o of market?.outcomes ?? []) {
          this.quotes.set(`${game.game_id}|${o.book_id}|${type}|${o.period}|${o.side}`, { price: o.odds.original, point: o.point, is_available: o.is_available, is_live: o.is_live, line_status: o.line_status });
        }
      }
    }
    this.lastId = Number(id);
  }

  private onChange(change: any, id: string) {
    this.changes.push(change);
    for (const g of change.games) {
      if (!LIVE.has(g.status)) {
        // A game that leaves play leaves the live set, with its quotes.
        this.games.delete(g.game_id);
        for (const key of [...this.quotes.keys()]) if (key.startsWith(`${g.game_id}|`)) this.quotes.delete(key);
      } else {
        this.games.set(g.game_id, { status: g.status, home_score: g.home_score, away_score: g.away_score });
      }
    }
    for (const q of change.quotes) {
      this.quotes.set(`${q.game_id}|${q.book_id}|${q.market_type}|${q.period}|${q.side}`, { price: q.price, point: q.point, is_available: q.is_available, is_live: q.is_live, line_status: q.line_status });
    }
    this.lastId = Number(id);
  }

  /** Quotes and game states, comparable with toEqual. */
  state() {
    return { games: Object.fromEntries([...this.games].sort(([a], [b]) => a - b)), quotes: Object.fromEntries([...this.quotes].sort(([a], [b]) => (a < b ? -1 : 1))) };
  }

  close() {
    this.source.close();
  }
}

async function currentVersion(db: Database): Promise<number> {
  const state = await db.prisma.ingestState.findUnique({ where: { id: 1 } });
  return Number(state?.version ?? 0n);
}

describe('GET /odds/stream (Server-Sent Events)', () => {
  let db: Database;
  let t: TestApp;
  let key: string;
  const clients: StreamClient[] = [];
  /** Events the first test saw, for the OpenAPI check. */
  let seen: { snapshot: any; change: any } | undefined;
  const open = (...args: ConstructorParameters<typeof StreamClient>) => {
    const c = new StreamClient(...args);
    clients.push(c);
    return c;
  };
  const ingest = (i: number) => ingestDocuments([captureDoc(i)], { db, bus: t.bus });
  const ssePushes = async () => {
    const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
    return Number(/^live_push_latency_seconds_count\{transport="sse"\} (\S+)$/m.exec(text)?.[1] ?? 0);
  };
  /** Ingests capture i, and waits until `clients` have seen its sequence. */
  const move = async (i: number, ...watching: StreamClient[]) => {
    await ingest(i);
    const version = await currentVersion(db);
    await waitFor(`capture ${i} (sequence ${version})`, () => watching.every((c) => (c.lastId ?? -1) >= version));
  };

  beforeAll(async () => {
    ({ EventSource: EventSourceClass } = await import('eventsource'));
    db = await openTestDatabase();
    // No interval snapshots during the tests: states come from the first snapshot and the deltas.
    t = await startTestApp({ db, env: { LIVE_PUSH_INTERVAL_MS: '600000', SSE_HEARTBEAT_MS: '200', LIVE_CONNECTIONS_STARTER: '2' } });
    key = (await t.createKey('pro')).key;
    await ingestDocuments([captureDoc(0)], { db });
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  test('when a client disconnects while prices move and reconnects with Last-Event-ID, then it ends with the state of a client that never left', async () => {
    const pushedBefore = await ssePushes();
    const stayer = open(t.baseUrl, key);
    const leaver = open(t.baseUrl, key);
    await waitFor('both snapshots', () => stayer.snapshots.length > 0 && leaver.snapshots.length > 0);
    expect(stayer.snapshots[0]).toMatchObject({ success: true, reason: 'snapshot', stream: 'global', seq: stayer.lastId });
    expect(stayer.games.size).toBeGreaterThan(0);
    expect(stayer.quotes.size).toBeGreaterThan(0);
    await move(1, stayer, leaver);

    leaver.close();
    const leftAt = leaver.lastId!;
    for (const i of [2, 3]) await move(i, stayer);
    expect(stayer.changes.length).toBeGreaterThanOrEqual(3);
    // The captures finished games, moved scores and prices: the state the leaver missed is not its own.
    expect(stayer.state()).not.toEqual(leaver.state());

    const back = open(t.baseUrl, key, { from: leaver });
    await waitFor('the catch-up', () => (back.lastId ?? -1) >= stayer.lastId!);
    expect(back.snapshots).toHaveLength(0);
    // The stored deltas after its id, one by one, exactly as the connection that stayed got them.
    expect(back.changes).toEqual(stayer.changes.filter((c: any) => c.seq > leftAt));
    expect(back.changes[0]).toMatchObject({ stream: 'global', base_seq: leftAt });
    expect(back.state()).toEqual(stayer.state());

    // Both carry on alike.
    await move(4, stayer, back);
    expect(back.state()).toEqual(stayer.state());
    // The push latency metric counted every change event as it left, under this transport.
    expect((await ssePushes()) - pushedBefore).toBe(stayer.changes.length + leaver.changes.length + back.changes.length);
    seen = { snapshot: stayer.snapshots[0], change: stayer.changes[0] };
  });

  test('when the OpenAPI document is read, then /stream is an event stream whose events validate against its x-events', async () => {
    const doc = (await t.get('/api/v1/openapi.json')).body;
    const op = doc.paths['/api/v1/nba/odds/stream'].get;
    expect(op.parameters.map((p: any) => p.name).sort()).toEqual(['api_key', 'book_id', 'game_id', 'last_event_id', 'market_type', 'signals']);
    const events = op.responses[200].content['text/event-stream'].schema['x-events'];
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    expect(seen).toBeDefined();
    for (const [name, payload] of [['live_odds', seen!.snapshot], ['odds_change', seen!.change]] as const) {
      if (!ajv.validate(events[name], payload)) throw new Error(`${name}: ${ajv.errorsText(ajv.errors)}`);
    }
    expect(ajv.validate(events.odds_change, { ...seen!.change, quotes: [{ game_id: 'x' }] })).toBe(false);
  });

  test('when heartbeats come, then they carry the server time and repeat the last event id', async () => {
    const c = open(t.baseUrl, key);
    await waitFor('a heartbeat after the snapshot', () => c.heartbeats.some((b) => b.id !== ''));
    const beat = c.heartbeats.find((b) => b.id !== '')!;
    expect(Number.isNaN(Date.parse(beat.data.server_time))).toBe(false);
    expect(beat.data.server_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Number(beat.id)).toBe(c.lastId);
  });

  test('when the key is in the api_key query parameter (EventSource cannot set headers), then the stream opens, filtered by game_id', async () => {
    const version = await currentVersion(db);
    const res = await fetch(`${t.baseUrl}${STREAM}?api_key=${encodeURIComponent(key)}&game_id=263565&market_type=moneyline`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('event: live_odds')) text += new TextDecoder().decode((await reader.read()).value);
    while (!/event: live_odds\nid: \d+\ndata: .*\n\n/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const [, id, data] = /event: live_odds\nid: (\d+)\ndata: (.*)\n\n/.exec(text)!;
    expect(Number(id)).toBe(version);
    const payload = JSON.parse(data!);
    expect(payload.data.map((g: any) => g.game_id)).toEqual([263565]);
    expect(Object.keys(payload.data[0].markets)).toEqual(['moneyline']);
  });

  test('when a filtered client resumes, then the catch-up holds only its filter', async () => {
    const c = open(t.baseUrl, key, { query: '?game_id=263568&market_type=spread' });
    await waitFor('the snapshot', () => c.snapshots.length > 0);
    c.close();
    await ingest(5);
    const back = open(t.baseUrl, key, { from: c, query: '?game_id=263568&market_type=spread' });
    await waitFor('the catch-up', () => back.changes.length > 0);
    const change = back.changes[0];
    expect(change.seq).toBe(await currentVersion(db));
    for (const q of change.quotes) expect([q.game_id, q.market_type]).toEqual([263568, 'spread']);
    for (const g of change.games) expect(g.game_id).toBe(263568);
  });

  test('when Last-Event-ID was never issued, then the client gets a snapshot saying why', async () => {
    const c = open(t.baseUrl, key, { lastEventId: 999_999_999 });
    await waitFor('the snapshot', () => c.snapshots.length > 0);
    expect(c.snapshots[0]).toMatchObject({ success: true, reason: 'resync', resync_reason: 'unknown_event_id', seq: await currentVersion(db) });
  });

  test('when Last-Event-ID is older than the change log keeps, then the client gets a snapshot saying why', async () => {
    // What the 72 h pruning does to old entries.
    await db.prisma.$executeRawUnsafe(`DELETE FROM "ChangeLog" WHERE "version" <= 3`);
    const c = open(t.baseUrl, key, { lastEventId: 1 });
    await waitFor('the snapshot', () => c.snapshots.length > 0);
    expect(c.snapshots[0]).toMatchObject({ success: true, reason: 'resync', resync_reason: 'history_expired' });
    expect(c.changes).toHaveLength(0);
  });

  test.each([
    ['a bad Last-Event-ID', { 'last-event-id': 'abc' }, '', 400, /^invalid parameter last_event_id: the Last-Event-ID must be/],
    ['a bad last_event_id parameter', {}, '?last_event_id=-5', 400, /^invalid parameter last_event_id/],
    ['a bad game_id', {}, '?game_id=abc', 400, /game_id/],
    ['a repeated book_id', {}, '?book_id=15&book_id=68', 400, /book_id/],
    ['a bad market_type', {}, '?market_type=props', 400, /market_type/],
  ])('when the request has %s, then it is refused with a clear error', async (_what, headers, query, status, message) => {
    const res = await fetch(`${t.baseUrl}${STREAM}${query}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
    expect(res.status).toBe(status);
    const body = (await res.json()) as any;
    expect(body).toEqual({ success: false, error: expect.stringMatching(message) });
  });

  test('when every parameter gets hostile values, then no answer is a 5xx and every refusal is the error envelope', async () => {
    const hostile = ['', ' ', '-1', '0', '1.5', '1e309', '99999999999999999999', 'abc', "' OR 1=1 --", '%00', '%ZZ', '<script>', 'x'.repeat(3000), '\u202e'];
    for (const name of ['game_id', 'market_type', 'book_id', 'last_event_id', 'api_key']) {
      for (const value of hostile) {
        const abort = new AbortController();
        const url = `${t.baseUrl}${STREAM}?${name}=${value.startsWith('%') ? value : encodeURIComponent(value)}`;
        const res = await fetch(url, { headers: { authorization: `Bearer ${key}` }, signal: abort.signal });
        const context = `${name}=${value.slice(0, 20)} -> ${res.status}`;
        expect({ context, server: res.status < 500 }).toEqual({ context, server: true });
        if (res.status === 200) {
          abort.abort();
          continue;
        }
        const body = (await res.json()) as any;
        expect({ context, keys: Object.keys(body), success: body.success }).toEqual({ context, keys: ['success', 'error'], success: false });
        expect(body.error).toMatch(/^(invalid (parameter [a-z_]+|request): .|Unauthorized)/);
      }
    }
  });

  test('when no key, a bad key or an expired subscription calls, then 401 / 403 say which', async () => {
    const none = await fetch(`${t.baseUrl}${STREAM}`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as any).error).toMatch(/missing API key.*api_key/);
    const bad = await fetch(`${t.baseUrl}${STREAM}?api_key=sk_${'x'.repeat(43)}`);
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as any).error).toMatch(/invalid API key/);
    const expired = await t.createKey('pro', { expiresAt: new Date(Date.now() - 1000) });
    const late = await fetch(`${t.baseUrl}${STREAM}`, { headers: { authorization: `Bearer ${expired.key}` } });
    expect(late.status).toBe(403);
  });

  test('when a key holds its plan\'s live connections, then one more stream is refused with 429', async () => {
    const starter = (await t.createKey('starter')).key;
    const a = open(t.baseUrl, starter);
    const b = open(t.baseUrl, starter);
    await waitFor('two streams', () => a.snapshots.length > 0 && b.snapshots.length > 0);
    const third = await fetch(`${t.baseUrl}${STREAM}`, { headers: { authorization: `Bearer ${starter}` } });
    expect(third.status).toBe(429);
    expect(((await third.json()) as any).error).toMatch(/starter plan allows 2 live connections/);
    a.close();
    // A closed stream frees its place (once the server has seen the close).
    let status = 429;
    for (let i = 0; i < 100 && status !== 200; i++) {
      const res = await fetch(`${t.baseUrl}${STREAM}`, { headers: { authorization: `Bearer ${starter}` } });
      status = res.status;
      await res.body?.cancel();
      if (status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(200);
  });

  test('when the key is revoked while streaming, then the stream ends with an error event', async () => {
    const { id, key: doomed } = await t.createKey('pro');
    const c = open(t.baseUrl, doomed);
    await waitFor('the snapshot', () => c.snapshots.length > 0);
    const revoked = await t.graphql(`mutation { revokeApiKey(id: "${id}") }`, {}, TEST_ADMIN_KEY);
    expect(revoked.body.data.revokeApiKey).toBe(true);
    await waitFor('the error event', () => c.errors.length > 0);
    expect(c.errors[0]).toEqual({ success: false, error: expect.stringMatching(/revoked/) });
    // EventSource reconnects; the revoked key is refused and the client stops.
    await waitFor('the client to give up', () => c.source.readyState === c.source.CLOSED);
  });

  test('when the server restarts on the same database, then a Last-Event-ID from before resumes with nothing lost', async () => {
    const before = open(t.baseUrl, key);
    await waitFor('the snapshot', () => before.snapshots.length > 0);
    before.close();
    const stateBefore = before.state();

    await t.close();
    await ingestDocuments([captureDoc(6)], { db }); // while no server runs
    t = await startTestApp({ db, env: { LIVE_PUSH_INTERVAL_MS: '600000', SSE_HEARTBEAT_MS: '200' } });

    // One client resumes at once and sees the next capture as it comes; the other resumes after it.
    const stayer = open(t.baseUrl, key, { from: before });
    await waitFor('the catch-up of the capture ingested while down', () => stayer.changes.length > 0);
    expect(stayer.changes[0]).toMatchObject({ base_seq: before.lastId, seq: await currentVersion(db) });
    expect(stayer.snapshots).toHaveLength(0);
    await move(7, stayer);
    const late = open(t.baseUrl, key, { from: before });
    await waitFor('the late catch-up', () => (late.lastId ?? -1) >= stayer.lastId!);
    expect(late.snapshots).toHaveLength(0);
    expect(late.state()).toEqual(stayer.state());
    expect(late.state()).not.toEqual(stateBefore);
  });
});

describe('GET /odds/stream with a client that stops reading', () => {
  let t: TestApp;

  beforeAll(async () => {
    // A snapshot every 100 ms and the smallest buffer allowed: the backlog grows fast.
    t = await startTestApp({ env: { LIVE_PUSH_INTERVAL_MS: '100', SSE_MAX_BUFFERED_BYTES: '16384', LIVE_CONNECTIONS_STARTER: '1' } });
    await ingestDocuments([captureDoc(0)], { db: t.db });
  });
  afterAll(() => t.close());

  test('when unsent events pile up past SSE_MAX_BUFFERED_BYTES, then the stream is cut, counted, and its connection freed', async () => {
    const { key } = await t.createKey('starter');
    const cuts = async () => Number(/^sse_slow_clients_cut_total (\S+)$/m.exec(await (await fetch(`${t.baseUrl}/metrics`)).text())?.[1] ?? NaN);
    expect(await cuts()).toBe(0);
    // A client that never reads: once the kernel's buffers are full, the server holds the rest.
    const request = http.get(`${t.baseUrl}${STREAM}`, { headers: { authorization: `Bearer ${key}` } });
    request.on('error', () => {});
    const response = await new Promise<http.IncomingMessage>((resolve) => request.once('response', resolve));
    expect(response.statusCode).toBe(200);
    response.pause();
    for (let i = 0; (await cuts()) === 0; i++) {
      if (i > 600) throw new Error('timed out waiting for the stream to be cut');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await cuts()).toBe(1);
    // The key's one live connection is free again: a new stream opens.
    const again = await fetch(`${t.baseUrl}${STREAM}`, { headers: { authorization: `Bearer ${key}` } });
    expect(again.status).toBe(200);
    await again.body?.cancel();
    request.destroy();
  });
});

test('when many clients resume at once with the same Last-Event-ID, then the change log is read once for them all, and each gets the changes it missed', async () => {
  // A reconnect storm (the clients of a process that died come back to the others at once), on the
  // captures of 2026-01-24. Counted: the log's replay reads.
  ({ EventSource: EventSourceClass } = await import('eventsource'));
  const base = await openTestDatabase();
  const counting = countingDatabase(base, changeLogReplayReads);
  const w = await startTestApp({ db: counting.db, env: { LIVE_PUSH_INTERVAL_MS: '600000' } });
  const clients: StreamClient[] = [];
  try {
    const stormKey = (await w.createKey('elite')).key;
    await ingestDocuments([captureDoc(0)], { db: w.db });
    const stayer = new StreamClient(w.baseUrl, stormKey);
    clients.push(stayer);
    await waitFor('the snapshot', () => stayer.snapshots.length > 0);
    const leftAt = stayer.lastId!;
    for (const i of [1, 2]) {
      await ingestDocuments([captureDoc(i)], { db: w.db, bus: w.bus });
      const version = await currentVersion(w.db);
      await waitFor(`capture ${i}`, () => (stayer.lastId ?? -1) >= version);
    }
    const missed = stayer.changes.filter((c: any) => c.seq > leftAt);
    expect(missed.length).toBeGreaterThan(0);
    counting.reset();
    const back = Array.from({ length: 12 }, () => new StreamClient(w.baseUrl, stormKey, { lastEventId: leftAt }));
    clients.push(...back);
    await waitFor('the catch-up on every client', () => back.every((c) => (c.lastId ?? -1) >= stayer.lastId!));
    for (const c of back) {
      expect(c.snapshots).toEqual([]);
      expect(c.changes).toEqual(missed);
    }
    expect(counting.count()).toBe(1);
  } finally {
    for (const c of clients) c.close();
    await w.close();
    await base.close();
  }
});
