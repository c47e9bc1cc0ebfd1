import { findMiddle, MARGIN_STD_DEV, normalCdf } from '../../../src/domain';

// Middles (issue 23; docs/signals.md): the window, the stakes, the probability of landing inside and the EV.

describe('findMiddle', () => {
  const sd = MARGIN_STD_DEV.NBA.total;
  const mass = (k: number, mean: number) => normalCdf((k + 0.5 - mean) / sd) - normalCdf((k - 0.5 - mean) / sd);

  test('when over 220.5 and under 223.5 are offered, then totals 221 to 223 win both: window, stakes, probability and EV', () => {
    const m = findMiddle({ league: 'NBA', market: 'total', low: { line: 220.5, decimal: 1.909091 }, high: { line: 223.5, decimal: 1.909091 }, mean: 222 })!;
    const inside = mass(221, 222) + mass(222, 222) + mass(223, 222);
    expect(m.window).toEqual({ low: 220.5, high: 223.5 });
    expect(m.width).toBe(3);
    expect(m.middle_probability).toBeCloseTo(inside, 12);
    expect(m.push_probability).toBe(0);
    expect(m.stakes[0]).toBeCloseTo(0.5, 12);
    // -110 both: R = 1/(2/1.909091) = 0.954545; inside 2R - 1 = +90.91 %, outside R - 1 = -4.55 %.
    expect(m.profit_if_middle).toBeCloseTo(90.9091, 3);
    expect(m.profit_otherwise).toBeCloseTo(-4.5455, 3);
    expect(m.ev_per_100).toBeCloseTo(100 * (inside * 0.909091 + (1 - inside) * -0.0454545), 3);
  });

  test('when a line is a whole number, then landing on it pushes that leg and returns its stake', () => {
    const m = findMiddle({ league: 'NBA', market: 'total', low: { line: 221, decimal: 2 }, high: { line: 223, decimal: 2 }, mean: 222 })!;
    expect(m.width).toBe(1);
    expect(m.middle_probability).toBeCloseTo(mass(222, 222), 12);
    expect(m.push_probability).toBeCloseTo(mass(221, 222) + mass(223, 222), 12);
    // Even money, stakes 0.5: Y = 222 returns 2, Y = 221 or 223 returns 0.5 + 1 = 1.5, elsewhere 1.
    const expected = mass(222, 222) * 1 + (mass(221, 222) + mass(223, 222)) * 0.5;
    expect(m.ev_per_100).toBeCloseTo(100 * expected, 9);
  });

  test('when the lines leave no room (high at or below low), then there is no middle', () => {
    expect(findMiddle({ league: 'NBA', market: 'total', low: { line: 223.5, decimal: 2 }, high: { line: 220.5, decimal: 2 }, mean: 222 })).toBeNull();
    expect(findMiddle({ league: 'NBA', market: 'spread', low: { line: 3.5, decimal: 2 }, high: { line: 3.5, decimal: 2 }, mean: 3 })).toBeNull();
  });

  test('when an input is not a price or a line, then it is refused', () => {
    expect(() => findMiddle({ league: 'NBA', market: 'total', low: { line: NaN, decimal: 2 }, high: { line: 1, decimal: 2 }, mean: 0 })).toThrow('finite');
    expect(() => findMiddle({ league: 'NBA', market: 'total', low: { line: 1, decimal: 0.5 }, high: { line: 3, decimal: 2 }, mean: 0 })).toThrow();
  });
});
