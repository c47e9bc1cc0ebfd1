import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { ingestDocuments } from '../../src/ingest/ingest';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/app';
import { capture, waitFor, type GameSpec } from './live-helpers';

// Subscription.liveOdds over graphql-ws on /graphql with the real graphql-ws client.

const game = (home: number): GameSpec => ({ id: 4001, status: 'inprogress', start: '2026-01-24T00:30:00.000Z', books: { 15: { spread: [home, -110, -110] } } });
let clock = Date.parse('2026-01-24T01:00:00.000Z');
const nextSeen = () => new Date((clock += 60_000)).toISOString();

const QUERY = 'subscription ($gameId: Int) { liveOdds(gameId: $gameId) { reason updatedAt count stream seq games { gameId markets { spread { outcomes { side point } } } } } }';
const SCOPED =
  'subscription ($gameId: Int, $marketType: LiveMarketType, $bookId: Int) { liveOdds(gameId: $gameId, marketType: $marketType, bookId: $bookId) { games { markets { spread { outcomes { bookId side } } } } } }';
const CHANGES =
  'subscription ($gameId: Int, $marketType: LiveMarketType, $bookId: Int, $stream: String, $afterSeq: Int) { liveOddsChanges(gameId: $gameId, marketType: $marketType, bookId: $bookId, stream: $stream, afterSeq: $afterSeq) { stream seq baseSeq quotes { gameId bookId marketType side point price isLive } games { gameId status statusDisplay homeScore awayScore } } }';

interface Run {
  results: any[];
  errors: unknown[];
  closed: { code: number; reason: string } | null;
  client: Client;
}

function run(t: TestApp, connectionParams: Record<string, unknown>, variables: Record<string, unknown> = {}, query = QUERY): Run {
  const state: Run = { results: [], errors: [], closed: null, client: null as unknown as Client };
  state.client = createClient({
    url: t.baseUrl.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    lazy: false,
    on: { closed: (event: any) => (state.closed = { code: event.code, reason: String(event.reason) }) },
    onNonLazyError: () => {},
  });
  state.client.subscribe({ query, variables }, { next: (r) => state.results.push(r), error: (e) => state.errors.push(e), complete: () => {} });
  return state;
}

