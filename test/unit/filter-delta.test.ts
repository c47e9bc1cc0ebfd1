import { filterDelta, scopeKey, type LiveScope } from '../../src/events/live-feed';
import { changeOf, GLOBAL_STREAM } from '../../src/services/live-streams';
import type { LiveGameChange, LiveQuoteChange } from '../../src/services/live-deltas';

// The pure filter of a stored delta (src/events/live-feed.ts filterDelta): what a client of each
// filter gets of one change-log entry's unfiltered delta, the same on every process.

const game = (id: number, status = 'in_progress'): LiveGameChange => ({ game_id: id, status, status_display: null, clock: null, period: null, home_score: null, away_score: null });
const quote = (gameId: number, bookId: number, marketType: string, side: string): LiveQuoteChange => ({
  game_id: gameId, book_id: bookId, market_type: marketType, period: 'full_game', side, is_live: true, point: null, price: -110, decimal: 1.9091, is_available: true, line_status: 'normal',
});
const prop = (gameId: number, bookId: number, playerId: number): LiveQuoteChange => ({
  ...quote(gameId, bookId, 'player_points', 'over'), player_id: playerId, prop_type: 'points', is_alternate: false, point: 20.5,
});

const delta = {
  games: [game(1), game(2, 'finished')],
  quotes: [quote(1, 15, 'spread', 'home'), quote(1, 68, 'moneyline', 'away'), quote(2, 15, 'total', 'over'), quote(1, 15, 'team_total', 'over'), prop(1, 15, 7), prop(2, 68, 8)],
};
const keys = (scope: LiveScope) => {
  const out = filterDelta(delta, scope);
  return { games: out.games.map((g) => g.game_id), quotes: out.quotes.map((q) => `${q.game_id}|${q.book_id}|${q.market_type}`) };
};

describe('filterDelta', () => {
  test.each<[string, LiveScope, { games: number[]; quotes: string[] }]>([
    ['no filter: every game, the game markets only (no prop)', {}, { games: [1, 2], quotes: ['1|15|spread', '1|68|moneyline', '2|15|total', '1|15|team_total'] }],
    ['a game: its game row and game-market quotes', { gameId: 1 }, { games: [1], quotes: ['1|15|spread', '1|68|moneyline', '1|15|team_total'] }],
    ['a market type', { marketType: 'spread' }, { games: [1, 2], quotes: ['1|15|spread'] }],
    ['a book', { bookId: 15 }, { games: [1, 2], quotes: ['1|15|spread', '2|15|total', '1|15|team_total'] }],
    ['player_props: the props only', { marketType: 'player_props' }, { games: [1, 2], quotes: ['1|15|player_points', '2|68|player_points'] }],
    ['player_props of a game and book', { marketType: 'player_props', gameId: 2, bookId: 68 }, { games: [2], quotes: ['2|68|player_points'] }],
    ['a game with nothing in the delta: empty, not absent', { gameId: 9 }, { games: [], quotes: [] }],
  ])('when the filter is %s, then the delta keeps exactly its part', (_what, scope, expected) => {
    expect(keys(scope)).toEqual(expected);
  });

  test('when the same stored delta is filtered twice, then the bytes are the same and the stored delta is untouched', () => {
    const before = JSON.stringify(delta);
    expect(JSON.stringify(filterDelta(delta, { bookId: 15 }))).toBe(JSON.stringify(filterDelta(JSON.parse(before), { bookId: 15 })));
    expect(JSON.stringify(delta)).toBe(before);
  });

  test('when an entry becomes a stream delta, then seq is its version, base_seq the previous entry, stream global, even when empty', () => {
    const at = new Date('2026-01-24T01:00:00.000Z');
    expect(changeOf({ version: 42, previous: 39, at, delta }, { gameId: 9 })).toEqual({ stream: GLOBAL_STREAM, seq: 42, base_seq: 39, at, games: [], quotes: [] });
    expect(changeOf({ version: 42, previous: 39, at, delta }, { gameId: 2, marketType: 'total' }).quotes).toEqual([quote(2, 15, 'total', 'over')]);
    expect(scopeKey({ gameId: 2, marketType: 'total' })).toBe('2|total|*');
  });
});
