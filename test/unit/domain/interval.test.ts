import { firstInstantFrom, parseInterval, seriesInstants, seriesLength } from '../../../src/domain';

describe('intervals of historical series', () => {
  test.each([
    ['5m', 300_000],
    ['15m', 900_000],
    ['1h', 3_600_000],
    [' 2h ', 7_200_000],
    ['1d', 86_400_000],
    ['31d', 31 * 86_400_000],
    ['1440m', 86_400_000],
  ])('when the interval is %p, then it lasts %p ms', (text, ms) => {
    expect(parseInterval(text)).toBe(ms);
  });

  test.each(['', '0m', '5', 'm', '-5m', '5s', '1w', '1.5h', '05m', '32d', '1H', '5 m', '1000000m'])('when the interval is %p, then it is refused', (text) => {
    expect(parseInterval(text)).toBeNull();
  });

  test('when a day is cut in 6-hour steps, then the series has its 4 instants, end excluded', () => {
    const start = new Date('2026-01-24T05:00:00Z');
    const end = new Date('2026-01-25T05:00:00Z');
    expect(seriesLength(start, end, 6 * 3_600_000)).toBe(4);
    expect(seriesInstants(start, end, 6 * 3_600_000).map((d) => d.toISOString())).toEqual([
      '2026-01-24T05:00:00.000Z',
      '2026-01-24T11:00:00.000Z',
      '2026-01-24T17:00:00.000Z',
      '2026-01-24T23:00:00.000Z',
    ]);
    // A step that does not divide the span still covers it: the last instant is before the end.
    expect(seriesInstants(start, end, 7 * 3_600_000).map((d) => d.toISOString()).at(-1)).toBe('2026-01-25T02:00:00.000Z');
    expect(seriesLength(end, start, 3_600_000)).toBe(0);
  });

  test('when a game was first priced between two instants, then its series starts at the later one', () => {
    const instants = seriesInstants(new Date('2026-01-24T00:00:00Z'), new Date('2026-01-24T04:00:00Z'), 3_600_000);
    expect(firstInstantFrom(instants, new Date('2026-01-23T00:00:00Z'))).toBe(0);
    expect(firstInstantFrom(instants, new Date('2026-01-24T01:00:00Z'))).toBe(1);
    expect(firstInstantFrom(instants, new Date('2026-01-24T01:00:00.001Z'))).toBe(2);
    expect(firstInstantFrom(instants, new Date('2026-01-25T00:00:00Z'))).toBe(4);
  });
});
