import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { defaultFieldResolver, getNamedType, getOperationAST, GraphQLFloat, isObjectType, Kind, type DocumentNode, type GraphQLField, type GraphQLSchema, type SelectionNode } from 'graphql';
import { compareCodePoints, ODDS_DECIMAL_DIGITS, roundTo } from '../domain';
import { AppError } from '../errors';
import type { GraphQLContext } from './context';
import { checkEnumVocabulary } from './enums';
import { resolvers } from './resolvers';

/** schema/ beside src/ (from src/graphql or dist/graphql alike). */
export const SCHEMA_DIR = path.resolve(__dirname, '..', '..', 'schema');

/** Every schema/*.graphql file, base.graphql first, the rest by name: adding a file adds it to the schema. */
export function loadTypeDefs(dir = SCHEMA_DIR): string[] {
  if (!existsSync(dir)) throw new Error(`GraphQL schema folder not found: ${dir}`);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort((a, b) => (a === 'base.graphql' ? -1 : b === 'base.graphql' ? 1 : compareCodePoints(a, b)));
  return files.map((f) => readFileSync(path.join(dir, f), 'utf8'));
}

/**
 * Throws unless the request carries a valid API key. The admin key administers and reads nothing:
 * a leaked admin key must not be an unlimited data key (operators create an elite key to read).
 */
export function requireViewer(ctx: GraphQLContext): void {
  if (ctx.auth.kind === 'none') throw ctx.auth.error;
  if (ctx.auth.kind === 'admin') throw new AppError('ADMIN_KEY_NOT_FOR_DATA');
}

/** Throws unless the request carries the admin key. */
export function requireAdmin(ctx: GraphQLContext): void {
  if (ctx.auth.kind === 'admin') return;
  if (ctx.auth.kind === 'none' && ctx.auth.error.code === 'UNAUTHENTICATED') throw ctx.auth.error;
  throw new AppError('ADMIN_REQUIRED');
}

function hasDirective(field: GraphQLField<unknown, GraphQLContext>, name: string): boolean {
  return field.astNode?.directives?.some((d) => d.name.value === name) ?? false;
}

/**
 * True when the operation (`operationName` of `document`) selects a root Query field marked
 * @perKey, whose answer depends on the calling key: such answers are never shared through a cache
 * keyed on the plan (src/rest/router.ts, src/rest/graphql-get.ts).
 */
export function selectsPerKeyField(schema: GraphQLSchema, document: DocumentNode, operationName?: string): boolean {
  const operation = getOperationAST(document, operationName);
  if (!operation || operation.operation !== 'query') return false;
  const fields = schema.getQueryType()?.getFields() ?? {};
  // Root fields only: fragments spread at the root are looked into too.
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const seen = new Set<string>();
  const visit = (selections: readonly SelectionNode[]): boolean =>
    selections.some((s) => {
      if (s.kind === Kind.FIELD) {
        const field = fields[s.name.value];
        return field ? hasDirective(field, 'perKey') : false;
      }
      if (s.kind === Kind.INLINE_FRAGMENT) return visit(s.selectionSet.selections);
      const name = s.name.value;
      if (seen.has(name)) return false;
      seen.add(name);
      const fragment = fragments.get(name);
      return fragment ? visit(fragment.selectionSet.selections) : false;
    });
  return visit(operation.selectionSet.selections);
}

// Guards every root field, so no resolver can forget authentication, whatever the transport.
function guard(field: GraphQLField<unknown, GraphQLContext>, check: (ctx: GraphQLContext) => void): void {
  const resolve = field.resolve ?? defaultFieldResolver;
  field.resolve = (source, args, ctx, info) => {
    check(ctx);
    return resolve(source, args, ctx, info);
  };
  if (field.subscribe) {
    const subscribe = field.subscribe;
    field.subscribe = (source, args, ctx, info) => {
      check(ctx);
      return subscribe(source, args, ctx, info);
    };
  }
}

/** The fields that carry decimal odds (Odds.decimal, BestOdds.decimal, Value.decimalOdds, ...). */
const DECIMAL_ODDS_FIELDS = new Set(['decimal', 'decimalOdds']);

/**
 * Decimal odds are rounded where they are answered, every type alike (REST, GraphQL and the live
 * transports all execute this schema): the math keeps full precision, the answer no float noise.
 */
function roundDecimalOdds(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!DECIMAL_ODDS_FIELDS.has(field.name) || getNamedType(field.type) !== GraphQLFloat) continue;
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, ctx, info) => {
        const value: unknown = resolve(source, args, ctx, info);
        const round = (v: unknown) => (typeof v === 'number' ? roundTo(v, ODDS_DECIMAL_DIGITS) : v);
        return value instanceof Promise ? value.then(round) : round(value);
      };
    }
  }
}

/**
 * The one executable schema, used by Apollo (/graphql), the REST adapter (in-process execute) and the
 * live transports. Mutation fields and Query fields marked @admin need the admin key (Mutation
 * fields marked @apiKey an API key instead); every other Query and Subscription field needs an API key.
 */
export function buildSchema(): GraphQLSchema {
  // The schema's AST is kept with the schema: without locations it does not hold every token of the SDL.
  const schema = makeExecutableSchema({ typeDefs: loadTypeDefs(), resolvers, noLocation: true });
  checkEnumVocabulary(schema);
  roundDecimalOdds(schema);
  for (const type of [schema.getQueryType(), schema.getSubscriptionType()]) {
    for (const field of Object.values(type?.getFields() ?? {})) {
      guard(field, hasDirective(field, 'admin') ? requireAdmin : requireViewer);
    }
  }
  for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    guard(field, hasDirective(field, 'apiKey') ? requireViewer : requireAdmin);
  }
  return schema;
}
