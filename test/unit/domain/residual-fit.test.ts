import {
  fitResidualStdDev,
  fitStdDevTable,
  MARGIN_STD_DEV,
  PRIOR_WEIGHT,
  PUBLISHED_STD_DEV,
  shrinkStdDev,
  spreadResidual,
  totalResidual,
} from '../../../src/domain';
import { FITTED_STD_DEV } from '../../../src/domain/std-dev-fit';

describe('residuals', () => {
  test.each([
    // home, away, home handicap, residual
    [110, 100, -5.5, 4.5], // home favoured by 5.5 won by 10: covered by 4.5
    [100, 110, -5.5, -15.5],
    [100, 103, 3, 0], // home +3 lost by 3: a push, residual 0
    [98, 96, 2.5, 4.5], // home underdog won
  ])('when home %i, away %i and the home handicap %p, then the spread residual is %p', (home, away, handicap, residual) => {
    expect(spreadResidual(home, away, handicap)).toBe(residual);
  });

  test.each([
    [110, 100, 215.5, -5.5],
    [120, 110, 220.5, 9.5],
    [100, 100, 200, 0],
  ])('when home %i, away %i and the total %p, then the total residual is %p', (home, away, total, residual) => {
    expect(totalResidual(home, away, total)).toBe(residual);
  });
});

describe('fitResidualStdDev', () => {
  test('when the residuals are 3, -3, 4, -4, then sd = sqrt(12.5), mean 0 and se = sd / sqrt(8)', () => {
    const fit = fitResidualStdDev([3, -3, 4, -4]);
    expect(fit).toEqual({ n: 4, mean: 0, sd: Math.sqrt(12.5), standardError: Math.sqrt(12.5) / Math.sqrt(8) });
  });

  test('when every residual is the same non-zero value, then sd is that value around the line (a bias counts), not 0', () => {
    const fit = fitResidualStdDev([5, 5, 5]);
    expect(fit.mean).toBe(5);
    expect(fit.sd).toBe(5);
  });

  test('when the residuals are 1..10, then sd = sqrt(38.5) (sum of squares 385 over 10)', () => {
    expect(fitResidualStdDev([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]).sd).toBeCloseTo(Math.sqrt(38.5), 12);
  });

  test('when there are no residuals or one is not finite, then it throws', () => {
    expect(() => fitResidualStdDev([])).toThrow(RangeError);
    expect(() => fitResidualStdDev([1, Number.NaN])).toThrow(/finite/);
    expect(() => fitResidualStdDev([Number.POSITIVE_INFINITY])).toThrow(/finite/);
  });
});

describe('fitStdDevTable', () => {
  test('when games of two leagues are given, then each league and market is fitted on its own residuals; a missing closing line skips only that market', () => {
    const table = fitStdDevTable([
      { league: 'NBA', homeScore: 110, awayScore: 100, closingSpread: -7, closingTotal: 206 }, // spread +3, total +4
      { league: 'NBA', homeScore: 100, awayScore: 110, closingSpread: 13, closingTotal: 214 }, // spread +3, total -4
      { league: 'NBA', homeScore: 90, awayScore: 95, closingSpread: null, closingTotal: 188 }, // total -3
      { league: 'WNBA', homeScore: 80, awayScore: 70, closingSpread: -6, closingTotal: null }, // spread +4
    ]);
    expect(table.NBA?.spread).toEqual({ n: 2, mean: 3, sd: 3, standardError: 3 / 2 });
    expect(table.NBA?.total?.n).toBe(3);
    expect(table.NBA?.total?.sd).toBeCloseTo(Math.sqrt((16 + 16 + 9) / 3), 12);
    expect(table.WNBA).toEqual({ spread: { n: 1, mean: 4, sd: 4, standardError: 4 / Math.sqrt(2) } });
  });

  test('when no game is given, then the table is empty', () => {
    expect(fitStdDevTable([])).toEqual({});
  });
});

describe('shrinkStdDev', () => {
  test('when there is no fit or an empty one, then the published value is used unchanged', () => {
    expect(shrinkStdDev(12, null)).toBe(12);
    expect(shrinkStdDev(12, undefined)).toBe(12);
    expect(shrinkStdDev(12, { n: 0, sd: 0 })).toBe(12);
  });

  test('when the fit has as many residuals as the prior weight, then the two variances count equally', () => {
    expect(shrinkStdDev(12, { n: PRIOR_WEIGHT, sd: 9 })).toBeCloseTo(Math.sqrt((144 + 81) / 2), 12);
  });

  test('when the fit has a small sample, then the published value keeps most of the weight', () => {
    const n = 9;
    expect(shrinkStdDev(12, { n, sd: 9 })).toBeCloseTo(Math.sqrt((PRIOR_WEIGHT * 144 + n * 81) / (PRIOR_WEIGHT + n)), 12);
  });

  test('when the sample grows, then the value moves monotonically from the published value to the fit', () => {
    let previous = 12;
    for (const n of [1, 9, 30, 100, 1_000, 100_000]) {
      const v = shrinkStdDev(12, { n, sd: 9 });
      expect(v).toBeLessThan(previous);
      expect(v).toBeGreaterThan(9);
      previous = v;
    }
    expect(previous).toBeCloseTo(9, 2);
  });
});

describe('MARGIN_STD_DEV, the values the model uses', () => {
  test('when read, then each is the published value combined with the committed fit (the one place the values come from)', () => {
    for (const league of ['NBA', 'WNBA'] as const) {
      for (const market of ['spread', 'total'] as const) {
        expect(MARGIN_STD_DEV[league][market]).toBe(shrinkStdDev(PUBLISHED_STD_DEV[league][market], FITTED_STD_DEV.fits[league]?.[market]));
      }
    }
    // The NBA values today: 9 stored finals move them a little from 12 and 18; no WNBA final yet.
    expect(MARGIN_STD_DEV.NBA.spread).toBeCloseTo(11.822, 3);
    expect(MARGIN_STD_DEV.NBA.total).toBeCloseTo(17.6158, 3);
    expect(MARGIN_STD_DEV.WNBA).toEqual(PUBLISHED_STD_DEV.WNBA);
  });

  test('when the committed fit is read, then its sample is documented and consistent with its fits', () => {
    const { sample, fits } = FITTED_STD_DEV;
    expect(sample.withClosingLine).toBeLessThanOrEqual(sample.finals);
    expect(Date.parse(sample.from)).toBeLessThanOrEqual(Date.parse(sample.to));
    for (const byMarket of Object.values(fits)) {
      for (const fit of Object.values(byMarket ?? {})) {
        expect(fit.n).toBeLessThanOrEqual(sample.withClosingLine);
        expect(fit.standardError).toBeCloseTo(fit.sd / Math.sqrt(2 * fit.n), 3);
      }
    }
  });
});
