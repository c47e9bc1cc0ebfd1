import fc from 'fast-check';
import {
  DEFAULT_DEVIG_METHOD,
  devig,
  DEVIG_METHODS,
  type DevigMethod,
  isDevigMethod,
  MIN_DEVIG_PROBABILITY,
  overround,
  shinInsiderShare,
} from '../../../src/domain/devig';
import { americanToDecimal, InvalidOddsError } from '../../../src/domain/odds-format';

const DISTRIBUTION_METHODS = DEVIG_METHODS.filter((m) => m !== 'worst_case');

function expectClose(actual: number[], expected: number[], tolerance: number): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((value, i) => expect(Math.abs(value - (expected[i] as number))).toBeLessThanOrEqual(tolerance));
}

/** Newton's method on f(x) = sum(g(x, pi_i)) - 1, an independent check of the library's bisection. */
function newton(implied: number[], g: (x: number, p: number) => number, dg: (x: number, p: number) => number): number {
  let x = 1;
  for (let i = 0; i < 100; i++) {
    const f = implied.reduce((acc, p) => acc + g(x, p), 0) - 1;
    const df = implied.reduce((acc, p) => acc + dg(x, p), 0);
    x -= f / df;
  }
  return x;
}

describe('devig reference values', () => {
  // penaltyblog (Martin Eastwood) docs/implied/implied.rst and test/test_implied.py, odds [2.7, 2.3, 4.4].
  // penaltyblog's own tests compare to 4 decimal places; the tolerances below are as tight as each
  // published figure allows.
  const PENALTYBLOG_ODDS = [2.7, 2.3, 4.4];
  test.each<[DevigMethod, number[], number]>([
    ['multiplicative', [0.35873803615739097, 0.4211272598369373, 0.22013470400567173], 1e-12],
    ['additive', [0.3595618, 0.423974, 0.2164642], 5e-7],
    ['shin', [0.35934391959159157, 0.42324384818283234, 0.21741223222458853], 1e-9],
    ['odds_ratio', [0.3588103, 0.4225611, 0.2186286], 1e-6],
    // penaltyblog's power solver stops early (its figures differ from the exact root by ~2e-6); the
    // exact root is pinned against Newton's method below.
    ['power', [0.3591708, 0.4237291, 0.2171001], 1e-5],
  ])('when penaltyblog odds [2.7, 2.3, 4.4] are de-vigged by %s, then they match its published values', (method, expected, tolerance) => {
    expectClose(devig(PENALTYBLOG_ODDS, method), expected, tolerance);
  });

  test('when odds [2.6, 2.4, 4.3] are de-vigged by shin, then they match the `shin` Python package README', () => {
    expectClose(devig([2.6, 2.4, 4.3], 'shin'), [0.37299406033208965, 0.4047794109200184, 0.2222265287474275], 1e-9);
  });

  test.each([
    [[2.6, 2.4, 4.3], 0.01694251276407055, 1e-9], // `shin` Python package README (delta 1e-12)
    [[2.7, 2.3, 4.4], 0.0162, 5e-5], // penaltyblog docs, printed to 4 decimals
  ])('when the odds are %p, then Shin z is %p', (odds, z, tolerance) => {
    expect(Math.abs(shinInsiderShare(odds) - z)).toBeLessThanOrEqual(tolerance);
  });

  test.each([
    [[2.7, 2.3, 4.4]],
    [[4.2, 3.7, 1.95]], // R package `implied` (opisthokonta), tests/testthat/test_1.R example odds
    [[1.19, 7.0, 14.0]],
    [[1.91, 1.91]],
    [[1.4, 3.1]],
  ])('when %p is de-vigged by power, then it equals pi^k with k from Newton on sum(pi^k) = 1', (odds) => {
    const implied = odds.map((d) => 1 / d);
    const k = newton(implied, (x, p) => p ** x, (x, p) => p ** x * Math.log(p));
    expectClose(devig(odds, 'power'), implied.map((p) => p ** k), 1e-12);
  });

  test.each([[[2.7, 2.3, 4.4]], [[4.2, 3.7, 1.95]], [[1.19, 7.0, 14.0]], [[1.4, 3.1]]])(
    'when %p is de-vigged by odds_ratio, then it equals pi/(c + pi - c*pi) with c from Newton',
    (odds) => {
      const implied = odds.map((d) => 1 / d);
      const c = newton(implied, (x, p) => p / (x + p - x * p), (x, p) => -(p * (1 - p)) / (x + p - x * p) ** 2);
      expectClose(devig(odds, 'odds_ratio'), implied.map((p) => p / (c + p - c * p)), 1e-12);
    },
  );

  test.each([[[1.91, 1.91]], [[1.4, 3.1]], [[1.1, 7.5]], [[americanToDecimal(-250), americanToDecimal(205)]]])(
    'when the two-way market %p is de-vigged by shin, then it equals additive (Clarke, Kovalchik & Ingram 2017)',
    (odds) => {
      expectClose(devig(odds, 'shin'), devig(odds, 'additive'), 1e-12);
    },
  );

  test('when -110/-110 is de-vigged by any method, then each side is 0.5 (and worst_case too)', () => {
    const odds = [americanToDecimal(-110), americanToDecimal(-110)];
    for (const method of DEVIG_METHODS) expectClose(devig(odds, method), [0.5, 0.5], 1e-12);
  });

  test('when the two-way market is -200/+170, then multiplicative gives pi/S', () => {
    const implied = [200 / 300, 100 / 270];
    const total = implied[0]! + implied[1]!;
    expectClose(devig([1.5, 2.7], 'multiplicative'), [implied[0]! / total, implied[1]! / total], 1e-15);
  });
});

