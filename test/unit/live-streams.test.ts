import type { EventBus, OddsChangeEvent } from '../../src/events/bus';
import { createLocalBus } from '../../src/events/bus';
import { createLiveFeed, type LiveFeed } from '../../src/events/live-feed';
import { liveStream, WINDOW, type LiveOddsChange } from '../../src/services/live-streams';

// Streams of live deltas over a fake store: what a delta holds, its seq, and the replay window.

const quote = (gameId: number, bookId: number, marketType: string, side: string, american: number, isLive = true) => ({
  id: BigInt(1),
  gameId,
  bookId,
  marketType,
  period: 'full_game',
  side,
  isLive,
  outcomeId: null,
  teamId: null,
  point: null,
  american,
  decimal: 2,
  fractional: '1/1',
  isAvailable: true,
  lineStatus: 'normal',
  seenAt: new Date(0),
  changedAt: new Date(0),
});

function fakeStore(state: { games: Array<{ id: number; status: string }>; quotes: ReturnType<typeof quote>[] }) {
  return {
    game: { findMany: async () => state.games.map((g) => ({ ...g, statusDisplay: null, boxscore: null })) },
    quote: { findMany: async () => state.quotes },
    // The whole-game read (a game that came into play) is raw SQL: every quote of the state.
    $queryRaw: async () => state.quotes,
  } as never;
}

describe('live streams', () => {
  let bus: EventBus;
  let feed: LiveFeed;
  const state = { games: [{ id: 1, status: 'in_progress' }, { id: 2, status: 'scheduled' }], quotes: [] as ReturnType<typeof quote>[] };
  const publish = (event: Partial<OddsChangeEvent>) => bus.publish('odds', { at: '2026-01-24T01:00:00.000Z', games: [], markets: [], ...event });
  const settle = () => new Promise((r) => setTimeout(r, 20));

  beforeEach(() => {
    bus = createLocalBus();
    feed = createLiveFeed(bus, { intervalMs: 60_000 });
  });
  afterEach(() => feed.close());

  test('when one ingest moves two books, then one delta holds the displayed quotes of both, seq 1 after 0', async () => {
    const stream = liveStream(feed, fakeStore(state), { gameId: 1 });
    const got: LiveOddsChange[] = [];
    stream.listen((c) => got.push(c));
    state.quotes = [quote(1, 15, 'moneyline', 'home', -150), quote(1, 15, 'moneyline', 'home', -140, false), quote(1, 68, 'moneyline', 'home', -145)];
    await publish({ markets: [{ gameId: 1, marketType: 'moneyline', bookId: 15 }, { gameId: 1, marketType: 'moneyline', bookId: 68 }] });
    await settle();
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ stream: stream.id, seq: 1, base_seq: 0 });
    // The live price is the one shown while the game is played.
    expect(got[0]!.quotes.map((q) => [q.book_id, q.price, q.is_live])).toEqual([[15, -150, true], [68, -145, true]]);
  });

  test('when nothing in scope changed (another book, a scheduled game, the same values again), then no delta and no seq', async () => {
    const stream = liveStream(feed, fakeStore(state), { gameId: 1, bookId: 15 });
    const got: LiveOddsChange[] = [];
    stream.listen((c) => got.push(c));
    state.quotes = [quote(1, 15, 'moneyline', 'home', -150)];
    await publish({ markets: [{ gameId: 1, marketType: 'moneyline', bookId: 15 }] });
    await settle();
    await publish({ markets: [{ gameId: 1, marketType: 'moneyline', bookId: 15 }] }); // same values
    await publish({ markets: [{ gameId: 1, marketType: 'moneyline', bookId: 68 }] }); // other book
    await publish({ markets: [{ gameId: 2, marketType: 'moneyline', bookId: 15 }], games: [2] }); // scheduled game
    await settle();
    expect(got.map((c) => c.seq)).toEqual([1]);
    expect(stream.seq).toBe(1);
  });

  test('when a game leaves play and comes back (a status flicker), then it comes whole again, unchanged prices included', async () => {
    const games = [{ id: 1, status: 'in_progress' }];
    const store = fakeStore({ games, quotes: [quote(1, 15, 'moneyline', 'home', -150)] });
    const stream = liveStream(feed, store, { gameId: 1 });
    const got: LiveOddsChange[] = [];
    stream.listen((c) => got.push(c));
    await publish({ markets: [{ gameId: 1, marketType: 'moneyline', bookId: 15 }] });
    await settle();
    games[0]!.status = 'final';
    await publish({ games: [1] });
    await settle();
    games[0]!.status = 'in_progress';
    await publish({ games: [1] });
    await settle();
    expect(got.map((c) => [c.games.map((g) => g.status), c.quotes.map((q) => q.price)])).toEqual([
      [[], [-150]],
      [['final'], []],
      [['in_progress'], [-150]],
    ]);
  });

  test('when a client asks for the deltas after a seq, then the window answers while it holds them all, else null', async () => {
    const stream = liveStream(feed, fakeStore(state), { marketType: 'spread' });
    stream.listen(() => {});
    for (let i = 0; i < WINDOW + 2; i++) {
      state.quotes = [quote(1, 15, 'spread', 'home', -100 - i)];
      await publish({ markets: [{ gameId: 1, marketType: 'spread', bookId: 15 }] });
      await new Promise((r) => setImmediate(r)); // the fake store answers with the state of the moment
    }
    await settle();
    expect(stream.seq).toBe(WINDOW + 2);
    expect(stream.replay(WINDOW + 2)).toEqual([]);
    expect(stream.replay(WINDOW)!.map((c) => c.seq)).toEqual([WINDOW + 1, WINDOW + 2]);
    expect(stream.replay(2)).toHaveLength(WINDOW);
    expect(stream.replay(1)).toBeNull();
    expect(stream.replay(WINDOW + 3)).toBeNull();
  });
});
