import { LiveBook, liveStateOf, type LiveDeltaPayload, type LiveQuote } from '../../clients/typescript/src';

// The client rules of the live protocol as the TypeScript client applies them (clients/typescript/
// src/live/state.ts), on the example session of docs/live-protocol.md: snapshot at seq 41, deltas
// 42 and 43, a gap at 45 (44 missed), a resend, a game leaving, a player prop's main and alternate lines.

const quote = (over: Partial<LiveQuote>): LiveQuote => ({
  game_id: 401,
  book_id: 15,
  market_type: 'moneyline',
  period: 'full_game',
  side: 'home',
  is_live: true,
  point: null,
  price: -135,
  decimal: 1.7407,
  is_available: true,
  line_status: 'normal',
  ...over,
});
const outcome = (q: LiveQuote) => ({ book_id: q.book_id, market_type: q.market_type, side: q.side, point: q.point, odds: { decimal: q.decimal, american: String(q.price), original: q.price }, is_live: q.is_live, is_available: q.is_available, line_status: q.line_status, period: q.period });
const snapshotGame = { game_id: 401, status: 'in_progress', status_display: 'Q3 6:00', boxscore: { clock: '6:00', period: 3, home_score: 70, away_score: 66 }, markets: { moneyline: { outcomes: [outcome(quote({ price: -130, decimal: 1.7692 })), outcome(quote({ side: 'away', price: 110, decimal: 2.1 }))] } } };
const delta = (seq: number, over: Partial<LiveDeltaPayload> = {}): LiveDeltaPayload => ({ stream: '5f1c0a9e3b21', seq, base_seq: seq - 1, at: '2026-01-24T01:15:03.000Z', games: [], quotes: [], ...over });

test('when the example session of the protocol is applied, then each delta is applied, ignored or resynced as the rules say', () => {
  const book = new LiveBook();
  book.replace([snapshotGame], '5f1c0a9e3b21', 41);
  const d42 = delta(42, { quotes: [quote({}), quote({ side: 'away', price: 115, decimal: 2.15 })] });
  expect(book.verdict(d42)).toBe('apply');
  book.apply(d42);
  const d43 = delta(43, { games: [{ game_id: 401, status: 'in_progress', status_display: 'Q3 5:12', clock: '5:12', period: 3, home_score: 71, away_score: 66 }], quotes: [quote({ book_id: 68, price: -140, decimal: 1.7143 })] });
  expect(book.verdict(d43)).toBe('apply');
  book.apply(d43);
  expect(book.verdict(d42)).toBe('ignore'); // a resend: the state already has it
  expect(book.verdict(delta(43, { stream: 'another' }))).toBe('ignore'); // another stream's
  expect(book.verdict(delta(45))).toBe('resync'); // base_seq 44 is not 43: a delta was missed
  const state = book.state();
  expect(state).toMatchObject({ stream: '5f1c0a9e3b21', seq: 43 });
  expect(state.games).toEqual([
    { game_id: 401, status: 'in_progress', status_display: 'Q3 5:12', clock: '5:12', period: 3, home_score: 71, away_score: 66, quotes: [quote({ side: 'away', price: 115, decimal: 2.15 }), quote({}), quote({ book_id: 68, price: -140, decimal: 1.7143 })] },
  ]);
  // The game ends: it leaves with its quotes.
  book.apply(delta(44, { games: [{ game_id: 401, status: 'finished', status_display: 'Final', clock: '0:00', period: 4, home_score: 101, away_score: 99 }] }));
  expect(book.state()).toEqual({ stream: '5f1c0a9e3b21', seq: 44, games: [] });
});

test('when a snapshot is read as a state, then its outcomes become the quotes a delta replaces', () => {
  const state = liveStateOf([snapshotGame], 's', 7);
  expect(state.games[0]!.quotes).toEqual([quote({ side: 'away', price: 110, decimal: 2.1 }), quote({ price: -130, decimal: 1.7692 })]);
});

test('when a prop delta moves a main line and touches an alternate line, then the main line is replaced and the alternate is one of its own', () => {
  const prop = (over: Partial<LiveQuote>) => quote({ market_type: 'player_points', side: 'over', player_id: 17, prop_type: 'points', is_alternate: false, point: 20.5, price: -115, decimal: 1.8696, ...over });
  const book = new LiveBook();
  book.replace([{ ...snapshotGame, markets: { player_props: { outcomes: [{ ...outcome(prop({})), player: { id: 17 }, prop_type: 'points', is_alternate: false }] } } }], 's', 12);
  book.apply({ ...delta(13), stream: 's', quotes: [prop({ point: 21.5, price: -125, decimal: 1.8 }), prop({ is_alternate: true, point: 25.5, price: 180, decimal: 2.8 })] });
  expect(book.state().games[0]!.quotes).toEqual([prop({ point: 21.5, price: -125, decimal: 1.8 }), prop({ is_alternate: true, point: 25.5, price: 180, decimal: 2.8 })]);
});
