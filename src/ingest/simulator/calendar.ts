// Dates and zones of the simulated calendar (pure: Intl is only used to read zone offsets).

import { addDays, localDateOf as localDateOfInstant, localTimeToInstant } from '../../domain';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The instant of a local wall-clock time (date + minutes after midnight) in a zone. */
export function zonedTimeToMs(localDate: string, minutes: number, timeZone: string): number {
  return localTimeToInstant(localDate, minutes, timeZone).getTime();
}

export function localDateOf(ms: number, timeZone: string): string {
  return localDateOfInstant(new Date(ms), timeZone);
}

export function dayMs(localDate: string): number {
  const [y, m, d] = localDate.split('-').map(Number);
  return Date.UTC(y ?? NaN, (m ?? NaN) - 1, d ?? NaN);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((dayMs(to) - dayMs(from)) / DAY);
}

export function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Midnight US Pacific of a local date as an instant: the feed's convention for season boundaries. */
export function feedDayStart(localDate: string): string {
  return iso(zonedTimeToMs(localDate, 0, 'America/Los_Angeles'));
}

export function feedDayEnd(localDate: string): string {
  return iso(zonedTimeToMs(addDays(localDate, 1), 0, 'America/Los_Angeles') - 1000);
}
