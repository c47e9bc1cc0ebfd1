import {
  getNullableType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { ERRORS } from '../errors';
import { ERROR_SCHEMA, type JsonSchema } from './envelope';
import { loadOperations } from '../graphql/operations';
import { paramMeta, type ParamMeta } from './params';
import type { Route } from './route';
import { ROUTES } from './routes';

// The OpenAPI 3.1 document, derived from the route table: parameters from each route's parameter
// schemas, response bodies from the GraphQL types its operation selects, wrapped by its envelope.

const SCALARS: Record<string, JsonSchema> = {
  Int: { type: 'integer' },
  Float: { type: 'number' },
  String: { type: 'string' },
  Boolean: { type: 'boolean' },
  ID: { type: 'string' },
  DateTime: { type: 'string', format: 'date-time' },
  Date: { type: 'string', format: 'date' },
  Long: { type: 'integer' },
  JSON: {},
};

function nullable(schema: JsonSchema): JsonSchema {
  // A nullable enum must list null among its values too, or null fails the enum.
  if (typeof schema.type === 'string' && Array.isArray(schema.enum)) return { ...schema, type: [schema.type, 'null'], enum: [...(schema.enum as unknown[]), null] };
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  if (Object.keys(schema).length === 0) return schema; // JSON: anything, null included
  return { anyOf: [schema, { type: 'null' }] };
}

/** JSON Schema of a selection on `type`. A field under @include/@skip is optional, others required. */
function selectionSchema(type: GraphQLObjectType, set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const visit = (selections: SelectionSetNode['selections'], conditional: boolean) => {
    for (const s of selections) {
      const isConditional = conditional || Boolean(s.directives?.some((d) => d.name.value === 'include' || d.name.value === 'skip'));
      if (s.kind === Kind.FIELD) {
        const key = s.alias?.value ?? s.name.value;
        if (s.name.value === '__typename') {
          properties[key] = { type: 'string' };
        } else {
          const field = type.getFields()[s.name.value]!;
          properties[key] = outputSchema(field.type, s.selectionSet, fragments);
        }
        if (!isConditional && !required.includes(key)) required.push(key);
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        visit(s.selectionSet.selections, isConditional);
      } else {
        const fragment = fragments.get(s.name.value);
        if (fragment) visit(fragment.selectionSet.selections, isConditional);
      }
    }
  };
  visit(set.selections, false);
  return { type: 'object', required, properties };
}

function outputSchema(type: GraphQLOutputType, set: SelectionSetNode | undefined, fragments: Map<string, FragmentDefinitionNode>): JsonSchema {
  const inner = getNullableType(type) as GraphQLOutputType;
  let schema: JsonSchema;
  if (isListType(inner)) schema = { type: 'array', items: outputSchema(inner.ofType, set, fragments) };
  else if (isObjectType(inner) && set) schema = selectionSchema(inner, set, fragments);
  else if (isEnumType(inner)) schema = { type: 'string', enum: inner.getValues().map((v) => v.name) };
  else if (isScalarType(inner)) schema = SCALARS[inner.name] ?? {};
  else schema = {};
  return isNonNullType(type) ? schema : nullable(schema);
}

/** JSON Schema of the value of the operation's root field `field`. */
export function rootFieldSchema(schema: GraphQLSchema, document: DocumentNode, field: string): JsonSchema {
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
  );
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const root = selectionSchema((operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType())!, operation.selectionSet, fragments);
  const value = (root.properties as Record<string, JsonSchema>)[field];
  if (!value) throw new Error(`operation ${operation.name?.value} has no root field ${field}`);
  return value;
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

function errorResponse(status: number): JsonSchema {
  const code = Object.values(ERRORS).find((e) => e.status === status);
  return { description: code?.message ?? 'error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
}

/** The OpenAPI 3.1 document of `routes` (default: the whole route table). */
export function buildOpenApi(schema: GraphQLSchema, routes: readonly Route[] = ROUTES, prefix = '/api/v1/nba/odds'): JsonSchema {
  const operations = loadOperations(schema);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const document = route.eventStream ? route.eventStream.document(schema) : operations.get(route.operation);
    if (!document) throw new Error(`route ${route.path}: no operation ${route.operation}`);
    const parameters = Object.entries(route.params.shape).map(([name, param]) => {
      const meta = paramMeta(param) as ParamMeta & { required?: boolean };
      const inPath = route.path.includes(`:${name}`);
      return {
        name,
        in: inPath ? 'path' : 'query',
        required: inPath || Boolean(meta.required),
        description: meta.description + (meta.list ? ' (comma-separated and/or repeated)' : ''),
        schema: meta.openapi,
        ...(meta.list && { style: 'form', explode: true }),
      };
    });
    const responses: Record<string, unknown> = {
      200: {
        description: route.summary,
        content: { [route.eventStream ? 'text/event-stream' : 'application/json']: { schema: route.envelope.schema(rootFieldSchema(schema, document, route.envelope.field)) } },
      },
    };
    for (const status of [400, 401, 403, 429, ...(route.errors ?? []), 500]) responses[status] = errorResponse(status);
    paths[prefix + openApiPath(route.path)] = {
      get: {
        operationId: route.operation,
        summary: route.summary,
        ...(route.description && { description: route.description }),
        ...(route.tags && { tags: route.tags }),
        parameters,
        responses,
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Odds Data Service',
      version: '1.0.0',
      description: 'Basketball games, boxscores and sportsbook odds. Unknown query parameters are ignored. See the README, section API.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key, sk_...' } },
      schemas: { Error: ERROR_SCHEMA },
    },
    paths,
  };
}
