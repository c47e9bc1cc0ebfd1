import fc from 'fast-check';
import { averageOddsDecimal, consensusAmericanPrices, consensusProbability, medianLine } from '../../../src/domain/consensus';
import { americanToDecimal, InvalidOddsError } from '../../../src/domain/odds-format';

describe('consensusProbability', () => {
  test.each<[string, number[][], number[]]>([
    ['one book', [[0.6, 0.4]], [0.6, 0.4]],
    ['two books', [[0.6, 0.4], [0.5, 0.5]], [0.55, 0.45]],
    ['three-way books', [[0.5, 0.3, 0.2], [0.4, 0.4, 0.2]], [0.45, 0.35, 0.2]],
    // worst_case rows sum below 1; the mean is renormalised
    ['books that do not sum to 1', [[0.45, 0.45], [0.5, 0.4]], [0.95 / 1.8, 0.85 / 1.8]],
  ])('when the input is %s, then the consensus is the renormalised mean', (_label, books, expected) => {
    const result = consensusProbability(books);
    result.forEach((p, i) => expect(p).toBeCloseTo(expected[i] as number, 15));
  });

  test.each<[string, number[][]]>([
    ['no books', []],
    ['books of different sizes', [[0.5, 0.5], [0.3, 0.3, 0.4]]],
    ['a single outcome', [[1]]],
    ['a probability of 0', [[0, 1]]],
    ['a NaN probability', [[NaN, 0.5]]],
  ])('when the input has %s, then it throws InvalidOddsError', (_label, books) => {
    expect(() => consensusProbability(books)).toThrow(InvalidOddsError);
  });

  test('when any books are combined, then the consensus sums to 1 and lies within the books range', () => {
    const book = fc.array(fc.double({ min: 0.01, max: 0.99, noNaN: true }), { minLength: 3, maxLength: 3 });
    fc.assert(
      fc.property(fc.array(book, { minLength: 1, maxLength: 8 }), (books) => {
        const normalised = books.map((b) => b.map((p) => p / b.reduce((a, c) => a + c, 0)));
        const result = consensusProbability(normalised);
        return (
          Math.abs(result.reduce((a, b) => a + b, 0) - 1) <= 1e-12 &&
          result.every((p, i) => {
            const column = normalised.map((b) => b[i] as number);
            return p >= Math.min(...column) - 1e-12 && p <= Math.max(...column) + 1e-12;
          })
        );
      }),
    );
  });
});

describe('averageOddsDecimal', () => {
  test.each<[string, number[], number]>([
    ['one price', [1.91], 1.91],
    ['2.0 and 4.0 (implied 0.5 and 0.25)', [2, 4], 1 / 0.375],
    ['-110 and +110 (not the American mean 0)', [americanToDecimal(-110), americanToDecimal(110)], 2 / (110 / 210 + 100 / 210)],
  ])('when the prices are %s, then the average is 1/mean(1/d)', (_label, prices, expected) => {
    expect(averageOddsDecimal(prices)).toBeCloseTo(expected, 12);
  });

  test.each([[[]], [[1]], [[NaN]]])('when the prices are %p, then it throws InvalidOddsError', (prices) => {
    expect(() => averageOddsDecimal(prices)).toThrow(InvalidOddsError);
  });
});

describe('medianLine', () => {
  test.each<[number[], number]>([
    [[-5.5], -5.5],
    [[-5.5, -6, -5], -5.5],
    [[220.5, 221, 219.5, 220.5], 220.5],
    [[-5, -5.5], -5.25],
    [[3, 1, 2], 2],
  ])('when the points are %p, then the median is %p', (points, expected) => {
    expect(medianLine(points)).toBe(expected);
  });

  test('when the input is not mutated, then the caller keeps its order', () => {
    const points = [3, 1, 2];
    medianLine(points);
    expect(points).toEqual([3, 1, 2]);
  });

  test.each([[[]], [[NaN]], [[1, Infinity]]])('when the points are %p, then it throws InvalidOddsError', (points) => {
    expect(() => medianLine(points)).toThrow(InvalidOddsError);
  });
});

describe('consensusAmericanPrices', () => {
  test.each<[string, number[], number[], { home: number; away: number }]>([
    ['all books at -110/-110', [-110, -110], [-110, -110], { home: -110, away: -110 }],
    // implied 0.5238 and 0.4762 average to exactly 0.5: even money, where a mean of American numbers gives 0
    ['-110 and +110 on both sides', [-110, 110], [110, -110], { home: 100, away: 100 }],
    ['favourite -150/-130, dog +130/+110', [-150, -130], [130, 110], { home: -140, away: 120 }],
  ])('when the books quote %s, then the consensus American prices follow from the mean implied probability', (_label, home, away, expected) => {
    expect(consensusAmericanPrices({ home: home.map(americanToDecimal), away: away.map(americanToDecimal) })).toEqual(expected);
  });
});
