import { createClient, type Client } from 'graphql-ws';
import { io as connect, type Socket } from 'socket.io-client';
import WebSocket from 'ws';
import { normalizePlayerName } from '../../src/domain';
import { ingestDocuments } from '../../src/ingest/ingest';
import { bookOf } from '../../src/ingest/feeds/the-odds-api/books';
import { readSources, type SourceDocument } from '../../src/ingest/sources';
import { startTestApp, type TestApp } from '../support/app';
import { feedPath } from '../support/feeds';
import { capture, waitFor, type GameSpec } from './live-helpers';

// Prop deltas on the live pushes (issue 22, docs/live-protocol.md "Player props"): a client whose
// filter names market_type player_props gets the live props in its snapshots and the changed prop
// quotes in its deltas, on Socket.IO, graphql-ws and SSE; a client without it gets no prop at all.
// Data: the real captures of The Odds API's event-odds endpoint (test/fixtures/feeds/theoddsapi/
// wnba-props-*.jsonl.gz) of two games of 2023-06-10, each captured about 12 h before tip-off and once
// 10 minutes into the game (the capture that makes it live). The real series has no second in-play
// capture, so the prop move in play is that in-play capture 5 minutes later with one line moved:
// FanDuel's points line of one player, a point up, both prices changed, every other price as captured.

const PROPS = 'theoddsapi/wnba-props-2023-05_2023-07.jsonl.gz';
const G1 = 'b22ccb339918a20257202637e0f8a942';
const G2 = '0952f528ba9f59aec53d891ba4652c00';
const BASE = '/api/v1/nba/odds';
const PROP_FIELDS = ['player_id', 'prop_type', 'is_alternate'];
/** The keys of a game market's quote in a delta, in order: unchanged by props. */
const GAME_QUOTE_KEYS = ['game_id', 'book_id', 'market_type', 'period', 'side', 'is_live', 'point', 'price', 'decimal', 'is_available', 'line_status'];

type Outcome = { name: string; description: string; price: number; point: number };
type Event = { id: string; commence_time: string; bookmakers: Array<{ key: string; title: string; markets: Array<{ key: string; outcomes: Outcome[] }> }> };

/** A game-market game of the Action Network format, being played, for the clients without props. */
const gameMarkets = (home: number): GameSpec => ({ id: 7101, status: 'inprogress', start: '2023-06-10T01:30:00.000Z', books: { 15: { spread: [home, -110, -110] } } });

const quiet = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A prop quote as a comparable line: book, player, market, line, side and its values. */
const propLine = (q: { book_id: number; player_id: number; market_type: string; is_alternate: boolean; point: number | null; side: string; price: number; is_live: boolean; is_available: boolean }) =>
  `${q.book_id}|${q.player_id}|${q.market_type}|${q.is_alternate}|${q.point}|${q.side}|${q.price}|${q.is_live}|${q.is_available}`;

/** The prop outcomes of GET /live's data, as propLine. */
const livePropLines = (data: any[], gameId: number) =>
  (data.find((g) => g.game_id === gameId)?.markets.player_props?.outcomes ?? [])
    .map((o: any) => propLine({ ...o, player_id: o.player.id, price: o.odds.original }))
    .sort();

interface SocketClient {
  socket: Socket;
  snapshots: any[];
  changes: any[];
}

