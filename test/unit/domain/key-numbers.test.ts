import fc from 'fast-check';
import {
  adjustProbabilityForPoint,
  ADJUSTED_PROBABILITY_FLOOR,
  type League,
  MARGIN_STD_DEV,
  type PointMarket,
  type PointSide,
  pushProbability,
} from '../../../src/domain/key-numbers';
import { erf, normalCdf } from '../../../src/domain/normal';
import { InvalidOddsError } from '../../../src/domain/odds-format';

describe('normal distribution', () => {
  // Reference values: Abramowitz & Stegun tables / any arbitrary-precision erf, rounded to double.
  test.each([
    [0, 0],
    [0.5, 0.5204998778130465],
    [1, 0.8427007929497149],
    [2, 0.9953222650189527],
    [-1, -0.8427007929497149],
    [7, 1],
  ])('when erf is evaluated at %p, then it is %p', (x, expected) => {
    expect(Math.abs(erf(x) - expected)).toBeLessThanOrEqual(1e-15);
  });

  test.each([
    [0, 0.5],
    [1, 0.8413447460685429],
    [-1, 0.15865525393145707],
    [1.96, 0.9750021048517795],
    [3, 0.9986501019683699],
    [-5, 2.866515718791939e-7],
    [-Infinity, 0],
    [Infinity, 1],
  ])('when Phi is evaluated at %p, then it is %p', (z, expected) => {
    expect(Math.abs(normalCdf(z) - expected)).toBeLessThanOrEqual(1e-15);
  });
});

/** Mass of the integer k under a discretised normal, written out independently of the module. */
function mass(k: number, mean: number, sd: number): number {
  return normalCdf((k + 0.5 - mean) / sd) - normalCdf((k - 0.5 - mean) / sd);
}

// The model's standard deviations: the published values pooled with the fit of the stored finals
// (NBA: 9 residuals, sd 9.6253 spread and 12.58 total, against 12 and 18 counting as 100).
const NBA_SPREAD = Math.sqrt((100 * 12 ** 2 + 9 * 9.6253 ** 2) / 109);
const NBA_TOTAL = Math.sqrt((100 * 18 ** 2 + 9 * 12.58 ** 2) / 109);

const base = { league: 'NBA' as League, probability: 0.5 };

describe('adjustProbabilityForPoint direction', () => {
  test.each<[PointMarket, PointSide, number, number, 'up' | 'down']>([
    ['spread', 'home', -5.5, -4.5, 'up'],
    ['spread', 'home', -5.5, -6.5, 'down'],
    ['spread', 'away', 5.5, 6.5, 'up'],
    ['spread', 'away', 5.5, 4.5, 'down'],
    ['spread', 'home', -5.5, -5, 'up'],
    ['total', 'over', 220.5, 219.5, 'up'],
    ['total', 'over', 220.5, 221.5, 'down'],
    ['total', 'under', 220.5, 221.5, 'up'],
    ['total', 'under', 220.5, 219.5, 'down'],
  ])('when a %s %s bet moves from %p to %p, then its probability goes %s', (market, side, fromPoint, toPoint, direction) => {
    const adjusted = adjustProbabilityForPoint({ ...base, market, side, fromPoint, toPoint });
    if (direction === 'up') expect(adjusted).toBeGreaterThan(0.5);
    else expect(adjusted).toBeLessThan(0.5);
  });

  test('when a bet moves to the same point, then its probability is unchanged', () => {
    expect(adjustProbabilityForPoint({ ...base, market: 'spread', side: 'home', fromPoint: -3, toPoint: -3 })).toBe(0.5);
  });

  test('when the point is not on the half-point grid, then the step behaves like the next half point', () => {
    const quarter = adjustProbabilityForPoint({ ...base, market: 'spread', side: 'home', fromPoint: -5.5, toPoint: -5.25 });
    expect(quarter).toBeCloseTo(0.5, 15);
  });

  test('when more points are given to a side, then its probability never falls', () => {
    const halfPoints = fc.integer({ min: -60, max: 60 }).map((n) => n / 2);
    fc.assert(
      fc.property(halfPoints, halfPoints, fc.double({ min: 0.05, max: 0.95, noNaN: true }), (a, b, probability) => {
        const [low, high] = a < b ? [a, b] : [b, a];
        const at = (toPoint: number): number =>
          adjustProbabilityForPoint({ league: 'NBA', market: 'spread', side: 'home', probability, fromPoint: -3.5, toPoint });
        return at(high) >= at(low);
      }),
    );
  });

  test('when a probability is moved to another point and back, then it returns to its original value', () => {
    // Within three points of the line, so that no shift reaches the clamp.
    const halfPoints = fc.integer({ min: 435, max: 447 }).map((n) => n / 2);
    fc.assert(
      fc.property(halfPoints, halfPoints, fc.double({ min: 0.3, max: 0.7, noNaN: true }), (from, to, probability) => {
        const input = { league: 'WNBA' as League, market: 'total' as PointMarket, side: 'over' as PointSide, marketLine: 220.5 };
        const there = adjustProbabilityForPoint({ ...input, probability, fromPoint: from, toPoint: to });
        const back = adjustProbabilityForPoint({ ...input, probability: there, fromPoint: to, toPoint: from });
        return Math.abs(back - probability) <= 1e-12;
      }),
    );
  });
});

