import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { isCalendarDate } from '../../domain';

export { isCalendarDate };

/** Date: a real calendar day written YYYY-MM-DD (2026-02-30 is rejected at parse time). */
export const DateScalar = new GraphQLScalarType<string, string>({
  name: 'Date',
  description: 'A calendar day, YYYY-MM-DD',
  serialize: (value) => String(value),
  parseValue(value) {
    if (typeof value !== 'string' || !isCalendarDate(value)) throw new GraphQLError(`Date must be a real calendar date YYYY-MM-DD, got ${JSON.stringify(value)}`);
    return value;
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING || !isCalendarDate(ast.value)) throw new GraphQLError('Date must be a real calendar date YYYY-MM-DD');
    return ast.value;
  },
});

function toDate(value: unknown): Date {
  const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw new GraphQLError(`DateTime must be an ISO 8601 timestamp, got ${JSON.stringify(value)}`);
  return date;
}

/** DateTime: ISO 8601 in UTC on output; any ISO 8601 timestamp on input. */
export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  serialize: (value) => toDate(value).toISOString(),
  parseValue: toDate,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string');
    return toDate(ast.value);
  },
});

function toLong(value: unknown): number {
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new GraphQLError(`Long must be a safe integer, got ${String(value)}`);
  return n;
}

/** Long: an integer beyond 32 bits, as a JSON number (safe integer range). */
export const LongScalar = new GraphQLScalarType<number, number>({
  name: 'Long',
  serialize: toLong,
  parseValue: toLong,
  parseLiteral(ast) {
    if (ast.kind !== Kind.INT) throw new GraphQLError('Long must be an integer');
    return toLong(Number(ast.value));
  },
});

/** JSON: passed through as stored. */
export const JSONScalar = new GraphQLScalarType<unknown, unknown>({
  name: 'JSON',
  serialize: (value) => value,
  parseValue: (value) => value,
});

export const scalarResolvers = { Date: DateScalar, DateTime: DateTimeScalar, Long: LongScalar, JSON: JSONScalar };