function openSocket(t: TestApp, auth: Record<string, unknown>): SocketClient {
  const socket = connect(`${t.baseUrl}/live-odds`, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
  const c: SocketClient = { socket, snapshots: [], changes: [] };
  socket.on('live_odds', (p) => c.snapshots.push(p));
  socket.on('odds_change', (d) => c.changes.push(d));
  return c;
}

interface WsClient {
  client: Client;
  results: any[];
  errors: unknown[];
}

const CHANGES = `subscription ($marketType: LiveMarketType, $bookId: Int) { liveOddsChanges(marketType: $marketType, bookId: $bookId) {
  seq games { gameId status } quotes { gameId bookId marketType period side playerId propType isAlternate isLive point price isAvailable } } }`;

function subscribeWs(t: TestApp, key: string, variables: Record<string, unknown>, query = CHANGES): WsClient {
  const state: WsClient = { client: null as unknown as Client, results: [], errors: [] };
  state.client = createClient({ url: t.baseUrl.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { apiKey: key }, retryAttempts: 0, lazy: false, onNonLazyError: () => {} });
  state.client.subscribe({ query, variables }, { next: (r) => state.results.push(r), error: (e) => state.errors.push(e), complete: () => {} });
  return state;
}

type EventSourceCtor = typeof import('eventsource', { with: { 'resolution-mode': 'import' } }).EventSource;
let EventSourceClass: EventSourceCtor;

interface SseClient {
  source: InstanceType<EventSourceCtor>;
  snapshots: any[];
  changes: any[];
}

function openSse(t: TestApp, key: string, query: string): SseClient {
  const source = new EventSourceClass(`${t.baseUrl}${BASE}/stream${query}`, {
    fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${key}` } }),
  });
  const c: SseClient = { source, snapshots: [], changes: [] };
  source.addEventListener('live_odds', (e) => c.snapshots.push(JSON.parse(e.data)));
  source.addEventListener('odds_change', (e) => c.changes.push(JSON.parse(e.data)));
  return c;
}

describe('prop deltas on the live pushes: the real WNBA props captures', () => {
  let t: TestApp;
  let key: string;
  const docs = new Map<string, { pregame: SourceDocument; live: SourceDocument }>();
  const gameIds = new Map<string, number>();
  /** Player id by normalised name (the captures spell some names two ways: docs/player-props.md). */
  const playerIds = new Map<string, number>();
  let home = -3;
  const seen = (() => {
    let clock = Date.parse('2023-06-10T02:11:00.000Z');
    return () => new Date((clock += 1000)).toISOString();
  })();
  const ingest = (...d: SourceDocument[]) => ingestDocuments(d, { db: t.db, bus: t.bus });

  beforeAll(async () => {
    ({ EventSource: EventSourceClass } = await import('eventsource'));
    t = await startTestApp();
    for await (const d of readSources(feedPath(PROPS))) {
      const body = d.body as { timestamp: string; data: Event };
      if (body.data.id !== G1 && body.data.id !== G2) continue;
      const live = new Date(body.timestamp) >= new Date(body.data.commence_time);
      docs.set(body.data.id, { ...docs.get(body.data.id)!, [live ? 'live' : 'pregame']: d });
    }
    // Both games before tip-off, then the first one in play; a game-market game in play beside them.
    await ingest(docs.get(G1)!.pregame, docs.get(G2)!.pregame, docs.get(G1)!.live);
    await ingest(capture(seen(), gameMarkets(home)));
    for (const g of await t.db.prisma.game.findMany({ select: { id: true, meta: true } })) {
      const sid = (g.meta as { source_ids?: Record<string, string> }).source_ids?.['the-odds-api'];
      if (sid) gameIds.set(sid, g.id);
    }
    for (const p of await t.db.prisma.player.findMany()) playerIds.set(normalizePlayerName(p.name), p.id);
    key = (await t.createKey('pro')).key;
  }, 120_000);
  afterAll(() => t?.close());

  test('when a socket subscribes with market_type player_props, then its snapshot is GET /live?market_type=player_props: the live games with their live props', async () => {
    const c = openSocket(t, { apiKey: key, market_type: 'player_props' });
    const plain = openSocket(t, { apiKey: key });
    const sse = openSse(t, key, '?market_type=player_props');
    const ws = subscribeWs(t, key, { marketType: 'PLAYER_PROPS' }, 'subscription ($marketType: LiveMarketType) { liveOdds(marketType: $marketType) { count games { gameId markets { playerProps { count } } } } }');
    try {
      await waitFor('the snapshots', () => c.snapshots.length > 0 && plain.snapshots.length > 0 && sse.snapshots.length > 0 && ws.results.length > 0);
      const rest = await t.get(`${BASE}/live?market_type=player_props`, key);
      expect(rest.status).toBe(200);
      const snapshot = c.snapshots[0];
      expect(snapshot).toMatchObject({ success: true, reason: 'snapshot', count: rest.body.count, updated_at: rest.body.updated_at });
      expect(snapshot.data).toEqual(rest.body.data);
      // The same on SSE and graphql-ws.
      expect(sse.snapshots[0]).toMatchObject({ success: true, reason: 'snapshot', updated_at: rest.body.updated_at });
      expect(sse.snapshots[0].data).toEqual(rest.body.data);
      expect(ws.results[0].data.liveOdds.games).toEqual(rest.body.data.map((g: any) => ({ gameId: g.game_id, markets: { playerProps: g.markets.player_props && { count: g.markets.player_props.count } } })));
      const g1 = snapshot.data.find((g: any) => g.game_id === gameIds.get(G1));
      expect(Object.keys(g1.markets)).toEqual(['player_props']);
      // Every price of the in-play capture is there, live.
      const live = (docs.get(G1)!.live.body as { data: Event }).data;
      const served = new Set(livePropLines(snapshot.data, gameIds.get(G1)!));
      let prices = 0;
      for (const b of live.bookmakers) {
        for (const m of b.markets) {
          for (const o of m.outcomes) {
            const alternate = false; // no alternate market in these captures
            expect(served).toContain(propLine({ book_id: bookOf(b.key, b.title).id, player_id: playerIds.get(normalizePlayerName(o.description))!, market_type: m.key, is_alternate: alternate, point: o.point, side: o.name.toLowerCase(), price: o.price, is_live: true, is_available: true }));
            prices++;
          }
        }
      }
      expect(prices).toBe(62);
      // The props' updated_at is the newest prop price: the in-play capture's time.
      expect(snapshot.updated_at).toBe(new Date((docs.get(G1)!.live.body as { timestamp: string }).timestamp).toISOString());
      // Without market_type, the snapshot has no props.
      expect(JSON.stringify(plain.snapshots[0].data)).not.toContain('player_props');
    } finally {
      c.socket.close();
      plain.socket.close();
      sse.source.close();
      await ws.client.dispose();
    }
  });

  test('when a game starts playing and then a prop line moves in play, then each transport with player_props gets exactly those props, a default client none', async () => {
    const g1 = gameIds.get(G1)!;
    const g2 = gameIds.get(G2)!;
    const liveG1 = docs.get(G1)!.live;
    const event = (liveG1.body as { data: Event }).data;
    const fanduel = event.bookmakers.find((b) => b.key === 'fanduel')!;
    const fanduelId = bookOf(fanduel.key, fanduel.title).id;
    const otherBook = bookOf(event.bookmakers[0]!.key, event.bookmakers[0]!.title).id;
    expect(otherBook).not.toBe(fanduelId);

    const props = openSocket(t, { apiKey: key, market_type: 'player_props' });
    const propsFanduel = openSocket(t, { apiKey: key, market_type: 'player_props', book_id: fanduelId });
    const propsOtherBook = openSocket(t, { apiKey: key, market_type: 'player_props', book_id: otherBook });
    const propsG2 = openSocket(t, { apiKey: key, market_type: 'player_props', game_id: g2 });
    const plain = openSocket(t, { apiKey: key });
    const sockets = [props, propsFanduel, propsOtherBook, propsG2, plain];
    const ws = subscribeWs(t, key, { marketType: 'PLAYER_PROPS' });
    const wsPlain = subscribeWs(t, key, {});
    // A snapshot on the same connections, sent after the deltas' subscriptions: they are in place when it comes.
    const wsReady = subscribeWs(t, key, {}, 'subscription { liveOdds { count } }');
    const sse = openSse(t, key, '?market_type=player_props');
    const ssePlain = openSse(t, key, '');
    try {
      await waitFor('the snapshots', () => sockets.every((s) => s.snapshots.length > 0) && sse.snapshots.length > 0 && ssePlain.snapshots.length > 0 && wsReady.results.length > 0);
      await quiet(200);

      // 1. The second game starts playing: it comes whole, with every prop /live shows of it.
      await ingest(docs.get(G2)!.live);
      // Every client hears of it (the game's status is in every scope without another game_id); only the props ones get props.
      await waitFor('the whole game', () => sockets.every((s) => s.changes.length > 0) && [sse, ssePlain].every((s) => s.changes.length > 0) && [ws, wsPlain].every((w) => w.results.length > 0));
      const whole = await t.get(`${BASE}/live?market_type=player_props`, key);
      const expected = livePropLines(whole.body.data, g2);
      expect(expected.length).toBeGreaterThan(50);
      for (const change of [props.changes[0], propsG2.changes[0], sse.changes[0]]) {
        expect(change.games).toEqual([expect.objectContaining({ game_id: g2, status: 'in_progress' })]);
        expect(change.quotes.every((q: any) => q.game_id === g2)).toBe(true);
        expect(change.quotes.map(propLine).sort()).toEqual(expected);
      }
      const wsWhole = ws.results[0].data.liveOddsChanges;
      expect(wsWhole.quotes.map((q: any) => propLine({ book_id: q.bookId, player_id: q.playerId, market_type: q.marketType, is_alternate: q.isAlternate, point: q.point, side: q.side, price: q.price, is_live: q.isLive, is_available: q.isAvailable })).sort()).toEqual(expected);

      // 2. One prop line moves in play: FanDuel's points line of one player.
      const moved = structuredClone(liveG1) as SourceDocument;
      const at = new Date(liveG1.fetchedAt!.getTime() + 5 * 60_000);
      moved.fetchedAt = at;
      const body = moved.body as { timestamp: string; data: Event };
      body.timestamp = at.toISOString().replace('.000Z', 'Z');
      const points = body.data.bookmakers.find((b) => b.key === 'fanduel')!.markets.find((m) => m.key === 'player_points')!;
      const player = points.outcomes[0]!.description;
      const pair = points.outcomes.filter((o) => o.description === player);
      expect(pair.map((o) => o.name).sort()).toEqual(['Over', 'Under']);
      const line = pair[0]!.point + 1;
      for (const o of pair) Object.assign(o, { point: line, price: o.name === 'Over' ? (o.price === -125 ? -130 : -125) : o.price === 105 ? 100 : 105 });
      for (const change of [plain.changes[0], ssePlain.changes[0], wsPlain.results[0].data.liveOddsChanges]) expect(change.quotes).toEqual([]);
      const before = { props: props.changes.length, fanduel: propsFanduel.changes.length, sse: sse.changes.length, ws: ws.results.length };
      // Socket.IO and graphql-ws send every ingest's delta, empty outside the filter (docs/live-protocol.md): count the non-empty ones.
      const held = (changes: any[]) => changes.filter((c) => c.games.length || c.quotes.length).length;
      const others = [propsOtherBook, propsG2, plain, ssePlain].map((c) => held(c.changes));
      const wsPlainBefore = held(wsPlain.results.map((r: any) => r.data.liveOddsChanges));
      await ingest(moved);
      await waitFor('the prop deltas', () => props.changes.length > before.props && propsFanduel.changes.length > before.fanduel && sse.changes.length > before.sse && ws.results.length > before.ws);
      const exact = pair
        .map((o) => propLine({ book_id: fanduelId, player_id: playerIds.get(normalizePlayerName(player))!, market_type: 'player_points', is_alternate: false, point: line, side: o.name.toLowerCase(), price: o.price, is_live: true, is_available: true }))
        .sort();
      for (const change of [props.changes.at(-1), propsFanduel.changes.at(-1), sse.changes.at(-1)]) {
        expect(change.games).toEqual([]);
        expect(change.quotes.map(propLine).sort()).toEqual(exact);
        for (const q of change.quotes) {
          // The keys of a game quote plus the player, the prop and the line's kind, in one order.
          expect(Object.keys(q)).toEqual(['game_id', 'book_id', 'market_type', 'period', 'side', ...PROP_FIELDS, 'is_live', 'point', 'price', 'decimal', 'is_available', 'line_status']);
          expect(q).toMatchObject({ game_id: g1, period: 'full_game', prop_type: 'points' });
        }
      }
      const wsMoved = ws.results.at(-1).data.liveOddsChanges.quotes;
      expect(wsMoved.map((q: any) => ({ ...q, side: q.side }))).toEqual(
        expect.arrayContaining(pair.map((o) => ({ gameId: g1, bookId: fanduelId, marketType: 'player_points', period: 'full_game', side: o.name.toLowerCase(), playerId: playerIds.get(normalizePlayerName(player)), propType: 'points', isAlternate: false, isLive: true, point: line, price: o.price, isAvailable: true }))),
      );
      expect(wsMoved).toHaveLength(2);
      // The book and game filters held, and the clients without props heard nothing of it.
      await quiet(200);
      expect([propsOtherBook, propsG2, plain, ssePlain].map((c) => held(c.changes))).toEqual(others);
      expect(held(wsPlain.results.map((r: any) => r.data.liveOddsChanges))).toBe(wsPlainBefore);

      // 3. A game market moves: the clients without props get it with the game quote's keys only.
      home -= 0.5;
      await ingest(capture(seen(), gameMarkets(home)));
      await waitFor('the game-market deltas', () => plain.changes.some((c) => c.quotes.length) && ssePlain.changes.some((c) => c.quotes.length) && wsPlain.results.some((r) => r.data.liveOddsChanges.quotes.length));
      // No prop quote and no prop field ever reached a client without player_props.
      for (const change of [...plain.changes, ...ssePlain.changes]) {
        for (const q of change.quotes) {
          expect(q.market_type).toBe('spread');
          expect(Object.keys(q)).toEqual(GAME_QUOTE_KEYS);
        }
      }
      const spread = plain.changes.flatMap((c) => c.quotes);
      expect(spread.find((q) => q.side === 'home')).toMatchObject({ game_id: 7101, point: home, price: -110 });
      for (const r of wsPlain.results) for (const q of r.data.liveOddsChanges.quotes) expect(q).toMatchObject({ marketType: 'spread', playerId: null, propType: null, isAlternate: null });
      // The props clients got no game-market quote.
      for (const change of [...props.changes, ...sse.changes]) for (const q of change.quotes) expect(q.market_type).toMatch(/^player_/);
    } finally {
      for (const s of sockets) s.socket.close();
      sse.source.close();
      ssePlain.source.close();
      for (const w of [ws, wsPlain, wsReady]) await w.client.dispose();
    }
  });

  test('when a filter names a stored prop market type instead of player_props, then each transport refuses it naming market_type', async () => {
    const sse = await fetch(`${t.baseUrl}${BASE}/stream?market_type=player_points`, { headers: { authorization: `Bearer ${key}` } });
    expect(sse.status).toBe(400);
    expect(((await sse.json()) as { error: string }).error).toMatch(/market_type/);
    const c = openSocket(t, { apiKey: key });
    try {
      const ack = await new Promise<any>((resolve) => c.socket.emit('subscribe', { market_type: 'player_points' }, resolve));
      expect(ack).toMatchObject({ success: false, error: expect.stringMatching(/market_type/) });
    } finally {
      c.socket.close();
    }
    const ws = subscribeWs(t, key, { marketType: 'PLAYER_POINTS' });
    try {
      await waitFor('the refusal', () => ws.errors.length > 0);
      expect(JSON.stringify(ws.errors[0])).toMatch(/marketType|LiveMarketType/);
    } finally {
      await ws.client.dispose();
    }
  });
});
