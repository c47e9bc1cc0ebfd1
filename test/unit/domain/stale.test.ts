import {
  CONSENSUS_DEVIATION_THRESHOLD,
  FROZEN_BOOK_AFTER_MS,
  isBookFrozen,
  isStale,
  staleReason,
  type BookMovementInput,
  LIVE_STALE_AFTER_MS,
  PREGAME_STALE_AFTER_MS,
  type StalenessInput,
} from '../../../src/domain/stale';

const now = new Date('2025-01-15T00:00:00.000Z');
const ago = (ms: number): Date => new Date(now.getTime() - ms);
const fresh: StalenessInput = { seenAt: now, now, isLive: false, probability: 0.5, consensusProbability: 0.5 };

describe('isStale', () => {
  test('when the thresholds are read, then they are 15 minutes, 60 seconds and 0.08', () => {
    expect(PREGAME_STALE_AFTER_MS).toBe(900_000);
    expect(LIVE_STALE_AFTER_MS).toBe(60_000);
    expect(CONSENSUS_DEVIATION_THRESHOLD).toBe(0.08);
  });

  test.each<[string, Partial<StalenessInput>, boolean]>([
    ['a pregame quote seen just now', {}, false],
    ['a pregame quote seen 14 minutes ago', { seenAt: ago(14 * 60_000) }, false],
    ['a pregame quote seen exactly 15 minutes ago', { seenAt: ago(15 * 60_000) }, false],
    ['a pregame quote seen 15 minutes and 1 ms ago', { seenAt: ago(15 * 60_000 + 1) }, true],
    ['a live quote seen 59 seconds ago', { isLive: true, seenAt: ago(59_000) }, false],
    ['a live quote seen exactly 60 seconds ago', { isLive: true, seenAt: ago(60_000) }, false],
    ['a live quote seen 61 seconds ago', { isLive: true, seenAt: ago(61_000) }, true],
    ['a live quote seen 5 minutes ago', { isLive: true, seenAt: ago(5 * 60_000) }, true],
    ['a quote seen in the future (clock skew)', { seenAt: ago(-5_000) }, false],
    ['an invalid seenAt', { seenAt: new Date(NaN) }, true],
    ['a probability 0.08 above consensus', { probability: 0.58, consensusProbability: 0.5 }, false],
    ['a probability 0.08 below consensus', { probability: 0.42, consensusProbability: 0.5 }, false],
    ['a probability 0.081 above consensus', { probability: 0.581, consensusProbability: 0.5 }, true],
    ['a probability 0.1 below consensus', { probability: 0.4, consensusProbability: 0.5 }, true],
    ['no consensus', { probability: 0.9, consensusProbability: null }, false],
    ['an undefined consensus', { probability: 0.9, consensusProbability: undefined }, false],
    ['a NaN consensus', { probability: 0.9, consensusProbability: NaN }, false],
    ['a fresh live quote far from consensus', { isLive: true, seenAt: ago(1_000), probability: 0.7, consensusProbability: 0.5 }, true],
  ])('when it is %s, then stale is %p', (_label, overrides, expected) => {
    expect(isStale({ ...fresh, ...overrides })).toBe(expected);
  });
});

describe('staleReason', () => {
  test.each<[string, Partial<StalenessInput> & { bookFrozen?: boolean }, string | null]>([
    ['a fresh quote', {}, null],
    ['a live quote not confirmed for 61 s', { isLive: true, seenAt: ago(61_000) }, 'not_confirmed'],
    ['a quote 0.1 off the consensus', { probability: 0.6, consensusProbability: 0.5 }, 'off_market'],
    ['a quote of a frozen book', { bookFrozen: true }, 'book_frozen'],
    ['an old quote of a frozen book, far off the consensus (age first)', { seenAt: ago(16 * 60_000), probability: 0.7, consensusProbability: 0.5, bookFrozen: true }, 'not_confirmed'],
    ['a confirmed quote of a frozen book, far off the consensus (distance next)', { probability: 0.7, consensusProbability: 0.5, bookFrozen: true }, 'off_market'],
  ])('when it is %s, then the reason is %p and isStale agrees when the book is not frozen', (_label, overrides, expected) => {
    expect(staleReason({ ...fresh, ...overrides })).toBe(expected);
    if (!overrides.bookFrozen) expect(isStale({ ...fresh, ...overrides })).toBe(expected !== null);
  });
});

describe('isBookFrozen', () => {
  const move = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
  test('when the threshold is read, then it is 5 minutes', () => {
    expect(FROZEN_BOOK_AFTER_MS).toBe(300_000);
  });
  test.each<[string, BookMovementInput, boolean]>([
    ['the others moved 8 minutes after the book, in play', { gameLive: true, bookLastMove: move(0), othersLastMove: move(8) }, true],
    ['the others moved exactly 5 minutes after the book', { gameLive: true, bookLastMove: move(0), othersLastMove: move(5) }, false],
    ['the others moved 5 minutes and 1 ms after the book', { gameLive: true, bookLastMove: move(0), othersLastMove: new Date(move(5).getTime() + 1) }, true],
    ['the others moved 3 minutes after the book', { gameLive: true, bookLastMove: move(0), othersLastMove: move(3) }, false],
    ['the book moved last', { gameLive: true, bookLastMove: move(8), othersLastMove: move(0) }, false],
    ['no other book quotes the market', { gameLive: true, bookLastMove: move(0), othersLastMove: null }, false],
    ['the game is not being played', { gameLive: false, bookLastMove: move(0), othersLastMove: move(60) }, false],
  ])('when %s, then frozen is %p', (_label, input, expected) => {
    expect(isBookFrozen(input)).toBe(expected);
  });
});
