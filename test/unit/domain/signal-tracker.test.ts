import { findLeaders, findSteam, GameSignalTracker, priceMoves, scanWindows, type HistoryPrice } from '../../../src/domain';

// The incremental detectors (src/domain/signal-tracker.ts; docs/signals.md, "Incremental at ingest"):
// fed capture by capture, they give what the batch detectors give over everything fed so far. The real
// series are compared in test/integration/signals-incremental.test.ts; here the window rule itself.

const at = (minute: number) => new Date(Date.UTC(2026, 0, 24, 12, minute));
const price = (bookId: number, minute: number, point: number | null, american = -110): HistoryPrice => ({
  gameId: 1,
  bookId,
  marketType: 'spread',
  period: 'full_game',
  side: 'home',
  isLive: false,
  point,
  american,
  seenAt: at(minute),
});

describe('scanWindows settled', () => {
  // Two books move at minute 5, a third at 18: steam from 5 to 18 (findSteam's window is 15 minutes).
  const moves = priceMoves([price(1, 0, -3.5), price(2, 0, -3.5), price(3, 0, -3), price(1, 5, -4.5), price(2, 5, -4), price(3, 18, -4)]);

  // What a capture at `minute` has seen: the moves of minute 5 (two books).
  const seen = moves.filter((m) => m.at <= at(5));
  test.each([
    ['when the capture is 10 minutes after the first move, then its window is open and nothing is settled', 15, 0],
    ['when the capture is 15 minutes after it, then no later move can join: both windows are settled', 20, 2],
  ])('%s', (_name, minute, settled) => {
    expect(scanWindows(seen, 3, 15, at(minute)).settled).toBe(settled);
  });

  test('when a capture at minute 5 has two books, then no steam yet; with the third at 18, the steam findSteam gives over all', () => {
    const tracker = new GameSignalTracker();
    expect(tracker.add([price(1, 0, -3.5), price(2, 0, -3.5), price(3, 0, -3)], at(0)).steam).toEqual([]);
    expect(tracker.add([price(1, 5, -4.5), price(2, 5, -4)], at(5)).steam).toEqual([]);
    const found = tracker.add([price(3, 18, -4)], at(18)).steam;
    expect(found).toEqual(findSteam(moves));
    expect(found).toHaveLength(1);
  });
});

describe('GameSignalTracker leaders', () => {
  test('when a book leads to a number and another follows a capture later, then the event gains the follower in place', () => {
    const tracker = new GameSignalTracker();
    const all = [price(1, 0, -3.5), price(2, 0, -3.5), price(1, 13, -4), price(2, 26, -4)];
    tracker.add(all.slice(0, 2), at(0));
    const led = tracker.add([all[2]!], at(13)).leaders;
    expect([...led].map((e) => e.followers)).toEqual([[]]);
    const followed = tracker.add([all[3]!], at(26)).leaders;
    expect([...followed]).toEqual(findLeaders(all));
    expect([...followed][0]!.followers).toEqual([{ bookId: 2, afterSeconds: 780 }]);
  });

  test('when a price is not later than the last capture, then the tracker refuses it', () => {
    const tracker = new GameSignalTracker();
    tracker.add([price(1, 5, -3.5)], at(5));
    expect(() => tracker.add([price(2, 5, -3.5)], at(6))).toThrow('out of order');
  });
});
