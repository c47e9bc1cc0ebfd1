import { localDateOf, localDayRange } from '../domain';
import type { GameFilter } from '../db/odds-repository';
import { AppError } from '../errors';
import { STATUS_FILTERS } from '../ingest/status-map';

// Argument rules shared by the resolvers (and so by every REST route): one place says what a
// period, a status word or a date range means.

/** Largest page; spec 8. */
export const MAX_LIMIT = 1000;

/** Periods a market may be asked for; 'full' is accepted for full_game (spec 4.4 says "full"). */
export const PERIODS = ['full_game', 'first_half', 'second_half', 'first_quarter', 'second_quarter', 'third_quarter', 'fourth_quarter'] as const;

/** The stored period name of a `period` argument (default full_game). @throws AppError BAD_REQUEST */
export function parsePeriod(period: string | null | undefined): string {
  if (period === null || period === undefined || period === 'full') return 'full_game';
  if ((PERIODS as readonly string[]).includes(period)) return period;
  throw new AppError('BAD_REQUEST', `invalid period: must be one of full, ${PERIODS.join(', ')}`);
}

/** Words of the games status filter (spec: scheduled, live, finished; plus stored values). */
export const STATUS_WORDS = Object.keys(STATUS_FILTERS);

/** Stored statuses a `status` argument selects. @throws AppError BAD_REQUEST for an unknown word */
export function parseStatus(status: string | null | undefined): readonly string[] | undefined {
  if (status === null || status === undefined) return undefined;
  const statuses = STATUS_FILTERS[status.toLowerCase()];
  if (!statuses) throw new AppError('BAD_REQUEST', `invalid status: must be one of ${STATUS_WORDS.join(', ')}`);
  return statuses;
}

/**
 * The start_time range of `date` or `start_date`..`end_date` (league-local days, inclusive).
 * `date` wins over the range; an open end stays open. @throws AppError when start_date > end_date
 */
export function dayRange(
  args: { date?: string | null | undefined; start_date?: string | null | undefined; end_date?: string | null | undefined },
  timeZone: string,
): Pick<GameFilter, 'from' | 'to'> {
  if (args.date) {
    const { start, end } = localDayRange(args.date, args.date, timeZone);
    return { from: start, to: end };
  }
  if (args.start_date && args.end_date && args.start_date > args.end_date) {
    throw new AppError('BAD_REQUEST', 'invalid start_date: must not be after end_date');
  }
  return {
    from: args.start_date ? localDayRange(args.start_date, args.start_date, timeZone).start : undefined,
    to: args.end_date ? localDayRange(args.end_date, args.end_date, timeZone).end : undefined,
  };
}

/** `date` or, by default, today's league-local day as a start_time range. */
export function dayOrToday(date: string | null | undefined, now: Date, timeZone: string): Pick<GameFilter, 'from' | 'to'> {
  return dayRange({ date: date ?? localDateOf(now, timeZone) }, timeZone);
}

/** Checks limit (1..1000) and offset (>= 0). @throws AppError BAD_REQUEST */
export function parsePage(limit: number | null | undefined, offset: number | null | undefined): { limit: number; offset: number } {
  const page = { limit: limit ?? 100, offset: offset ?? 0 };
  if (page.limit < 1 || page.limit > MAX_LIMIT) throw new AppError('BAD_REQUEST', `invalid limit: must be an integer from 1 to ${MAX_LIMIT}`);
  if (page.offset < 0) throw new AppError('BAD_REQUEST', 'invalid offset: must be an integer >= 0');
  return page;
}

/** A list argument: null/undefined means no filter; an empty list matches nothing. */
export function list<T>(values: readonly T[] | null | undefined): readonly T[] | undefined {
  return values ?? undefined;
}