/** How many deltas /metrics counts as pushed by `transport`. */
async function pushCount(t: TestApp, transport: string): Promise<number> {
  const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
  return Number(new RegExp(`^live_push_latency_seconds_count\\{transport="${transport}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
}

describe('graphql-ws Subscription.liveOdds', () => {
  let t: TestApp;
  const runs: Run[] = [];
  const track = (r: Run) => (runs.push(r), r);

  beforeAll(async () => {
    t = await startTestApp();
    await ingestDocuments([capture(nextSeen(), game(-3))], { db: t.db, bus: t.bus });
  });
  afterEach(async () => {
    for (const r of runs.splice(0)) await r.client.dispose();
  });
  afterAll(() => t.close());

  test('when the key is in connection_init, then a snapshot comes at once and a change push after an ingest', async () => {
    const r = track(run(t, { apiKey: (await t.createKey('starter')).key }, { gameId: 4001 }));
    await waitFor('the snapshot', () => r.results.length > 0);
    expect(r.results[0].data.liveOdds).toMatchObject({ reason: 'snapshot', count: 1, games: [{ gameId: 4001 }] });
    const changes = track(run(t, { apiKey: (await t.createKey('starter')).key }, { gameId: 4001 }, CHANGES));
    const snapshot = r.results[0].data.liveOdds;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const pushes = () => pushCount(t, 'graphql-ws');
    const before = await pushes();
    await ingestDocuments([capture(nextSeen(), game(-6))], { db: t.db, bus: t.bus });
    await waitFor('a delta with the new line', () => changes.results.length > 0);
    // The push latency metric counts the delta under this transport.
    expect(await pushes()).toBe(before + 1);
    const delta = changes.results[0].data.liveOddsChanges;
    expect(delta).toMatchObject({ stream: snapshot.stream, seq: snapshot.seq + 1, baseSeq: snapshot.seq });
    expect(delta.quotes).toEqual(expect.arrayContaining([expect.objectContaining({ gameId: 4001, bookId: 15, marketType: 'spread', side: 'home', point: -6, isLive: false })]));
    expect(r.errors).toEqual([]);
    expect(changes.errors).toEqual([]);
  });

  test('when the change subscription names a market type or book, then deltas carry only those (empty ones elsewhere)', async () => {
    const key = (await t.createKey('pro')).key;
    const other = track(run(t, { apiKey: key }, { gameId: 4001, bookId: 68 }, CHANGES));
    const total = track(run(t, { apiKey: key }, { gameId: 4001, marketType: 'TOTAL' }, CHANGES));
    const spread = track(run(t, { apiKey: key }, { gameId: 4001, marketType: 'SPREAD', bookId: 15 }, CHANGES));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await ingestDocuments([capture(nextSeen(), game(-6.5))], { db: t.db, bus: t.bus });
    await waitFor('the spread delta', () => spread.results.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The same seq on every filter, empty outside it.
    await waitFor('the empty deltas', () => other.results.length > 0 && total.results.length > 0);
    const seq = spread.results[0].data.liveOddsChanges.seq;
    for (const c of [other, total]) expect(c.results.map((r: any) => [r.data.liveOddsChanges.seq, r.data.liveOddsChanges.games, r.data.liveOddsChanges.quotes])).toEqual([[seq, [], []]]);
    expect(spread.results[0].data.liveOddsChanges.quotes.every((q: any) => q.marketType === 'spread' && q.bookId === 15)).toBe(true);
  });

  test('when liveOdds names a book or a market type, then the snapshot markets carry only those', async () => {
    const key = (await t.createKey('pro')).key;
    const book = track(run(t, { apiKey: key }, { gameId: 4001, bookId: 68 }, SCOPED));
    const total = track(run(t, { apiKey: key }, { gameId: 4001, marketType: 'TOTAL' }, SCOPED));
    const both = track(run(t, { apiKey: key }, { gameId: 4001, bookId: 15, marketType: 'SPREAD' }, SCOPED));
    await waitFor('the snapshots', () => [book, total, both].every((r) => r.results.length > 0));
    const spread = (r: Run) => r.results[0].data.liveOdds.games[0].markets.spread.outcomes;
    expect(spread(book)).toEqual([]);
    expect(spread(total)).toEqual([]);
    expect(spread(both).map((o: any) => o.bookId)).toEqual([15, 15]);
  });

  test('when afterSeq names a stream this server does not hold, then the change subscription says to take a snapshot', async () => {
    const r = track(run(t, { apiKey: (await t.createKey('pro')).key }, { gameId: 4001, stream: 'abc', afterSeq: 3 }, CHANGES));
    await waitFor('the error', () => r.results.length > 0 || r.errors.length > 0);
    expect(JSON.stringify(r.results[0] ?? r.errors[0])).toMatch(/fresh snapshot/);
  });

  test('when a change subscription resumes with stream global and afterSeq, then the stored deltas after it come first, exactly as an uncut one got them, then the new ones', async () => {
    const key = (await t.createKey('pro')).key;
    const uncut = track(run(t, { apiKey: key }, { gameId: 4001 }, CHANGES));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await ingestDocuments([capture(nextSeen(), game(-7))], { db: t.db, bus: t.bus });
    await waitFor('the first delta', () => uncut.results.length === 1);
    const from = uncut.results[0].data.liveOddsChanges.seq;
    for (const line of [-7.5, -8]) await ingestDocuments([capture(nextSeen(), game(line))], { db: t.db, bus: t.bus });
    await waitFor('the missed deltas', () => uncut.results.length === 3);
    const resumed = track(run(t, { apiKey: key }, { gameId: 4001, stream: 'global', afterSeq: from }, CHANGES));
    await waitFor('the replay', () => resumed.results.length === 2);
    expect(resumed.results).toEqual(uncut.results.slice(1));
    expect(resumed.results[0].data.liveOddsChanges).toMatchObject({ stream: 'global', baseSeq: from });
    await ingestDocuments([capture(nextSeen(), game(-8.5))], { db: t.db, bus: t.bus });
    await waitFor('the next delta on both', () => resumed.results.length === 3 && uncut.results.length === 4);
    expect(resumed.results[2]).toEqual(uncut.results[3]);
  });

  test('when the key comes as Authorization: Bearer in connection_init, then it is accepted', async () => {
    const r = track(run(t, { Authorization: `Bearer ${(await t.createKey('pro')).key}` }));
    await waitFor('the snapshot', () => r.results.length > 0);
    expect(r.results[0].data.liveOdds.count).toBe(1);
  });

  test.each([
    ['no key', {}, 4401, /^Unauthorized: missing API key \(send it in connection_init as \{ apiKey \} or \{ Authorization: 'Bearer <key>' \}\)$/],
    ['an unknown key', { apiKey: 'sk_live_0000000000000000000000000000000000000000' }, 4401, /invalid API key/],
  ])('when connection_init has %s, then the socket closes with the code and says why', async (_name, params, code, reason) => {
    const r = track(run(t, params));
    await waitFor('the close', () => r.closed !== null);
    expect(r.closed!.code).toBe(code);
    expect(r.closed!.reason).toMatch(reason);
  });

  test('when the subscription expired, then the socket closes with 4403', async () => {
    const r = track(run(t, { apiKey: (await t.createKey('pro', { expiresAt: new Date('2020-01-01T00:00:00Z') })).key }));
    await waitFor('the close', () => r.closed !== null);
    expect(r.closed).toEqual({ code: 4403, reason: expect.stringMatching(/subscription expired/) });
  });

  test('when an argument is invalid, then the subscription errors and names it', async () => {
    const key = (await t.createKey('pro')).key;
    const client = createClient({ url: t.baseUrl.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { apiKey: key }, retryAttempts: 0 });
    // graphql-js reports an error of the subscribe step as a result with errors, then completes.
    const answers: any[] = [];
    client.subscribe(
      { query: 'subscription ($m: LiveMarketType) { liveOdds(marketType: $m) { count } }', variables: { m: 'CORNERS' } },
      { next: (r) => answers.push(r), error: (e) => answers.push(e), complete: () => {} },
    );
    await waitFor('the error', () => answers.length > 0);
    expect(JSON.stringify(answers[0])).toMatch(/does not exist in \\"LiveMarketType\\" enum/);
    await client.dispose();
  });

  test('when the key is revoked while connected, then the socket closes with 4401 within 1 s', async () => {
    const key = await t.createKey('elite');
    const r = track(run(t, { apiKey: key.key }));
    await waitFor('the snapshot', () => r.results.length > 0);
    // through the admin mutation, which announces it on the bus: sockets close at once, not on a poll
    await t.graphql(`mutation { revokeApiKey(id: "${key.id}") }`, undefined, TEST_ADMIN_KEY);
    await waitFor('the close', () => r.closed !== null, 1000);
    expect(r.closed).toEqual({ code: 4401, reason: expect.stringMatching(/revoked/) });
  }, 10_000);
});
