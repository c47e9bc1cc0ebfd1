import { GraphQLError, Kind, type GraphQLScalarTypeConfig } from 'graphql';
import { dateProblem, INSTANT_HINT, parseInstant } from '../../domain';
import type { Resolvers } from '../__generated__/resolvers-types';

// The behaviour of the custom scalars. Name and description come from schema/base.graphql: handing
// graphql-tools a GraphQLScalarType would replace the SDL's description with its own (none).

type Behaviour<Internal, External> = Omit<GraphQLScalarTypeConfig<Internal, External>, 'name' | 'description'>;

/** Date: a real calendar day written YYYY-MM-DD within DATE_RANGE (2026-02-30 is rejected at parse time). */
export const DateScalar: Behaviour<string, string> = {
  serialize: (value) => String(value),
  parseValue: parseDate,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new GraphQLError(`Date ${dateProblem('')}`);
    return parseDate(ast.value);
  },
};

function parseDate(value: unknown): string {
  const problem = typeof value === 'string' ? dateProblem(value) : dateProblem('');
  if (problem) throw new GraphQLError(`Date ${problem}`);
  return value as string;
}

/** An input instant: only the ISO 8601 shapes parseInstant accepts (not whatever `new Date` guesses). */
function parseDateTime(value: unknown): Date {
  const instant = typeof value === 'string' ? parseInstant(value) : null;
  if (!instant) throw new GraphQLError(`DateTime ${INSTANT_HINT}`);
  return instant;
}

/** A stored or computed instant on output. */
function serializeDateTime(value: unknown): string {
  const date = value instanceof Date ? value : new Date(value as string);
  if (Number.isNaN(date.getTime())) throw new GraphQLError('DateTime cannot represent an invalid date');
  return date.toISOString();
}

/** DateTime: ISO 8601 in UTC on output; an ISO 8601 instant within DATE_RANGE on input. */
export const DateTimeScalar: Behaviour<Date, string> = {
  serialize: serializeDateTime,
  parseValue: parseDateTime,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new GraphQLError(`DateTime ${INSTANT_HINT}`);
    return parseDateTime(ast.value);
  },
};

function toLong(value: unknown): number {
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new GraphQLError(`Long must be a safe integer, got ${String(value)}`);
  return n;
}

/** Long: an integer beyond 32 bits, as a JSON number (safe integer range). */
export const LongScalar: Behaviour<number, number> = {
  serialize: toLong,
  parseValue: toLong,
  parseLiteral(ast) {
    if (ast.kind !== Kind.INT) throw new GraphQLError('Long must be an integer');
    return toLong(Number(ast.value));
  },
};

/** JSON: passed through as stored. */
export const JSONScalar: Behaviour<unknown, unknown> = {
  serialize: (value) => value,
  parseValue: (value) => value,
};

// graphql-tools reads a plain object's serialize/parseValue/parseLiteral into the SDL's scalar.
export const scalarResolvers = { Date: DateScalar, DateTime: DateTimeScalar, Long: LongScalar, JSON: JSONScalar } as unknown as Pick<
  Resolvers,
  'Date' | 'DateTime' | 'Long' | 'JSON'
>;