describe('adjustProbabilityForPoint size', () => {
  const spread = { ...base, market: 'spread' as PointMarket, side: 'home' as PointSide };

  test('when an NBA spread moves across one whole number at the market line, then it moves about 3.3 points', () => {
    const shift = adjustProbabilityForPoint({ ...spread, fromPoint: -5.5, toPoint: -4.5 }) - 0.5;
    // Expected team margin 5.5; the step crosses margin 5: Phi(0) - Phi(-1/sd).
    expect(shift).toBeCloseTo(mass(5, 5.5, NBA_SPREAD), 15);
    expect(shift).toBeGreaterThan(0.03);
    expect(shift).toBeLessThan(0.035);
  });

  test('when a half-point step lands on a whole number, then it moves half as much as crossing that number', () => {
    const crossing = adjustProbabilityForPoint({ ...spread, fromPoint: -5.5, toPoint: -4.5 }) - 0.5;
    const onto = adjustProbabilityForPoint({ ...spread, fromPoint: -5.5, toPoint: -5 }) - 0.5;
    const off = adjustProbabilityForPoint({ ...spread, fromPoint: -5, toPoint: -4.5, marketLine: -5.5 }) - 0.5;
    expect(crossing).toBeGreaterThan(onto);
    expect(onto).toBeCloseTo(crossing / 2, 15);
    expect(off).toBeCloseTo(crossing / 2, 15);
  });

  test.each<[string, number, number, number]>([
    ['two whole numbers (5 and 4)', -5.5, -3.5, mass(5, 5.5, NBA_SPREAD) + mass(4, 5.5, NBA_SPREAD)],
    ['from a whole number to the next (5 to 4)', -5, -4, (mass(5, 5.5, NBA_SPREAD) + mass(4, 5.5, NBA_SPREAD)) / 2],
    ['far from the line (margins 20 and 19)', -20.5, -18.5, mass(20, 5.5, NBA_SPREAD) + mass(19, 5.5, NBA_SPREAD)],
  ])('when an NBA home spread crosses %s, then the shift is the discretised-normal mass crossed', (_label, fromPoint, toPoint, expected) => {
    const shift = adjustProbabilityForPoint({ ...spread, fromPoint, toPoint, marketLine: -5.5 }) - 0.5;
    expect(shift).toBeCloseTo(expected, 15);
  });

  test.each<[League, PointMarket, PointSide, number, number]>([
    ['NBA', 'spread', 'home', -5.5, NBA_SPREAD],
    ['NBA', 'total', 'over', 220.5, NBA_TOTAL],
    ['WNBA', 'spread', 'away', 3.5, 10.5],
    ['WNBA', 'total', 'under', 160.5, 14],
  ])('when a %s %s (%s) bet gets one more point from the line %p, then the shift is the crossed mass with sd %f', (league, market, side, line, sd) => {
    expect(MARGIN_STD_DEV[league][market]).toBeCloseTo(sd, 4);
    const morePoints = side === 'over' ? line - 1 : line + 1;
    const shift = adjustProbabilityForPoint({ league, market, side, probability: 0.5, fromPoint: line, toPoint: morePoints }) - 0.5;
    // The crossed integer sits half a point from the centre: mass = Phi(0) - Phi(-1/sd).
    expect(shift).toBeCloseTo(0.5 - normalCdf(-1 / sd), 15);
  });

  test('when the same step is taken in the WNBA, then it is worth more than in the NBA (tighter distribution)', () => {
    const step = (league: League): number =>
      adjustProbabilityForPoint({ ...spread, league, fromPoint: -5.5, toPoint: -4.5 });
    expect(step('WNBA')).toBeGreaterThan(step('NBA'));
  });

  test('when the shift would push the probability past 1, then it is clamped inside (0, 1)', () => {
    const adjusted = adjustProbabilityForPoint({ ...spread, probability: 0.99, fromPoint: -5.5, toPoint: 40.5 });
    expect(adjusted).toBe(1 - ADJUSTED_PROBABILITY_FLOOR);
    const low = adjustProbabilityForPoint({ ...spread, probability: 0.01, fromPoint: -5.5, toPoint: -40.5 });
    expect(low).toBe(ADJUSTED_PROBABILITY_FLOOR);
  });
});

