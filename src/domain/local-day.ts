// Calendar days in a league's time zone: the spec's `date` filters mean the local day of the game
// (the feed's scoreboard switches slates near midnight US Eastern), not the UTC day.

// Formatters are costly to build and are asked for per game by the simulator: one per zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Wall-clock fields of `instant` in `timeZone`. */
function wallClock(instant: Date, timeZone: string) {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  const parts = format.formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD of `instant` in `timeZone`. */
export function localDateOf(instant: Date, timeZone: string): string {
  const { year, month, day } = wallClock(instant, timeZone);
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

/** Offset of `timeZone` from UTC at `instant`, in milliseconds (positive east of Greenwich). */
function offsetMs(instant: Date, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The UTC instant of the local wall-clock time `minutes` after midnight of `date` in `timeZone`. */
export function localTimeToInstant(date: string, minutes: number, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d) + minutes * 60_000;
  // Two passes settle times whose offset differs from the offset at the UTC guess (DST changes).
  let instant = wall - offsetMs(new Date(wall), timeZone);
  instant = wall - offsetMs(new Date(instant), timeZone);
  return new Date(instant);
}

/** The UTC instant at which local midnight starting `date` (YYYY-MM-DD) occurs in `timeZone`. */
export function startOfLocalDay(date: string, timeZone: string): Date {
  return localTimeToInstant(date, 0, timeZone);
}

/** Adds `days` to a YYYY-MM-DD date (calendar arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** [start, end) instants of the local days from `first` to `last` inclusive. */
export function localDayRange(first: string, last: string, timeZone: string): { start: Date; end: Date } {
  return { start: startOfLocalDay(first, timeZone), end: startOfLocalDay(addDays(last, 1), timeZone) };
}

/** True when `value` is a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * The days the API accepts (dates and instants alike): wide enough for any season, narrow enough
 * that day arithmetic stays in four-digit years and every instant fits a PostgreSQL timestamp.
 */
export const DATE_RANGE = { min: '1900-01-01', max: '2999-12-31' } as const;

/** Why `value` is not an accepted day, or null when it is (a real YYYY-MM-DD within DATE_RANGE). */
export function dateProblem(value: string): string | null {
  if (!isCalendarDate(value) || value < DATE_RANGE.min || value > DATE_RANGE.max) {
    return `must be a real calendar date YYYY-MM-DD from ${DATE_RANGE.min} to ${DATE_RANGE.max}`;
  }
  return null;
}

// ISO 8601 as the API writes it: a day, optionally a time (minutes, seconds, fraction) with Z or an offset.
const INSTANT = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2}))?)?$/;

/**
 * The instant an ISO 8601 timestamp names (`2026-01-24`, `2026-01-24T19:30Z`,
 * `2026-01-24T19:30:00.000-05:00`; a time without zone is UTC), or null when the text is not one:
 * no other shape (`1,1,1`, `-1`, `1.5`), no impossible day or time (`2026-02-30`, `24:00`), no day
 * outside DATE_RANGE.
 */
export function parseInstant(value: string): Date | null {
  const m = INSTANT.exec(value);
  if (!m || dateProblem(m[1]!) !== null) return null;
  if (m[2] !== undefined && (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4] ?? 0) > 59)) return null;
  if (m[6] !== undefined && (Number(m[6]) > 23 || Number(m[7]) > 59)) return null;
  const zoned = m[2] === undefined ? `${value}T00:00:00Z` : m[5] === undefined ? `${value}Z` : value;
  const instant = new Date(zoned);
  return Number.isNaN(instant.getTime()) ? null : instant;
}

/** What an accepted instant looks like, for error messages. */
export const INSTANT_HINT = `must be an ISO 8601 instant (YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS[.sss]][Z|+HH:MM]) from ${DATE_RANGE.min} to ${DATE_RANGE.max}`;
