import { dateProblem, DATE_RANGE, parseInstant } from '../../../src/domain/local-day';
import { STATUS_FILTERS, textProblem } from '../../../src/domain/vocabulary';

// The input rules every transport shares (docs/input-validation.md).

describe('dateProblem', () => {
  test.each(['2026-01-24', '2024-02-29', DATE_RANGE.min, DATE_RANGE.max])('when the day is %s, then it is accepted', (day) => {
    expect(dateProblem(day)).toBeNull();
  });
  test.each(['2026-02-30', '2025-02-29', '9999-12-31', '0000-01-01', '1899-12-31', '3000-01-01', '26-01-24', '2026-1-24', ' 2026-01-24', '+02026-01-24', ''])(
    'when the day is %j, then it is refused',
    (day) => {
      expect(dateProblem(day)).toBe('must be a real calendar date YYYY-MM-DD from 1900-01-01 to 2999-12-31');
    },
  );
});

describe('parseInstant', () => {
  test.each([
    ['2026-01-24', '2026-01-24T00:00:00.000Z'],
    ['2026-01-24T19:30Z', '2026-01-24T19:30:00.000Z'],
    ['2026-01-24T19:30:05Z', '2026-01-24T19:30:05.000Z'],
    ['2026-01-24T19:30:05.123Z', '2026-01-24T19:30:05.123Z'],
    ['2026-01-24T19:30:05', '2026-01-24T19:30:05.000Z'],
    ['2026-01-24T14:30:00-05:00', '2026-01-24T19:30:00.000Z'],
    ['2026-01-24T23:30:00+05:30', '2026-01-24T18:00:00.000Z'],
  ])('when the text is %s, then it is the instant %s', (text, iso) => {
    expect(parseInstant(text)?.toISOString()).toBe(iso);
  });
  test.each(['1,1,1', '-1', '1.5', '0', '2026-02-30', '0000-01-01', '-000001-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '2026-01-24T24:00:00Z',
    '2026-01-24T19:60Z', '2026-01-24T12:00:00+24:00', '2026-01-24 19:30', 'Sat, 24 Jan 2026 19:30:00 GMT', 'now', ''])('when the text is %j, then it is refused', (text) => {
    expect(parseInstant(text)).toBeNull();
  });
});

describe('textProblem', () => {
  test.each([['east', null], ['x'.repeat(50), null], ['%_\\', null]])('when the text is %j, then it is accepted', (text, problem) => {
    expect(textProblem(text, 50)).toBe(problem);
  });
  test.each(['', 'x'.repeat(51), 'east\u0000', '\u001f', 'a\u007fb'])('when the text is %j, then it is refused', (text) => {
    expect(textProblem(text, 50)).toBe('must be text of 1 to 50 characters without control characters');
  });
});

test('when a status word is a prototype key, then it selects nothing', () => {
  for (const word of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) expect(STATUS_FILTERS.get(word)).toBeUndefined();
  expect(STATUS_FILTERS.get('live')).toEqual(['in_progress', 'live']);
});
