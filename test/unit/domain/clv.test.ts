import { americanCents, clvAgainstFair, clvCents, clvImpliedProbability } from '../../../src/domain/clv';
import { closingCutoff, closingGap } from '../../../src/domain/closing';
import { americanToDecimal, InvalidOddsError } from '../../../src/domain/odds-format';

describe('CLV', () => {
  test.each([
    [-110, -10],
    [-100, 0],
    [100, 0],
    [105, 5],
    [-250, -150],
    [300, 200],
  ])('when the price is %i, then it sits at %i on the cents scale', (american, cents) => {
    expect(americanCents(american)).toBe(cents);
  });

  test.each([
    // bet, close, cents: worked by hand on the cents scale
    [-110, -120, 10],
    [-120, -110, -10],
    [105, -105, 10], // across even money: -105 -> +105 is 10 cents
    [150, 140, 10],
    [-110, -110, 0],
  ])('when the bet is at %i and the close at %i, then the CLV is %i cents', (bet, close, cents) => {
    expect(clvCents(bet, close)).toBe(cents);
  });

  test('when the bet is -110 and the close -120, then the implied-probability CLV is 120/220 - 110/210', () => {
    // 0.545454... - 0.523809... = 0.021645...
    expect(clvImpliedProbability(-110, -120)).toBeCloseTo(0.021645, 6);
    expect(clvImpliedProbability(-110, -120)).toBeCloseTo(120 / 220 - 110 / 210, 15);
    expect(clvImpliedProbability(+150, +130)).toBeCloseTo(100 / 230 - 100 / 250, 15);
  });

  test('when the fair close is 0.5 and the bet was +105, then the bet is worth +2.5 per 100', () => {
    const fair = clvAgainstFair(americanToDecimal(105), 0.5);
    expect(fair.evPercent).toBeCloseTo(2.5, 12);
    expect(fair.probability).toBeCloseTo(0.5 - 100 / 205, 12);
    expect(clvAgainstFair(americanToDecimal(-110), 0.5).evPercent).toBeCloseTo((0.5 * (1 + 100 / 110) - 1) * 100, 12);
  });

  test('when a price or probability is not valid, then it throws InvalidOddsError', () => {
    expect(() => americanCents(50)).toThrow(InvalidOddsError);
    expect(() => clvAgainstFair(1, 0.5)).toThrow(InvalidOddsError);
    expect(() => clvAgainstFair(2, 1)).toThrow(InvalidOddsError);
  });
});

describe('closing cutoff and gaps', () => {
  const start = new Date('2026-01-24T17:00:00Z');
  test('when no live price came before the start time, then the start time is the cutoff', () => {
    expect(closingCutoff(start, new Date('2026-01-24T17:21:44Z'))).toEqual({ at: start, source: 'start_time' });
    expect(closingCutoff(start, null)).toEqual({ at: start, source: 'start_time' });
  });
  test('when a live price was captured before the listed start, then that capture is the cutoff', () => {
    const early = new Date('2026-01-24T16:55:00Z');
    expect(closingCutoff(start, early)).toEqual({ at: early, source: 'first_live_price' });
  });
  test.each([
    [true, '2026-01-24T05:00:00Z', null],
    [false, '2026-01-24T05:00:00Z', 'not_quoted_before_start'],
    [false, '2026-01-24T17:00:00Z', 'no_capture_before_start'],
    [false, null, 'no_capture_before_start'],
  ])('when hasClose is %s and the game was first seen at %s, then the gap is %s', (hasClose, firstSeen, gap) => {
    expect(closingGap(hasClose, firstSeen ? new Date(firstSeen) : null, start)).toBe(gap);
  });
});
