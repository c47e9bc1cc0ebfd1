import fc from 'fast-check';
import { findArbitrage } from '../../../src/domain/arbitrage';
import { roundTo } from '../../../src/domain/rounding';
import { americanToDecimal, InvalidOddsError } from '../../../src/domain/odds-format';

describe('findArbitrage', () => {
  test('when the best prices are 2.10 and 2.05, then it is a 3.73% arbitrage staked in proportion to 1/d', () => {
    const arb = findArbitrage([2.1, 2.05]);
    expect(arb).not.toBeNull();
    const total = 1 / 2.1 + 1 / 2.05;
    expect(arb?.total_implied_probability).toBeCloseTo(0.964, 3);
    expect(arb?.total_implied_probability).toBeCloseTo(total, 15);
    expect(arb?.profit_percentage).toBeCloseTo(3.7349, 4);
    expect(arb?.stakes[0]).toBeCloseTo(1 / 2.1 / total, 15);
    expect(arb?.stakes[1]).toBeCloseTo(1 / 2.05 / total, 15);
  });

  test('when a three-way market has an arbitrage, then the stakes equalise the payout', () => {
    const prices = [3.2, 3.6, 3.5];
    const arb = findArbitrage(prices);
    expect(arb).not.toBeNull();
    const payouts = prices.map((d, i) => d * (arb?.stakes[i] ?? 0));
    for (const payout of payouts) expect(payout).toBeCloseTo(1 / (arb?.total_implied_probability ?? 1), 12);
    expect(payouts[0]).toBeCloseTo(1 + (arb?.profit_percentage ?? 0) / 100, 12);
  });

  test.each([
    ['a normal -110/-110 book', [americanToDecimal(-110), americanToDecimal(-110)]],
    ['an exactly fair book (sum 1)', [2, 2]],
    ['a fair three-way book', [2, 4, 4]],
    ['a book with margin', [1.5, 2.6]],
  ])('when the prices are %s, then there is no arbitrage', (_label, prices) => {
    expect(findArbitrage(prices)).toBeNull();
  });

  test.each([
    // sum 0.99999: a real but tiny arbitrage whose profit shows as 0.00 % and total as 1.0000
    ['a profit of 0.001 %, shown as 0.00', [2, 1 / (1 - 0.5 - 0.00001)]],
    ['a profit of 1e-13 %', [2, 2 + 4e-15]],
  ])('when the prices are %s, then the figures shown tell no arbitrage and none is flagged', (_label, prices) => {
    expect(prices.reduce((acc, d) => acc + 1 / d, 0)).toBeLessThan(1);
    expect(findArbitrage(prices)).toBeNull();
  });

  test('when the profit shows as 0.01 %, then it is an arbitrage', () => {
    const arb = findArbitrage([2, 1 / (0.5 - 0.0001)]);
    expect(roundTo(arb!.profit_percentage, 2)).toBe(0.01);
    expect(roundTo(arb!.total_implied_probability, 4)).toBe(0.9999);
  });

  test.each([
    ['a single price', [2.1]],
    ['a price of 1', [1, 2.5]],
    ['a NaN price', [NaN, 2.5]],
  ])('when the input is %s, then it throws InvalidOddsError', (_label, prices) => {
    expect(() => findArbitrage(prices)).toThrow(InvalidOddsError);
  });

  test('when any arbitrage is found, then the stakes sum to 1 and the profit is positive', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 1.01, max: 30, noNaN: true }), { minLength: 2, maxLength: 6 }), (prices) => {
        const arb = findArbitrage(prices);
        const total = prices.reduce((acc, d) => acc + 1 / d, 0);
        const shown = total < 1 && roundTo((1 / total - 1) * 100, 2) > 0 && roundTo(total, 4) < 1;
        if (!shown) return arb === null;
        return (
          arb !== null &&
          Math.abs(arb.stakes.reduce((a, b) => a + b, 0) - 1) <= 1e-12 &&
          arb.profit_percentage > 0 &&
          arb.stakes.every((s) => s > 0 && s < 1)
        );
      }),
    );
  });
});