describe('adjustProbabilityForPoint validation', () => {
  test.each<[string, Parameters<typeof adjustProbabilityForPoint>[0]]>([
    ['an over side on a spread', { ...base, market: 'spread', side: 'over', fromPoint: -5.5, toPoint: -4.5 }],
    ['a home side on a total', { ...base, market: 'total', side: 'home', fromPoint: 220.5, toPoint: 219.5 }],
    ['a probability of 1', { ...base, probability: 1, market: 'spread', side: 'home', fromPoint: -5.5, toPoint: -4.5 }],
    ['a NaN probability', { ...base, probability: NaN, market: 'spread', side: 'home', fromPoint: -5.5, toPoint: -4.5 }],
    ['a NaN point', { ...base, market: 'spread', side: 'home', fromPoint: NaN, toPoint: -4.5 }],
    ['an infinite market line', { ...base, market: 'spread', side: 'home', fromPoint: -5.5, toPoint: -4.5, marketLine: Infinity }],
  ])('when the input has %s, then it throws InvalidOddsError', (_label, input) => {
    expect(() => adjustProbabilityForPoint(input)).toThrow(InvalidOddsError);
  });
});

describe('pushProbability', () => {
  test.each<[string, League, PointMarket, number, number, number]>([
    ['a half-point spread', 'NBA', 'spread', -5.5, -5.5, 0],
    ['a half-point total', 'NBA', 'total', 220.5, 220.5, 0],
    ['an NBA spread on the line', 'NBA', 'spread', -5, -5, mass(5, 5, NBA_SPREAD)],
    ['the away side of the same spread', 'NBA', 'spread', 5, 5, mass(5, 5, NBA_SPREAD)],
    ['an NBA total on the line', 'NBA', 'total', 220, 220, mass(220, 220, NBA_TOTAL)],
    ['a WNBA spread on the line', 'WNBA', 'spread', -3, -3, mass(3, 3, 10.5)],
    ['a WNBA total half a point off the line', 'WNBA', 'total', 160, 160.5, mass(160, 160.5, 14)],
    ['an NBA spread 10 points off the line', 'NBA', 'spread', -15, -5, mass(15, 5, NBA_SPREAD)],
  ])('when the bet is %s, then the push probability is the integer mass', (_label, league, market, point, marketLine, expected) => {
    expect(pushProbability({ league, market, point, marketLine })).toBeCloseTo(expected, 15);
  });

  test('when an NBA spread sits on the line, then the push chance is about 3.3%', () => {
    const p = pushProbability({ league: 'NBA', market: 'spread', point: -5, marketLine: -5 });
    expect(p).toBeGreaterThan(0.033);
    expect(p).toBeLessThan(0.034);
  });

  test('when the point moves away from the line, then the push chance falls', () => {
    const at = (point: number): number => pushProbability({ league: 'NBA', market: 'spread', point, marketLine: -5 });
    expect(at(-5)).toBeGreaterThan(at(-8));
    expect(at(-8)).toBeGreaterThan(at(-15));
  });

  test('when the point is not finite, then it throws InvalidOddsError', () => {
    expect(() => pushProbability({ league: 'NBA', market: 'total', point: NaN, marketLine: 220 })).toThrow(InvalidOddsError);
  });
});
