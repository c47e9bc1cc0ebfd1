import { addDays, isCalendarDate, localDateOf, localDayRange, startOfLocalDay } from '../../../src/domain/local-day';

describe('local days', () => {
  test.each([
    ['2026-11-22', 'America/New_York', '2026-11-22T05:00:00.000Z'],
    ['2026-07-04', 'America/New_York', '2026-07-04T04:00:00.000Z'],
    ['2026-03-08', 'America/New_York', '2026-03-08T05:00:00.000Z'], // DST starts at 2am that day
    ['2026-11-01', 'America/New_York', '2026-11-01T04:00:00.000Z'], // DST ends at 2am that day
    ['2026-11-22', 'UTC', '2026-11-22T00:00:00.000Z'],
    ['2026-11-22', 'Asia/Tokyo', '2026-11-21T15:00:00.000Z'],
  ])('when the day is %s in %s, then it starts at %s', (date, tz, iso) => {
    expect(startOfLocalDay(date, tz).toISOString()).toBe(iso);
  });

  test('when a game tips at 00:30 UTC, then it belongs to the previous Eastern day', () => {
    expect(localDateOf(new Date('2026-01-25T00:30:00Z'), 'America/New_York')).toBe('2026-01-24');
  });

  test('when a range spans the autumn DST change, then it covers 25 hours for that day', () => {
    const { start, end } = localDayRange('2026-11-01', '2026-11-01', 'America/New_York');
    expect((end.getTime() - start.getTime()) / 3_600_000).toBe(25);
  });

  test('when dates are checked, then only real calendar dates pass', () => {
    expect(isCalendarDate('2026-02-28')).toBe(true);
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2026-13-01')).toBe(false);
    expect(isCalendarDate('2026-1-01')).toBe(false);
    expect(isCalendarDate('yesterday')).toBe(false);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});
