import { fractionalToDecimal, InvalidOddsError, kellyStake } from '../../../src/domain';

// Kelly (1956): f* = (p*d - 1) / (d - 1), the edge over the net odds. Published examples: a 60% coin
// at even money (d = 2) stakes 20% of the bankroll; p = 0.55 at +100, 10%; at -110 (d = 1.90909...)
// a 55% bet stakes (0.55 * 1.90909 - 1) / 0.90909 = 5.5%.
describe('kellyStake', () => {
  test.each([
    [0.6, 2, 1, 0.2, 0.2, 20],
    [0.55, 2, 1, 0.1, 0.1, 10],
    [0.55, 1 + 100 / 110, 1, 0.055, 0.055, 5],
    [0.55, 2, 0.5, 0.1, 0.05, 10],
    [0.25, 5, 1, 0.0625, 0.0625, 25],
  ])('when p is %p at decimal %p with fraction %p, then full Kelly is %p and the stake %p (edge %p%)', (p, d, fraction, full, stake, edge) => {
    const k = kellyStake(p, d, fraction);
    expect(k.full_kelly).toBeCloseTo(full, 12);
    expect(k.stake_fraction).toBeCloseTo(stake, 12);
    expect(k.edge_percentage).toBeCloseTo(edge, 10);
  });

  test('when the bet has no edge, then full Kelly is negative (or zero) and the stake is 0', () => {
    expect(kellyStake(0.4, 2)).toMatchObject({ stake_fraction: 0 });
    expect(kellyStake(0.4, 2).full_kelly).toBeCloseTo(-0.2, 12);
    expect(kellyStake(0.5, 2).stake_fraction).toBe(0);
  });

  test.each([
    [0, 2, 1],
    [1, 2, 1],
    [0.5, 1, 1],
    [0.5, NaN, 1],
    [0.5, 2, 0],
    [0.5, 2, 1.5],
  ])('when p %p, decimal %p or fraction %p cannot describe a bet, then it throws', (p, d, fraction) => {
    expect(() => kellyStake(p, d, fraction)).toThrow();
  });
});

describe('fractionalToDecimal', () => {
  test.each([
    ['10/11', 1 + 10 / 11],
    ['3/2', 2.5],
    ['1/1', 2],
    ['evens', 2],
    [' 100 / 30 ', 1 + 100 / 30],
    ['1/5', 1.2],
  ])('when the fraction is %p, then the decimal price is %p', (fraction, decimal) => {
    expect(fractionalToDecimal(fraction)).toBeCloseTo(decimal, 12);
  });

  test.each([['0/1'], ['1/0'], ['-1/2'], ['1.5/2'], ['ten to one'], ['']])('when the text is %p, then it throws InvalidOddsError naming it', (text) => {
    expect(() => fractionalToDecimal(text)).toThrow(InvalidOddsError);
    expect(() => fractionalToDecimal(text)).toThrow(JSON.stringify(text));
  });
});
