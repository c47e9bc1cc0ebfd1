import { gameTiming, notBettableReason } from '../../../src/domain';

// Which prices can be bet (issue 23; docs/value-metrics.md, "Bettable prices").

const fresh = { isAvailable: true, stale: false };

describe('notBettableReason', () => {
  test('when a pregame price is of a game not started, then it is bettable', () => {
    expect(notBettableReason({ ...fresh, isLive: false, gameStarted: false, gameInPlay: false })).toBeNull();
  });
  test('when a pregame price is of a started game, then it is not (game_started), in play or over', () => {
    expect(notBettableReason({ ...fresh, isLive: false, gameStarted: true, gameInPlay: true })).toBe('game_started');
    expect(notBettableReason({ ...fresh, isLive: false, gameStarted: true, gameInPlay: false })).toBe('game_started');
  });
  test('when a live price is of a game in play, then it is bettable; of a game not in play, it is not', () => {
    expect(notBettableReason({ ...fresh, isLive: true, gameStarted: true, gameInPlay: true })).toBeNull();
    expect(notBettableReason({ ...fresh, isLive: true, gameStarted: true, gameInPlay: false })).toBe('not_in_play');
  });
  test('when the price is unavailable or stale, then it is not, unavailable checked first', () => {
    expect(notBettableReason({ isAvailable: false, stale: true, isLive: false, gameStarted: true, gameInPlay: true })).toBe('unavailable');
    expect(notBettableReason({ isAvailable: true, stale: true, isLive: false, gameStarted: false, gameInPlay: false })).toBe('stale');
  });
});

describe('gameTiming', () => {
  const start = new Date('2026-01-24T17:00:00Z');
  test('when read now, then the status decides: scheduled not started; live in play; final started, not in play', () => {
    expect(gameTiming({ status: 'scheduled', startTime: start })).toEqual({ started: false, inPlay: false });
    expect(gameTiming({ status: 'in_progress', startTime: start })).toEqual({ started: true, inPlay: true });
    expect(gameTiming({ status: 'closed', startTime: start })).toEqual({ started: true, inPlay: false });
  });
  test('when read at an instant, then the start time and a live price by then decide', () => {
    expect(gameTiming({ status: 'closed', startTime: start }, { at: new Date('2026-01-24T16:59:59Z'), hasLivePrice: false })).toEqual({ started: false, inPlay: false });
    expect(gameTiming({ status: 'closed', startTime: start }, { at: start, hasLivePrice: true })).toEqual({ started: true, inPlay: true });
    expect(gameTiming({ status: 'closed', startTime: start }, { at: start, hasLivePrice: false })).toEqual({ started: true, inPlay: false });
  });
});
