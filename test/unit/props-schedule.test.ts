import { propsPollDue, propsPollInterval } from '../../src/ingest/feeds/the-odds-api/props-schedule';

const start = new Date('2026-07-20T23:00:00Z');
const at = (minutesBefore: number) => new Date(start.getTime() - minutesBefore * 60_000);

describe('props poll schedule', () => {
  it('when a game starts in more than a day, then its props are not polled', () => {
    expect(propsPollInterval(start, at(24 * 60 + 1))).toBeNull();
    expect(propsPollDue(start, at(30 * 60), null)).toBe(false);
  });

  it('when tip-off nears, then the interval shortens: hourly, every 15 min within 3 h, every 5 min within 30 min and in play', () => {
    expect(propsPollInterval(start, at(24 * 60))).toBe(60 * 60_000);
    expect(propsPollInterval(start, at(3 * 60))).toBe(15 * 60_000);
    expect(propsPollInterval(start, at(30))).toBe(5 * 60_000);
    expect(propsPollInterval(start, at(-60))).toBe(5 * 60_000);
  });

  it('when the game has been played for more than 3 h, then its props are no longer polled', () => {
    expect(propsPollInterval(start, at(-181))).toBeNull();
  });

  it('when the last poll is younger than the interval, then the game is not due; else it is', () => {
    expect(propsPollDue(start, at(10), at(14))).toBe(false);
    expect(propsPollDue(start, at(10), at(15))).toBe(true);
    expect(propsPollDue(start, at(10), null)).toBe(true);
  });
});
