import { localDateOf, localDayRange, textProblem } from '../domain';
import type { GameFilter } from '../db/odds-repository';
import { AppError } from '../errors';

// Argument rules shared by the services and resolvers (and so by every REST route): one place says
// what a text filter or a date range means, and the one wording of a refusal. The closed sets are
// schema enums (src/graphql/enums.ts); what remains here ties arguments together. REST parameter
// parsing (src/rest/params.ts) uses the same domain rules (dateProblem, parseInstant, ..., handed on
// by src/graphql/enums.ts), so both transports refuse the same values with the same words.

/** Largest page; spec 8. */
export const MAX_LIMIT = 1000;

/** Longest conference, division or sport filter. */
export const MAX_FILTER_TEXT = 50;

/** The one wording of a bad argument or parameter: `invalid parameter <name>: <what is allowed>`. */
export function invalidParameter(name: string, allowed: string): AppError {
  return new AppError('BAD_REQUEST', `invalid parameter ${name}: ${allowed}`);
}

/**
 * Control characters (C0, DEL, C1) and lone surrogates: never part of a URL, a label or a name, and
 * NUL is more than PostgreSQL's text can store (it would fail the write with a 500).
 */
const CONTROL = /[\p{Cc}\p{Cs}]/u;

/** Refuses text holding a control character, before it reaches the database. @throws AppError BAD_REQUEST */
export function refuseControlCharacters(name: string, value: string): void {
  if (CONTROL.test(value)) throw invalidParameter(name, 'must not contain control characters (NUL, tab, line breaks, ...)');
}

/**
 * Throws unless every value is one of `allowed`, a subset of its enum that another argument
 * decides (the sides of the listed market). No list means no filter. @throws AppError BAD_REQUEST
 */
export function checkSomeOf<V extends string>(name: string, values: readonly V[] | null | undefined, allowed: readonly V[]): void {
  for (const value of values ?? []) {
    if (!allowed.includes(value)) throw invalidParameter(name, `must be one of ${allowed.join(', ')}`);
  }
}

/** A free-text filter (conference, division, sport): undefined when absent. @throws AppError BAD_REQUEST */
export function parseText(name: string, value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const problem = textProblem(value, MAX_FILTER_TEXT);
  if (problem) throw invalidParameter(name, problem);
  return value;
}

/**
 * The start_time range of `date` or `startDate`..`endDate` (league-local days, inclusive).
 * `date` wins over the range; an open end stays open. @throws AppError when startDate > endDate
 * (worded with REST's parameter names, like every refusal)
 */
export function dayRange(
  args: { date?: string | null | undefined; startDate?: string | null | undefined; endDate?: string | null | undefined },
  timeZone: string,
): Pick<GameFilter, 'from' | 'to'> {
  if (args.date) {
    const { start, end } = localDayRange(args.date, args.date, timeZone);
    return { from: start, to: end };
  }
  if (args.startDate && args.endDate && args.startDate > args.endDate) {
    throw invalidParameter('start_date', 'must not be after end_date');
  }
  return {
    from: args.startDate ? localDayRange(args.startDate, args.startDate, timeZone).start : undefined,
    to: args.endDate ? localDayRange(args.endDate, args.endDate, timeZone).end : undefined,
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
