import { findLeaders, findReverseLineMovement, findSteam, priceMoves, SIDES_BY_MARKET, type HistoryPrice } from '../../../src/domain';

// Steam, reverse line movement and market leader (issue 23; docs/signals.md) on small histories.

const at = (minute: number) => new Date(Date.UTC(2026, 0, 24, 12, minute));
const price = (bookId: number, minute: number, point: number | null, american: number, extra: Partial<HistoryPrice> = {}): HistoryPrice => ({
  gameId: 1,
  bookId,
  marketType: 'spread',
  period: 'full_game',
  side: 'home',
  isLive: false,
  point,
  american,
  seenAt: at(minute),
  ...extra,
});

describe('findSteam', () => {
  const opening = [price(1, 0, -3.5, -110), price(2, 0, -3.5, -110), price(3, 0, -3, -110)];

  test('when three books move home from -3.5 toward -4.5 within 15 minutes, then one steam event toward home', () => {
    const moves = priceMoves([...opening, price(1, 5, -4.5, -110), price(2, 10, -4, -110), price(3, 18, -4, -110)]);
    const steam = findSteam(moves);
    expect(steam).toHaveLength(1);
    expect(steam[0]).toMatchObject({ direction: 1, side: 'home', startedAt: at(5), endedAt: at(18) });
    expect(steam[0]!.moves.map((m) => m.bookId)).toEqual([1, 2, 3]);
  });

  test('when the third book moves after the window, or only by a price under 10 cents, then there is no steam', () => {
    expect(findSteam(priceMoves([...opening, price(1, 5, -4.5, -110), price(2, 10, -4, -110), price(3, 21, -4, -110)]))).toHaveLength(0);
    expect(findSteam(priceMoves([...opening, price(1, 5, -4.5, -110), price(2, 10, -4, -110), price(3, 12, -3, -115)]))).toHaveLength(0);
  });

  test('when the moves are live prices, then they are not read by default: in play every book follows the score', () => {
    const live = { isLive: true };
    const moves = priceMoves([price(1, 0, -3.5, -110, live), price(2, 0, -3.5, -110, live), price(3, 0, -3.5, -110, live), price(1, 5, -5.5, -110, live), price(2, 5, -5.5, -110, live), price(3, 5, -5.5, -110, live)]);
    expect(findSteam(moves)).toHaveLength(0);
  });
});

describe('findReverseLineMovement', () => {
  test('when 70 % of tickets are on away and two books move toward home, then it is reverse line movement with the money split', () => {
    const moves = priceMoves([price(1, 0, -3.5, -110), price(2, 0, -3.5, -110), price(1, 5, -4.5, -110), price(2, 6, -4.5, -110)]);
    const splits = [
      { gameId: 1, marketType: 'spread', side: 'home', ticketsPercent: 30, moneyPercent: 55 },
      { gameId: 1, marketType: 'spread', side: 'away', ticketsPercent: 70, moneyPercent: 45 },
    ];
    expect(findReverseLineMovement(moves, splits, SIDES_BY_MARKET)).toEqual([
      expect.objectContaining({ majoritySide: 'away', majorityTicketsPercent: 70, majorityMoneyPercent: 45, towardSide: 'home' }),
    ]);
    // The same move with the tickets on home follows the public: not reverse.
    const withPublic = splits.map((s) => ({ ...s, ticketsPercent: 100 - s.ticketsPercent }));
    expect(findReverseLineMovement(moves, withPublic, SIDES_BY_MARKET)).toHaveLength(0);
  });
});

describe('findLeaders', () => {
  test('when book 2 is first on -4.5 and books 1 and 3 follow 5 and 12 minutes later, then 2 leads with those delays', () => {
    const leaders = findLeaders([price(1, 0, -3.5, -110), price(2, 0, -3.5, -110), price(3, 0, -3.5, -110), price(2, 3, -4.5, -110), price(1, 8, -4.5, -110), price(3, 15, -4.5, -110)]);
    expect(leaders).toEqual([
      expect.objectContaining({ number: -4.5, leaderBookId: 2, at: at(3), followers: [{ bookId: 1, afterSeconds: 300 }, { bookId: 3, afterSeconds: 720 }] }),
    ]);
  });

  test('when a book moves to a number another book is already on, then it leads nothing', () => {
    expect(findLeaders([price(1, 0, -3.5, -110), price(2, 0, -4.5, -110), price(1, 5, -4.5, -110)])).toEqual([]);
  });
});