describe('devig rules', () => {
  test('when worst_case is used, then each outcome gets the minimum of the five methods and the sum is below 1', () => {
    const odds = [2.7, 2.3, 4.4];
    const result = devig(odds, 'worst_case');
    const others = DISTRIBUTION_METHODS.map((m) => devig(odds, m));
    result.forEach((p, i) => expect(p).toBe(Math.min(...others.map((o) => o[i] as number))));
    expect(result.reduce((a, b) => a + b, 0)).toBeLessThan(1);
  });

  test.each(DEVIG_METHODS.map((m) => [m]))(
    'when the booksum is below 1 (arbitrage) and the method is %s, then it falls back to multiplicative',
    (method) => {
      const odds = [2.1, 2.05, 30];
      const implied = odds.map((d) => 1 / d);
      const total = implied.reduce((a, b) => a + b, 0);
      expect(total).toBeLessThan(1);
      expectClose(devig(odds, method), implied.map((p) => p / total), 1e-15);
    },
  );

  test('when additive would make a longshot negative, then it is floored at MIN_DEVIG_PROBABILITY and renormalised', () => {
    // implied 1/1.05 + 1/1.2 + 1/500 = 1.7877; the margin share 0.2626 exceeds the longshot's 0.002
    const result = devig([1.05, 1.2, 500], 'additive');
    const total = 1 / 1.05 + 1 / 1.2 + 1 / 500;
    const shift = (total - 1) / 3;
    const raw = [1 / 1.05 - shift, 1 / 1.2 - shift, MIN_DEVIG_PROBABILITY];
    const rawSum = raw.reduce((a, b) => a + b, 0);
    expectClose(result, raw.map((r) => r / rawSum), 1e-15);
    expect(result[2]).toBeGreaterThan(0);
  });

  test.each(DEVIG_METHODS.map((m) => [m]))('when the market is exactly fair and the method is %s, then it is unchanged', (method) => {
    expect(devig([2, 4, 4], method)).toEqual([0.5, 0.25, 0.25]);
  });

  test.each([
    [[2.0], 'a single price'],
    [[], 'no prices'],
    [[1.0, 2.0], 'a price of 1.0'],
    [[NaN, 2.0], 'a NaN price'],
    [[Infinity, 2.0], 'an infinite price'],
  ])('when the market has %p (%s), then it throws InvalidOddsError', (odds) => {
    expect(() => devig(odds, 'power')).toThrow(InvalidOddsError);
  });

  test('when no method is given, then the default (power) is used', () => {
    expect(DEFAULT_DEVIG_METHOD).toBe('power');
    expect(devig([2.7, 2.3, 4.4])).toEqual(devig([2.7, 2.3, 4.4], 'power'));
  });

  test.each([
    ['power', true],
    ['odds_ratio', true],
    ['worst_case', true],
    ['Power', false],
    ['proportional', false],
    ['', false],
    [undefined, false],
    [3, false],
  ])('when the devig parameter is %p, then isDevigMethod is %p', (value, valid) => {
    expect(isDevigMethod(value)).toBe(valid);
  });

  test.each([
    [[americanToDecimal(-110), americanToDecimal(-110)], 220 / 210 - 1],
    [[2, 2], 0],
    [[2.1, 2.05], 1 / 2.1 + 1 / 2.05 - 1],
  ])('when the prices are %p, then the overround is %p', (odds, expected) => {
    expect(overround(odds)).toBeCloseTo(expected, 14);
  });
});

