import {
  dateProblem,
  INSTANT_HINT,
  LIVE_MARKET_TYPES,
  localDateOf,
  localDayRange,
  MARKET_TYPES,
  parseInstant,
  PERIODS,
  SIDES,
  STATUS_FILTERS,
  STATUS_WORDS,
  textProblem,
} from '../domain';
import type { GameFilter } from '../db/odds-repository';
import { AppError } from '../errors';

// Argument rules shared by the resolvers (and so by every REST route): one place says what a
// period, a status word, a text filter or a date range means. The closed sets come from
// src/domain/vocabulary.ts; REST parameter parsing (src/rest/params.ts) uses the rules re-exported
// here, so both transports refuse the same values with the same words.

export { dateProblem, INSTANT_HINT, parseInstant, PERIODS, STATUS_WORDS, textProblem, MARKET_TYPES, LIVE_MARKET_TYPES, SIDES };

/** Largest page; spec 8. */
export const MAX_LIMIT = 1000;

/** Longest conference, division or sport filter. */
export const MAX_FILTER_TEXT = 50;

/** The one wording of a bad argument or parameter: `invalid parameter <name>: <what is allowed>`. */
export function invalidParameter(name: string, allowed: string): AppError {
  return new AppError('BAD_REQUEST', `invalid parameter ${name}: ${allowed}`);
}

/** Throws unless `value` is one of `allowed`. @throws AppError BAD_REQUEST */
export function checkOneOf(name: string, value: string, allowed: readonly string[]): void {
  if (!allowed.includes(value)) throw invalidParameter(name, `must be one of ${allowed.join(', ')}`);
}

/** Throws unless every value is one of `allowed` (no list means no filter). @throws AppError BAD_REQUEST */
export function checkSomeOf(name: string, values: readonly string[] | null | undefined, allowed: readonly string[]): void {
  for (const value of values ?? []) checkOneOf(name, value, allowed);
}

/** The stored period name of a `period` argument (default full_game). @throws AppError BAD_REQUEST */
export function parsePeriod(period: string | null | undefined): string {
  if (period === null || period === undefined || period === 'full') return 'full_game';
  if ((PERIODS as readonly string[]).includes(period)) return period;
  throw invalidParameter('period', `must be one of full, ${PERIODS.join(', ')}`);
}

/** Stored statuses a `status` argument selects. @throws AppError BAD_REQUEST for an unknown word */
export function parseStatus(status: string | null | undefined): readonly string[] | undefined {
  if (status === null || status === undefined) return undefined;
  const statuses = STATUS_FILTERS.get(status.toLowerCase());
  if (!statuses) throw invalidParameter('status', `must be one of ${STATUS_WORDS.join(', ')}`);
  return statuses;
}

/** A free-text filter (conference, division, sport): undefined when absent. @throws AppError BAD_REQUEST */
export function parseText(name: string, value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const problem = textProblem(value, MAX_FILTER_TEXT);
  if (problem) throw invalidParameter(name, problem);
  return value;
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
    throw invalidParameter('start_date', 'must not be after end_date');
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
  if (page.limit < 1 || page.limit > MAX_LIMIT) throw invalidParameter('limit', `must be an integer from 1 to ${MAX_LIMIT}`);
  if (page.offset < 0) throw invalidParameter('offset', 'must be an integer from 0 to 2147483647');
  return page;
}

/** A list argument: null/undefined means no filter; an empty list matches nothing. */
export function list<T>(values: readonly T[] | null | undefined): readonly T[] | undefined {
  return values ?? undefined;
}
