import { coverProbability } from '../../../src/domain/book-pricing';
import { PUBLISHED_STD_DEV } from '../../../src/domain/key-numbers';
import { liveMarginDistribution, liveWinProbability } from '../../../src/domain/win-probability';

// Stern (1994): P(home wins) = Phi((lead + r * mu) / (sigma * sqrt(r))). The expected figures are the
// standard normal table's Phi(0.5) = 0.6915, Phi(1) = 0.8413, Phi(2) = 0.9772, reached by choosing the
// state so that the z of the formula is a round number.

const SIGMA = PUBLISHED_STD_DEV.NBA.spread; // 12 points over a whole game

describe('liveWinProbability (Stern 1994)', () => {
  test.each([
    ['a 6-point lead at tip between even teams', { lead: 6, timeLeft: 1, pregameMargin: 0 }, 0.6915],
    ['a 3-point lead with a quarter left between even teams (the same z as 6 at tip)', { lead: 3, timeLeft: 0.25, pregameMargin: 0 }, 0.6915],
    ['a 12-point favourite at tip', { lead: 0, timeLeft: 1, pregameMargin: 12 }, 0.8413],
    ['a 12-point lead with a quarter left between even teams', { lead: 12, timeLeft: 0.25, pregameMargin: 0 }, 0.9772],
    ['a 12-point favourite down 3 with a quarter left (its drift makes it even)', { lead: -3, timeLeft: 0.25, pregameMargin: 12 }, 0.5],
    ['a 12-point underdog leading by 6 with a quarter left (its deficit in drift halves the lead)', { lead: 6, timeLeft: 0.25, pregameMargin: -12 }, 0.6915],
  ])('when %s, then the home win probability is the table value', (_what, state, expected) => {
    expect(liveWinProbability({ ...state, sd: SIGMA })).toBeCloseTo(expected, 4);
  });

  test('when the game is at tip, then it is the pregame cover probability of the margin at a line of 0', () => {
    for (const mu of [-9.5, -3, 0, 2.5, 7]) {
      expect(liveWinProbability({ lead: 0, timeLeft: 1, pregameMargin: mu, sd: SIGMA })).toBeCloseTo(coverProbability(mu, SIGMA, 0, false), 12);
    }
  });

  test('when no time is left, then a lead wins, a deficit loses and a tie is a coin flip (overtime)', () => {
    expect(liveWinProbability({ lead: 1, timeLeft: 0, pregameMargin: -10, sd: SIGMA })).toBe(1);
    expect(liveWinProbability({ lead: -1, timeLeft: 0, pregameMargin: 10, sd: SIGMA })).toBe(0);
    expect(liveWinProbability({ lead: 0, timeLeft: 0, pregameMargin: 10, sd: SIGMA })).toBe(0.5);
  });

  test('when the same lead is held longer, then it is worth more; and the sides add up to one', () => {
    let previous = 0;
    for (const timeLeft of [1, 0.75, 0.5, 0.25, 0.1, 0.02]) {
      const p = liveWinProbability({ lead: 5, timeLeft, pregameMargin: 0, sd: SIGMA });
      expect(p).toBeGreaterThan(previous);
      expect(p + liveWinProbability({ lead: -5, timeLeft, pregameMargin: 0, sd: SIGMA })).toBeCloseTo(1, 12);
      previous = p;
    }
  });

  test('when the time left is outside 0..1, then it is held to the game', () => {
    expect(liveMarginDistribution({ lead: 2, timeLeft: 1.5, pregameMargin: 4, sd: SIGMA })).toEqual({ mean: 6, sd: SIGMA });
    expect(liveMarginDistribution({ lead: 2, timeLeft: -0.1, pregameMargin: 4, sd: SIGMA })).toEqual({ mean: 2, sd: 0 });
  });
});