describe('devig properties', () => {
  /** Realistic books: true probabilities from random weights, a margin of 0-25% spread unevenly. */
  const market = fc
    .record({
      weights: fc.array(fc.double({ min: 1, max: 100, noNaN: true }), { minLength: 2, maxLength: 12 }),
      margin: fc.double({ min: 0, max: 0.25, noNaN: true }),
      jitter: fc.array(fc.double({ min: 0.9, max: 1.1, noNaN: true }), { minLength: 12, maxLength: 12 }),
    })
    .map(({ weights, margin, jitter }) => {
      const total = weights.reduce((a, b) => a + b, 0);
      return weights.map((w, i) => 1 / ((w / total) * (1 + margin) * (jitter[i] as number)));
    })
    .filter((odds) => odds.every((d) => d > 1.001));

  /** Any prices at all, including absurd books (booksum up to ~12). */
  const anyPrices = fc.array(fc.double({ min: 1.0001, max: 10000, noNaN: true }), { minLength: 2, maxLength: 12 });

  const fairMarket = fc.array(fc.double({ min: 1, max: 100, noNaN: true }), { minLength: 2, maxLength: 12 }).map((weights) => {
    const total = weights.reduce((a, b) => a + b, 0);
    return weights.map((w) => w / total);
  });

  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

  test.each(DISTRIBUTION_METHODS.map((m) => [m]))('when any realistic book is de-vigged by %s, then the probabilities sum to 1', (method) => {
    fc.assert(fc.property(market, (odds) => Math.abs(sum(devig(odds, method)) - 1) <= 1e-9));
  });

  test.each(DEVIG_METHODS.map((m) => [m]))('when any book is de-vigged by %s, then every probability is in (0, 1) and never NaN', (method) => {
    fc.assert(
      fc.property(fc.oneof(market, anyPrices), (odds) =>
        devig(odds, method).every((p) => Number.isFinite(p) && p > 0 && p < 1),
      ),
    );
  });

  test.each(DISTRIBUTION_METHODS.map((m) => [m]))('when even an absurd book is de-vigged by %s, then the sum is still 1', (method) => {
    fc.assert(fc.property(anyPrices, (odds) => Math.abs(sum(devig(odds, method)) - 1) <= 1e-9));
  });

  test.each(DEVIG_METHODS.map((m) => [m]))('when any book is de-vigged by %s, then a shorter price never gets a lower probability', (method) => {
    fc.assert(
      fc.property(fc.oneof(market, anyPrices), (odds) => {
        const probabilities = devig(odds, method);
        return odds.every((di, i) =>
          odds.every((dj, j) => !(di < dj) || (probabilities[i] as number) >= (probabilities[j] as number) - 1e-15),
        );
      }),
    );
  });

  test.each(DEVIG_METHODS.map((m) => [m]))('when a fair market is de-vigged by %s, then it is unchanged', (method) => {
    fc.assert(
      fc.property(fairMarket, (probabilities) => {
        const result = devig(probabilities.map((p) => 1 / p), method);
        return result.every((p, i) => Math.abs(p - (probabilities[i] as number)) <= 1e-9);
      }),
    );
  });

  test('when any realistic book is de-vigged by worst_case, then each entry is the lowest of the methods and the sum is at most 1', () => {
    fc.assert(
      fc.property(market, (odds) => {
        const worst = devig(odds, 'worst_case');
        const others = DISTRIBUTION_METHODS.map((m) => devig(odds, m));
        return (
          sum(worst) <= 1 + 1e-12 && worst.every((p, i) => others.every((o) => p <= (o[i] as number)))
        );
      }),
    );
  });

  test('when any realistic book is de-vigged by shin, then the insider share z is in [0, 1)', () => {
    fc.assert(
      fc.property(market, (odds) => {
        const z = shinInsiderShare(odds);
        return z >= 0 && z < 1;
      }),
    );
  });
});
