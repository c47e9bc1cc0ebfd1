import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  getNamedType,
  getNullableType,
  GraphQLError,
  isListType,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import type { Plan } from '../auth/viewer';
import { ERRORS } from '../errors';

// Bounds on what one GraphQL request may ask for, checked before any resolver runs, on HTTP and
// graphql-ws alike. Every refusal is a GraphQL error with extensions.code QUERY_TOO_COMPLEX.
// Shape limits (depth, aliases, directives) are graphql-armor's validation rules; the cost is
// graphql-query-complexity's, with list multipliers. Neither expands a fragment bomb: armor's
// rules visit each fragment once, and the cost walk stops at MAX_QUERY_NODES visited nodes, so a
// document of a few hundred bytes that would expand to millions of fields is refused in
// milliseconds (test/integration/graphql-limits.test.ts).

/** Deepest field nesting (the REST operations need 6; introspection is exempt, its type chains are deep by design). */
export const MAX_DEPTH = 10;
/** Most aliases in one document. */
export const MAX_ALIASES = 30;
/** Most directives in one document. */
export const MAX_DIRECTIVES = 30;
/** Most lexical tokens in one document (the standard introspection query has ~300; the REST operations under 1,500). */
export const MAX_TOKENS = 5000;
/** Most selections the cost walk visits, fragments expanded, before it gives up (and refuses). */
export const MAX_QUERY_NODES = 5000;

/**
 * Cost budget of one operation by plan: a field costs 1, times the size of every list around it
 * (its `limit` argument, else ASSUMED_LIST_SIZE). Requests without a usable key (refused anyway
 * by the resolvers) and the admin key get the smallest budget.
 */
export const COST_BUDGETS: Readonly<Record<Plan, number>> = { starter: 250_000, pro: 500_000, elite: 1_000_000 };
const DEFAULT_BUDGET = COST_BUDGETS.starter;

/** Size assumed for a list without a `limit` argument: a day's slate, a game's books. */
const ASSUMED_LIST_SIZE = 15;

/**
 * A field costs 1 plus its selections, times the size of the list it returns (ASSUMED_LIST_SIZE).
 * A page field's `limit` argument sets the size of its page's list instead (`games(limit: 100) {
 * items }`): the page scales its selections by limit / ASSUMED_LIST_SIZE, `items` by the rest.
 */
const listEstimator: ComplexityEstimator = ({ field, args, childComplexity }) => {
  const type = getNullableType(field.type);
  const limit = typeof args.limit === 'number' && args.limit > 0 ? args.limit : undefined;
  if (!isListType(type)) return 1 + (limit ? Math.ceil((childComplexity * limit) / ASSUMED_LIST_SIZE) : childComplexity);
  // Introspection lists (types, fields) are the schema's own size: count them once.
  if (getNamedType(type).name.startsWith('__')) return 1 + childComplexity;
  return 1 + childComplexity * (limit ?? ASSUMED_LIST_SIZE);
};

function tooComplex(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: ERRORS.QUERY_TOO_COMPLEX.graphql, http: { status: 400 } } });
}

/** armor reports "Syntax Error: ..." without a code; we report its finding as QUERY_TOO_COMPLEX instead. */
const reportAs = { propagateOnRejection: false, onReject: [(ctx: ValidationContext | null, error: GraphQLError) => ctx?.reportError(tooComplex(error.message.replace(/^Syntax Error: /, '')))] };

/** Validation rules bounding depth, aliases and directives (add to graphql's specifiedRules). */
export function shapeLimitRules(): ValidationRule[] {
  return [
    maxDepthRule({ n: MAX_DEPTH, ignoreIntrospection: true, flattenFragments: true, ...reportAs }),
    maxAliasesRule({ n: MAX_ALIASES, ...reportAs }),
    maxDirectivesRule({ n: MAX_DIRECTIVES, ...reportAs }),
  ] as unknown as ValidationRule[];
}

/** Options for graphql's `parse`: a bounded token count, so a huge document fails while parsing. */
export const PARSE_OPTIONS = { maxTokens: MAX_TOKENS } as const;

/**
 * The cost of the operation of `document` selected by `operationName`, with `variables`.
 * @throws GraphQLError past MAX_QUERY_NODES visited selections, or for variables that do not fit.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  input: { operationName?: string | null; variables?: Record<string, unknown> | null },
): number {
  return getComplexity({
    schema,
    query: document,
    operationName: input.operationName ?? undefined,
    variables: input.variables ?? {},
    estimators: [listEstimator],
    maxQueryNodes: MAX_QUERY_NODES,
  });
}

/**
 * Whether the operation may run for a caller on `plan`: a refusal when its cost passes the plan's
 * budget or when the walk passes MAX_QUERY_NODES (a fragment bomb).
 * @returns the GraphQLError to answer with, or undefined when the operation may run.
 */
export function costRefusal(
  schema: GraphQLSchema,
  document: DocumentNode,
  input: { operationName?: string | null; variables?: Record<string, unknown> | null; plan?: Plan | null },
): GraphQLError | undefined {
  const budget = input.plan ? COST_BUDGETS[input.plan] : DEFAULT_BUDGET;
  let cost: number;
  try {
    cost = operationCost(schema, document, input);
  } catch (error) {
    if (error instanceof GraphQLError && /maximum allowed number of nodes/.test(error.message)) {
      return tooComplex(`Query too costly: it expands to more than ${MAX_QUERY_NODES} selections`);
    }
    // Variables that do not fit the operation: execution would refuse them the same way.
    return new GraphQLError(error instanceof Error ? error.message : String(error), { extensions: { code: ERRORS.BAD_REQUEST.graphql, http: { status: 400 } } });
  }
  if (cost > budget) {
    return tooComplex(`Query too costly: it costs ${cost}, the budget of ${input.plan ? `the ${input.plan} plan` : 'a request without an API key'} is ${budget}`);
  }
  return undefined;
}
