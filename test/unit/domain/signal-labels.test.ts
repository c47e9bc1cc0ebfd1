import { labelKey, signalLabels, type StoredSignalRow } from '../../../src/domain';

// Labels of /live/movement records from stored signals (docs/signals.md, labels): who took part in
// each event, per game, market, period and book.

const row = (over: Partial<StoredSignalRow> & Pick<StoredSignalRow, 'key' | 'kind' | 'data'>): StoredSignalRow => ({
  gameId: 1,
  marketType: 'spread',
  period: 'full_game',
  side: 'home',
  at: new Date('2026-01-24T02:00:00Z'),
  ...over,
});
const move = (book_id: number, size = 1, unit = 'points') => ({ book_id, size, unit });

describe('signalLabels', () => {
  test('when a steam event moved three books, then each of the three books is labelled steam with its direction, and no other book', () => {
    const labels = signalLabels([row({ key: 's1', kind: 'steam', data: { direction: 'toward_side', moves: [move(15), move(68), move(79)] } })]);
    for (const book of [15, 68, 79]) expect(labels.get(labelKey(1, 'spread', 'full_game', book))).toEqual([expect.objectContaining({ key: 's1', kind: 'steam', direction: 'toward_side', afterSeconds: null })]);
    expect(labels.get(labelKey(1, 'spread', 'full_game', 30))).toBeUndefined();
    expect(labels.get(labelKey(1, 'total', 'full_game', 15))).toBeUndefined();
  });

  test('when a book moved twice inside one event, then it carries the event once', () => {
    const labels = signalLabels([row({ key: 's1', kind: 'steam', data: { direction: 'away_from_side', moves: [move(15), move(15), move(68)] } })]);
    expect(labels.get(labelKey(1, 'spread', 'full_game', 15))).toHaveLength(1);
  });

  test('when a reverse line movement is stored, then its books carry the side it moved toward and the majority shares', () => {
    const labels = signalLabels([
      row({ key: 'r1', kind: 'reverse_line_movement', side: 'home', data: { toward_side: 'home', majority_side: 'away', majority_tickets_percent: 77, majority_money_percent: 79, moves: [move(68), move(79)] } }),
    ]);
    expect(labels.get(labelKey(1, 'spread', 'full_game', 79))).toEqual([
      expect.objectContaining({ kind: 'reverse_line_movement', direction: 'home', majoritySide: 'away', majorityTicketsPercent: 77, majorityMoneyPercent: 79 }),
    ]);
  });

  test('when a leader was followed, then the leader is market_leader and each follower market_follower with its delay', () => {
    const labels = signalLabels([row({ key: 'l1', kind: 'market_leader', data: { number: -1.5, leader_book_id: 68, followers: [{ book_id: 510, after_seconds: 1788 }, { book_id: 79, after_seconds: 0 }] } })]);
    expect(labels.get(labelKey(1, 'spread', 'full_game', 68))).toEqual([expect.objectContaining({ kind: 'market_leader', number: -1.5, leaderBookId: 68, afterSeconds: null })]);
    expect(labels.get(labelKey(1, 'spread', 'full_game', 510))).toEqual([expect.objectContaining({ kind: 'market_follower', number: -1.5, leaderBookId: 68, afterSeconds: 1788 })]);
    expect(labels.get(labelKey(1, 'spread', 'full_game', 79))![0]!.afterSeconds).toBe(0);
  });

  test('when a book took part in several events, then its labels are oldest first', () => {
    const labels = signalLabels([
      row({ key: 'late', kind: 'steam', at: new Date('2026-01-24T05:00:00Z'), data: { direction: 'toward_side', moves: [move(15)] } }),
      row({ key: 'early', kind: 'market_leader', at: new Date('2026-01-24T01:00:00Z'), data: { number: 3, leader_book_id: 15, followers: [] } }),
    ]);
    expect(labels.get(labelKey(1, 'spread', 'full_game', 15))!.map((l) => l.key)).toEqual(['early', 'late']);
  });

  test.each([
    ['no data', null],
    ['moves not a list', { moves: 'x' }],
    ['a move without a book', { moves: [{ size: 1 }] }],
  ])('when a stored row has %s, then it labels nothing instead of failing', (_name, data) => {
    expect(signalLabels([row({ key: 'x', kind: 'steam', data })]).size).toBe(0);
  });
});
