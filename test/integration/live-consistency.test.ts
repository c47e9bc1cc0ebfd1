import { createClient, type Client } from 'graphql-ws';
import { io as connect, type Socket } from 'socket.io-client';
import WebSocket from 'ws';
import { ingestDocuments } from '../../src/ingest/ingest';
import { startTestApp, type TestApp } from '../support/app';
import { doc, readSeries } from '../support/feeds';
import { waitFor } from './live-helpers';
import { readSseFrames } from '../support/sse';

// Every game state a live push shows is one the stored data had after some capture (issue 19: a delta
// read games, scores and quotes in separate statements and could show a status of one capture with
// the score of the next). The recorded series of 2026-01-24 is ingested back to back, as fast as the
// ingest goes, while one client follows each transport (SSE, Socket.IO, graphql-ws) and a second SSE
// client resumes half-way with a Last-Event-ID; every game in every snapshot, delta and catch-up they
// receive is compared with the states read after each capture.

const series = readSeries('nba-2026-01-24.jsonl.gz');
/** The evening's games going final, then an afternoon game from tip-off to its end. */
const CAPTURES = [...series.slice(0, 9), ...series.slice(58, 68)];

/** status|status_display|clock|period|home|away: what a push says of a game. */
type State = string;
const stateOf = (g: { status: string; status_display: string | null; clock: string | null; period: number | null; home_score: number | null; away_score: number | null }): State =>
  [g.status, g.status_display, g.clock, g.period, g.home_score, g.away_score].map((v) => v ?? '').join('|');

/** A game of a `live_odds` snapshot, as a state. */
const snapshotState = (game: any): [number, State] => [
  game.game_id,
  stateOf({ status: game.status, status_display: game.status_display, clock: game.boxscore?.clock ?? null, period: game.boxscore?.period ?? null, home_score: game.boxscore?.home_score ?? null, away_score: game.boxscore?.away_score ?? null }),
];

const GQL_CHANGES = 'subscription { liveOddsChanges { games { gameId status statusDisplay clock period homeScore awayScore } } }';
const GQL_SNAPSHOTS = 'subscription { liveOdds { games { gameId status statusDisplay boxscore { clock period homeScore awayScore } } } }';

describe('live pushes during a replay of a real series', () => {
  let t: TestApp;
  /** Per transport: every (game, state) it pushed. */
  const pushed = new Map<string, Array<[number, State]>>([
    ['sse', []],
    ['socket.io', []],
    ['graphql-ws', []],
    ['sse resumed', []],
  ]);
  /** Transports whose client got its first snapshot (the replay starts after all three). */
  const ready = new Set<string>();
  const note = (transport: string, entries: Array<[number, State]>) => {
    ready.add(transport);
    pushed.get(transport)!.push(...entries);
  };
  let socket: Socket;
  let gql: Client;
  const sse = new AbortController();

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    sse.abort();
    socket?.disconnect();
    await gql?.dispose();
    // The store is dropped on close: first let the live reads still under way finish (each runs in a
    // transaction of its own), so none of their connections is cut by the drop.
    if (t.db.kind === 'postgres') {
      const busy = async () =>
        Number(
          (
            await t.db.prisma.$queryRawUnsafe<Array<{ n: number }>>(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')",
            )
          )[0]!.n,
        );
      const started = Date.now();
      while ((await busy()) > 0 && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 20));
    }
    await t.close();
  });

  test('when captures are ingested back to back, then every game state pushed on every transport is one a capture left', async () => {
    const { key } = await t.createKey('elite');

    socket = connect(`${t.baseUrl}/live-odds`, { auth: { apiKey: key }, transports: ['websocket'], reconnection: false, forceNew: true });
    socket.on('live_odds', (p: any) => p.success && note('socket.io', p.data.map(snapshotState)));
    socket.on('odds_change', (c: any) => note('socket.io', c.games.map((g: any) => [g.game_id, stateOf(g)])));
    socket.emit('subscribe', {});

    gql = createClient({ url: `${t.baseUrl.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { apiKey: key }, retryAttempts: 0 });
    const gqlGame = (g: any) => ({ status: g.status, status_display: g.statusDisplay, clock: g.clock, period: g.period, home_score: g.homeScore, away_score: g.awayScore });
    gql.subscribe({ query: GQL_CHANGES }, { next: (r: any) => note('graphql-ws', r.data.liveOddsChanges.games.map((g: any) => [g.gameId, stateOf(gqlGame(g))])), error: () => {}, complete: () => {} });
    gql.subscribe(
      { query: GQL_SNAPSHOTS },
      { next: (r: any) => note('graphql-ws', r.data.liveOdds.games.map((g: any) => [g.gameId, stateOf(gqlGame({ ...g, ...g.boxscore }))])), error: () => {}, complete: () => {} },
    );

    /** Follows the SSE stream, from `lastEventId` when given (a resume), noting under `transport`. */
    const follow = async (transport: string, lastEventId?: number) => {
      const stream = await fetch(`${t.baseUrl}/api/v1/nba/odds/stream`, {
        headers: { authorization: `Bearer ${key}`, ...(lastEventId !== undefined && { 'last-event-id': String(lastEventId) }) },
        signal: sse.signal,
      });
      expect(stream.status).toBe(200);
      void readSseFrames(stream.body, ({ event, data }) => {
        if (event === 'live_odds') note(transport, (data.data ?? []).map(snapshotState));
        if (event === 'odds_change') note(transport, data.games.map((g: any) => [g.game_id, stateOf(g)]));
      });
    };
    await follow('sse');
    await waitFor('a snapshot on every transport', () => ready.size === 3);

    // The states the data had: read after each capture's commit, while nothing else writes.
    const truth = new Map<number, Set<State>>();
    for (const [i, capture] of CAPTURES.entries()) {
      // Half-way, a client resumes from the first capture's event: its catch-up and what follows.
      if (i === 9) await follow('sse resumed', 1);
      await ingestDocuments([doc(capture.body, capture.fetched_at, `capture-${i}`)], { db: t.db, bus: t.bus });
      for (const g of await t.db.prisma.game.findMany({ include: { boxscore: true } })) {
        const state = stateOf({ status: g.status, status_display: g.statusDisplay, clock: g.boxscore?.clock ?? null, period: g.boxscore?.period ?? null, home_score: g.boxscore?.homeScore ?? null, away_score: g.boxscore?.awayScore ?? null });
        if (!truth.has(g.id)) truth.set(g.id, new Set());
        truth.get(g.id)!.add(state);
      }
    }

    // The last capture ends game 264314: wait until every transport has told its final state.
    const final = [...truth.get(264314)!].find((s) => s.startsWith('closed|') || s.includes('|Final'))!;
    expect(final).toBeDefined();
    await waitFor('the final state on every transport', () => [...pushed.values()].every((list) => list.some(([id, s]) => id === 264314 && s === final)), 20_000);

    for (const [transport, list] of pushed) {
      const untrue = list.filter(([id, s]) => !truth.get(id)?.has(s)).map(([id, s]) => `${id} ${s}`);
      expect({ transport, untrue }).toEqual({ transport, untrue: [] });
      // Something was compared: deltas of scores moving, not only the end.
      expect(new Set(list.map(([, s]) => s)).size).toBeGreaterThan(5);
    }
  });
});
