import fc from 'fast-check';
import {
  americanToDecimal,
  americanToImpliedProbability,
  decimalToAmerican,
  decimalToFractional,
  formatAmerican,
  impliedProbability,
  InvalidOddsError,
  probabilityToDecimal,
} from '../../../src/domain/odds-format';

describe('americanToDecimal', () => {
  test.each([
    [-110, 1 + 100 / 110],
    [150, 2.5],
    [100, 2],
    [-100, 2],
    [-200, 1.5],
    [1000, 11],
    [-10000, 1.01],
  ])('when the American price is %p, then the decimal price is %p', (american, decimal) => {
    expect(americanToDecimal(american)).toBeCloseTo(decimal, 12);
  });

  test.each([[0], [50], [-99.99], [99], [NaN], [Infinity], [-Infinity]])(
    'when the American price is %p, then it throws InvalidOddsError naming the value',
    (american) => {
      expect(() => americanToDecimal(american)).toThrow(InvalidOddsError);
      expect(() => americanToDecimal(american)).toThrow(String(american));
    },
  );
});

describe('decimalToAmerican', () => {
  test.each([
    [1.909, -110],
    [1 + 100 / 110, -110],
    [2.5, 150],
    [2, 100],
    [1.5, -200],
    [3.1, 210],
    [1.01, -10000],
    [1.999, 100],
  ])('when the decimal price is %p, then the American price is %p', (decimal, american) => {
    expect(decimalToAmerican(decimal)).toBe(american);
  });

  test.each([[1], [0.5], [0], [-2], [NaN], [Infinity]])(
    'when the decimal price is %p, then it throws InvalidOddsError',
    (decimal) => {
      expect(() => decimalToAmerican(decimal)).toThrow(InvalidOddsError);
    },
  );

  test('when any whole American price is converted to decimal and back, then it is unchanged', () => {
    const american = fc.oneof(fc.integer({ min: -100000, max: -100 }), fc.integer({ min: 100, max: 100000 }));
    fc.assert(
      fc.property(american, (a) => {
        const back = decimalToAmerican(americanToDecimal(a));
        // -100 and +100 are the same price; the canonical form is +100.
        expect(back).toBe(a === -100 ? 100 : a);
      }),
    );
  });
});

describe('formatAmerican', () => {
  test.each([
    [-110, '-110'],
    [150, '+150'],
    [100, '+100'],
    [-100, '-100'],
  ])('when the American price is %p, then it is shown as %p', (american, text) => {
    expect(formatAmerican(american)).toBe(text);
  });

  test('when the value is not an American price, then it throws InvalidOddsError', () => {
    expect(() => formatAmerican(20)).toThrow(InvalidOddsError);
  });
});

describe('decimalToFractional', () => {
  test.each([
    [1.909, '10/11'],
    [americanToDecimal(-110), '10/11'],
    [2.5, '3/2'],
    [2, '1/1'],
    [1.5, '1/2'],
    [3, '2/1'],
    [11, '10/1'],
    [1 + 1 / 3, '1/3'],
    [4.333, '10/3'],
    [americanToDecimal(-150), '2/3'],
    [americanToDecimal(-120), '5/6'],
    [americanToDecimal(175), '7/4'],
    [1.001, '1/1000'],
  ])('when the decimal price is %p, then the fraction is %p', (decimal, fraction) => {
    expect(decimalToFractional(decimal)).toBe(fraction);
  });

  test('when the decimal price is 1, then it throws InvalidOddsError', () => {
    expect(() => decimalToFractional(1)).toThrow(InvalidOddsError);
  });

  test('when any decimal price is converted, then the fraction is reduced and close to d - 1', () => {
    fc.assert(
      fc.property(fc.double({ min: 1.01, max: 100, noNaN: true }), (d) => {
        const [num, den] = decimalToFractional(d).split('/').map(Number) as [number, number];
        expect(Number.isInteger(num) && Number.isInteger(den) && den > 0).toBe(true);
        let [a, b] = [num, den];
        while (b !== 0) [a, b] = [b, a % b];
        expect(a).toBe(1);
        expect(Math.abs(num / den - (d - 1))).toBeLessThanOrEqual(1 / den / 2 + 1e-12);
      }),
    );
  });
});

describe('implied probabilities', () => {
  test.each([
    [2, 0.5],
    [4, 0.25],
    [1.25, 0.8],
  ])('when the decimal price is %p, then the implied probability is %p', (decimal, p) => {
    expect(impliedProbability(decimal)).toBeCloseTo(p, 15);
  });

  test.each([
    [-110, 110 / 210],
    [150, 0.4],
    [100, 0.5],
    [-300, 0.75],
  ])('when the American price is %p, then the implied probability is %p', (american, p) => {
    expect(americanToImpliedProbability(american)).toBeCloseTo(p, 15);
  });

  test.each([
    [0.5, 2],
    [0.25, 4],
    [0.8, 1.25],
  ])('when the probability is %p, then the fair decimal price is %p', (p, decimal) => {
    expect(probabilityToDecimal(p)).toBeCloseTo(decimal, 12);
  });

  test.each([[0], [1], [-0.1], [1.2], [NaN], [Infinity]])(
    'when the probability is %p, then probabilityToDecimal throws InvalidOddsError',
    (p) => {
      expect(() => probabilityToDecimal(p)).toThrow(InvalidOddsError);
    },
  );

  test.each([[1], [0.9], [NaN]])('when the decimal price is %p, then impliedProbability throws', (d) => {
    expect(() => impliedProbability(d)).toThrow(InvalidOddsError);
  });

  test.each([[99], [-99], [NaN]])('when the American price is %p, then americanToImpliedProbability throws', (a) => {
    expect(() => americanToImpliedProbability(a)).toThrow(InvalidOddsError);
  });

  test('when a probability is converted to a fair price and back, then it is unchanged', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1 - 1e-6, noNaN: true }), (p) => {
        expect(impliedProbability(probabilityToDecimal(p))).toBeCloseTo(p, 12);
      }),
    );
  });
});
