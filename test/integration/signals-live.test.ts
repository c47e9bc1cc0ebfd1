import { createClient, type Client } from 'graphql-ws';
import { io as connect, type Socket } from 'socket.io-client';
import WebSocket from 'ws';
import { ingestDocuments } from '../../src/ingest/ingest';
import { startTestApp, type TestApp } from '../support/app';
import { doc, readSeries } from '../support/feeds';
import { waitFor } from './live-helpers';
import { readSseFrames } from '../support/sse';

// Signals served where the live data is (issue 23; docs/signals.md, docs/live-protocol.md): the real
// series of 2026-01-24 is ingested capture by capture, on the app's bus, up to the evening of the
// 24th (games 264315 and 264316 in play, the day's signals stored). Meanwhile clients that asked for
// signal events follow each transport (Socket.IO subscribe_signals, graphql-ws lineSignalEvents, SSE
// signals=) and one that did not ask follows Socket.IO as before; then /live/movement's records carry
// the stored signals their books took part in.

const BASE = '/api/v1/nba/odds';
const series = readSeries('nba-2026-01-24.jsonl.gz');
/** Up to 2026-01-25T01:25:37Z: 264315 and 264316 in play, the rest of the day's games not started. */
const PAUSE = series.findIndex((c) => c.fetched_at === '2026-01-25T01:25:37.000Z');
const LIVE_GAMES = [264315, 264316];

/** The SSE events of a stream: [event, data, id] in order, filled as they arrive. */
function followSse(url: string, key: string, signal: AbortSignal): { events: Array<[string, any, string | null]>; status: Promise<number> } {
  const events: Array<[string, any, string | null]> = [];
  const status = fetch(url, { headers: { authorization: `Bearer ${key}` }, signal }).then((res) => {
    void readSseFrames(res.body, (f) => events.push([f.event, f.data, f.id]));
    return res.status;
  });
  return { events, status };
}

