import fc from 'fast-check';
import { valueMetrics } from '../../../src/domain/ev';
import { americanToDecimal, InvalidOddsError } from '../../../src/domain/odds-format';
import { roundTo } from '../../../src/domain/rounding';

describe('valueMetrics', () => {
  test.each<[string, number, number, number, boolean]>([
    // label, decimal, true probability, expected ev_per_100, profitable
    ['a coin flip at +110', 2.1, 0.5, 5, true],
    ['a coin flip at -110', americanToDecimal(-110), 0.5, 100 * (0.5 * (100 / 110) - 0.5), false],
    ['a 55% side at -110', americanToDecimal(-110), 0.55, 100 * (0.55 * 21 / 11 - 1), true],
    ['a 40% side at +150 (exactly break-even)', 2.5, 0.4, 0, false],
    ['a 25% longshot at +400', 5, 0.25, 25, true],
  ])('when the bet is %s, then ev_per_100, edge and profitable follow', (_label, decimal, p, ev, profitable) => {
    const m = valueMetrics({ decimalOdds: decimal, trueProbability: p, stale: false, arbitrage: false });
    expect(m.ev_per_100).toBeCloseTo(ev, 12);
    expect(m.edge_percentage).toBeCloseTo(ev, 12);
    expect(m.profitable).toBe(profitable);
  });

  test('when metrics are computed, then every key is present and nothing is rounded', () => {
    const m = valueMetrics({ decimalOdds: 1.95, trueProbability: 0.52, stale: true, arbitrage: true });
    expect(m).toEqual({
      decimal_odds: 1.95,
      implied_probability: 1 / 1.95,
      true_probability: 0.52,
      break_even_probability: 1 / 1.95,
      edge_percentage: expect.closeTo((0.52 * 1.95 - 1) * 100, 12),
      ev_per_100: expect.closeTo(100 * (0.52 * 0.95 - 0.48), 12),
      profitable: true,
      stale: true,
      arbitrage: true,
    });
  });

  test('when the ev_per_100 shown (2 decimals) is above 0, then the bet is profitable (and only then)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1.01, max: 50, noNaN: true }),
        fc.double({ min: 0.001, max: 0.999, noNaN: true }),
        (d, p) => {
          const m = valueMetrics({ decimalOdds: d, trueProbability: p, stale: false, arbitrage: false });
          const clearlyBelow = p < m.break_even_probability * (1 - 1e-9);
          return m.profitable === roundTo(m.ev_per_100, 2) > 0 && (!clearlyBelow || !m.profitable) &&
            Math.abs(m.edge_percentage - m.ev_per_100) <= 1e-9;
        },
      ),
    );
  });

  test.each<[string, number, number, boolean]>([
    // 0.5006 at 1.99781: ev_per_100 = 0.0104, shown as 0.01
    ['a true probability a hair above break-even, shown as ev 0.01', 1.99781, 0.5006, true],
    // a positive float epsilon (ev 0.004) is shown as 0.00: not profitable
    ['an edge of 0.004 per 100', 2, 0.50002, false],
    ['an edge of 1e-12 per 100', 2, 0.5 + 5e-15, false],
  ])('when the bet is %s, then profitable follows the ev_per_100 shown', (_label, d, p, profitable) => {
    const m = valueMetrics({ decimalOdds: d, trueProbability: p, stale: false, arbitrage: false });
    expect(m.ev_per_100).toBeGreaterThan(0);
    expect({ shown: roundTo(m.ev_per_100, 2) > 0, profitable: m.profitable }).toEqual({ shown: profitable, profitable });
  });

  test.each<[string, number, number]>([
    ['a decimal price of 1', 1, 0.5],
    ['a NaN price', NaN, 0.5],
    ['a probability of 0', 2, 0],
    ['a probability of 1', 2, 1],
    ['a probability above 1', 2, 1.5],
  ])('when the input has %s, then it throws InvalidOddsError', (_label, d, p) => {
    expect(() => valueMetrics({ decimalOdds: d, trueProbability: p, stale: false, arbitrage: false })).toThrow(InvalidOddsError);
  });
});

describe('roundTo', () => {
  test.each([
    [1.005, 2, 1.01],
    [2.675, 2, 2.68],
    [-2.5, 0, -3],
    [2.5, 0, 3],
    [0.1 + 0.2, 2, 0.3],
    [3.14159, 3, 3.142],
    [-1.005, 2, -1.01],
    [1e-7, 8, 1e-7],
    [1.23e-7, 8, 1.2e-7],
    [123456.789, 0, 123457],
    [0, 4, 0],
  ])('when %p is rounded to %p digits, then it is %p', (x, digits, expected) => {
    expect(roundTo(x, digits)).toBe(expected);
  });

  test.each([[NaN], [Infinity], [-Infinity]])('when the value is %p, then it is returned unchanged', (x) => {
    expect(roundTo(x, 2)).toBe(x);
  });

  test.each([[-1], [1.5], [16]])('when digits is %p, then it throws RangeError', (digits) => {
    expect(() => roundTo(1, digits)).toThrow(RangeError);
  });
});