describe('signals on /live/movement and the push channels, on the real series', () => {
  let t: TestApp;
  let pro: string;
  let starter: string;
  const sockets: Socket[] = [];
  let gql: Client;
  const sse = new AbortController();
  /** What each client was pushed, by name. */
  const pushed = new Map<string, any[]>();
  const note = (name: string, signal: any) => pushed.get(name)!.push(signal);
  let sseAll: ReturnType<typeof followSse>;
  let sseRlm: ReturnType<typeof followSse>;
  /** Every stored signal after the pause, of every game (GraphQL lineSignals, the fields of /signals). */
  let stored: any[];

  const socket = (name: string) => {
    pushed.set(name, []);
    const s = connect(`${t.baseUrl}/live-odds`, { auth: { apiKey: pro }, transports: ['websocket'], reconnection: false, forceNew: true });
    s.on('line_signal', (signal: any) => note(name, signal));
    sockets.push(s);
    return s;
  };

  beforeAll(async () => {
    t = await startTestApp();
    pro = (await t.createKey('pro')).key;
    starter = (await t.createKey('starter')).key;

    const all = socket('socket.io all');
    const steamTotals = socket('socket.io steam totals');
    socket('socket.io without asking');
    const acks = await Promise.all([
      all.emitWithAck('subscribe_signals', {}),
      steamTotals.emitWithAck('subscribe_signals', { kind: 'steam', market_type: ['total'] }),
    ]);
    expect(acks).toEqual([
      { success: true, filter: {} },
      { success: true, filter: { kind: ['steam'], market_type: ['total'] } },
    ]);

    pushed.set('graphql-ws', []);
    gql = createClient({ url: `${t.baseUrl.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { apiKey: pro }, retryAttempts: 0 });
    let gqlStarted = false;
    gql.subscribe(
      { query: `subscription { lineSignalEvents(gameId: [${LIVE_GAMES.join(', ')}]) { key kind gameId marketType period side at detectedAt data } }` },
      { next: (r: any) => note('graphql-ws', r.data.lineSignalEvents), error: () => {}, complete: () => {} },
    );
    // graphql-ws acknowledges a subscription with its first result only: a ping round trip shows the connection is up.
    gql.on('connected', () => (gqlStarted = true));

    sseAll = followSse(`${t.baseUrl}${BASE}/stream?signals=all`, pro, sse.signal);
    sseRlm = followSse(`${t.baseUrl}${BASE}/stream?signals=reverse_line_movement,steam&market_type=spread`, pro, sse.signal);
    expect(await sseAll.status).toBe(200);
    expect(await sseRlm.status).toBe(200);
    await waitFor('graphql-ws connected', () => gqlStarted);
    // The SSE streams are subscribed once their first snapshot is out.
    await waitFor('SSE snapshots', () => [sseAll, sseRlm].every((s) => s.events.some(([e]) => e === 'live_odds')));

    for (let i = 0; i <= PAUSE; i++) await ingestDocuments([doc(series[i]!.body, series[i]!.fetched_at, `capture-${i}`)], { db: t.db, bus: t.bus });
    const games = (await t.db.prisma.game.findMany({ select: { id: true } })).map((g) => g.id);
    const res = await t.graphql(`{ lineSignals(gameId: [${games.join(', ')}]) { key kind gameId marketType period side at detectedAt data } }`, {}, pro);
    expect(res.body.errors).toBeUndefined();
    stored = res.body.data.lineSignals;
  }, 300_000);

  afterAll(async () => {
    sse.abort();
    for (const s of sockets) s.disconnect();
    await gql?.dispose();
    await t?.close();
  });

  const keysOf = (list: any[]) => new Set(list.map((s) => s.key));

  test('when the captures are ingested, then a Socket.IO client that asked gets every stored signal as line_signal, the last of each as /signals serves it', async () => {
    const expected = keysOf(stored);
    expect(stored.filter((s) => s.kind === 'steam').length).toBeGreaterThan(0);
    expect(stored.filter((s) => s.kind === 'reverse_line_movement').length).toBeGreaterThan(0);
    await waitFor('every stored signal on Socket.IO', () => [...expected].every((k) => keysOf(pushed.get('socket.io all')!).has(k)), 60_000);
    const last = new Map(pushed.get('socket.io all')!.map((s) => [s.key, s]));
    for (const s of stored) {
      expect(last.get(s.key)).toEqual({ key: s.key, kind: s.kind, game_id: s.gameId, market_type: s.marketType, period: s.period, side: s.side, at: s.at, detected_at: s.detectedAt, data: s.data });
    }
  });

  test('when a Socket.IO client filtered by kind and market, then it gets exactly the steam signals of totals', async () => {
    const expected = keysOf(stored.filter((s) => s.kind === 'steam' && s.marketType === 'total'));
    expect(expected.size).toBeGreaterThan(0);
    await waitFor('the steam totals', () => keysOf(pushed.get('socket.io steam totals')!).size >= expected.size, 60_000);
    expect(keysOf(pushed.get('socket.io steam totals')!)).toEqual(expected);
  });

  test('when a Socket.IO client did not ask for signals, then it gets no line_signal (the default deltas are unchanged)', async () => {
    await waitFor('every stored signal on Socket.IO', () => keysOf(pushed.get('socket.io all')!).size >= stored.length, 60_000);
    expect(pushed.get('socket.io without asking')).toEqual([]);
  });

  test('when a graphql-ws client subscribed to the games in play, then it gets exactly their signals', async () => {
    const expected = keysOf(stored.filter((s) => LIVE_GAMES.includes(s.gameId)));
    expect(expected.size).toBeGreaterThan(0);
    await waitFor('the live games signals on graphql-ws', () => keysOf(pushed.get('graphql-ws')!).size >= expected.size, 60_000);
    expect(keysOf(pushed.get('graphql-ws')!)).toEqual(expected);
  });

  test('when SSE streams asked with signals=, then their line_signal events are the signals asked for, without ids; a stream filtered by market gets only that market', async () => {
    const signalsOf = (s: ReturnType<typeof followSse>) => s.events.filter(([e]) => e === 'line_signal').map(([, d]) => d);
    await waitFor('every stored signal on SSE', () => [...keysOf(stored)].every((k) => keysOf(signalsOf(sseAll)).has(k)), 60_000);
    const spreads = keysOf(stored.filter((s) => s.marketType === 'spread' && s.kind !== 'market_leader'));
    expect(spreads.size).toBeGreaterThan(0);
    await waitFor('the spread steam and RLM on SSE', () => keysOf(signalsOf(sseRlm)).size >= spreads.size, 60_000);
    expect(keysOf(signalsOf(sseRlm))).toEqual(spreads);
    // Outside the odds sequence: no id, so a Last-Event-ID stays an odds event's. The odds stream goes on beside them.
    expect(sseAll.events.filter(([e]) => e === 'line_signal').every(([, , id]) => id === null)).toBe(true);
    expect(sseAll.events.some(([e, , id]) => e === 'odds_change' && id !== null)).toBe(true);
  });

  test('when signal events are asked badly or by a Starter key, then each is refused with the reason', async () => {
    const s = socket('socket.io bad');
    for (const [payload, word] of [
      [{ kind: 'whale' }, 'kind must be one of'],
      [{ game_id: -1 }, 'game_id must be a positive integer'],
      [{ book_id: 15 }, 'unknown field book_id'],
      ['steam', 'expected an object'],
      [{ kind: [] }, 'kind must hold 1 to 50 values'],
    ] as const) {
      const ack = await s.emitWithAck('subscribe_signals', payload);
      expect(ack.success).toBe(false);
      expect(ack.error).toContain(word);
    }
    const cheap = connect(`${t.baseUrl}/live-odds`, { auth: { apiKey: starter }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(cheap);
    const refused = await cheap.emitWithAck('subscribe_signals', {});
    expect(refused).toMatchObject({ success: false });
    expect(refused.error).toMatch(/plan/i);

    for (const [query, status, word] of [
      ['signals=whale', 400, 'invalid parameter signals'],
      ['signals=steam&signals=all', 400, 'give it once'],
      ['signals=', 400, 'invalid parameter signals'],
    ] as const) {
      const res = await fetch(`${t.baseUrl}${BASE}/stream?${query}`, { headers: { authorization: `Bearer ${pro}` } });
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: string }).error).toContain(word);
    }
    const res = await fetch(`${t.baseUrl}${BASE}/stream?signals=all`, { headers: { authorization: `Bearer ${starter}` } });
    expect(res.status).toBe(403);
    await res.body?.cancel();
  });

  test('when /live/movement is read mid-game, then every record carries the stored signals its book took part in, on both sides of its market', async () => {
    const res = await t.get(`${BASE}/live/movement`, pro);
    expect(res.status).toBe(200);
    const records = res.body.data as any[];
    expect(new Set(records.map((r) => r.game_id))).toEqual(new Set(LIVE_GAMES));

    // Independently of the labels' code: who took part in each stored signal of the games in play.
    const expected = new Map<string, Array<{ key: string; kind: string }>>();
    const add = (s: any, bookId: number, kind: string) => {
      const k = `${s.gameId}|${s.marketType}|${s.period}|${bookId}`;
      if (!expected.has(k)) expected.set(k, []);
      if (!expected.get(k)!.some((l) => l.key === s.key && l.kind === kind)) expected.get(k)!.push({ key: s.key, kind });
    };
    for (const s of stored.filter((x) => LIVE_GAMES.includes(x.gameId))) {
      if (s.kind === 'market_leader') {
        add(s, s.data.leader_book_id, 'market_leader');
        for (const f of s.data.followers) add(s, f.book_id, 'market_follower');
      } else {
        for (const m of s.data.moves) add(s, m.book_id, s.kind);
      }
    }
    const seen = new Set<string>();
    for (const r of records) {
      const k = `${r.game_id}|${r.market_type}|${r.period}|${r.book_id}`;
      const want = (expected.get(k) ?? []).map((l) => `${l.kind} ${l.key}`).sort();
      expect({ record: `${k}|${r.side}`, labels: r.signals.map((l: any) => `${l.kind} ${l.key}`).sort() }).toEqual({ record: `${k}|${r.side}`, labels: want });
      for (let i = 1; i < r.signals.length; i++) expect(Date.parse(r.signals[i].at)).toBeGreaterThanOrEqual(Date.parse(r.signals[i - 1].at));
      if (r.signals.length) seen.add(k);
    }
    const labels = records.flatMap((r) => r.signals);
    for (const kind of ['steam', 'reverse_line_movement', 'market_leader', 'market_follower']) expect(labels.some((l) => l.kind === kind)).toBe(true);
    // Every book that took part in a signal of a game in play has its records labelled (books still quoting).
    expect(seen.size).toBeGreaterThan(0);

    const follower = labels.find((l) => l.kind === 'market_follower')!;
    expect(follower).toMatchObject({ number: expect.any(Number), leader_book_id: expect.any(Number), after_seconds: expect.any(Number), direction: null });
    const rlm = labels.find((l) => l.kind === 'reverse_line_movement')!;
    expect(rlm.majority_tickets_percent).toBeGreaterThanOrEqual(60);
    expect(rlm.direction).not.toBe(rlm.majority_side);
    const steam = labels.find((l) => l.kind === 'steam')!;
    expect(['toward_side', 'away_from_side']).toContain(steam.direction);
  });

  test('when GraphQL asks lineMovement for its signals, then it answers as REST does', async () => {
    const rest = (await t.get(`${BASE}/live/movement?game_id=${LIVE_GAMES[0]}&market_type=spread`, pro)).body.data as any[];
    const res = await t.graphql(`{ lineMovement(gameId: [${LIVE_GAMES[0]}], marketType: [SPREAD]) { records { bookId side signals { key kind afterSeconds } } } }`, {}, pro);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.lineMovement.records).toEqual(rest.map((r) => ({ bookId: r.book_id, side: r.side, signals: r.signals.map((l: any) => ({ key: l.key, kind: l.kind, afterSeconds: l.after_seconds })) })));
  });
});
