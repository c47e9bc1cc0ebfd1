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

// JSON Schema (2020-12, as OpenAPI 3.1 and AsyncAPI 3.0 use it) of what an operation document
// selects: the REST bodies (src/rest/openapi.ts) and the Socket.IO payloads (src/live/
// events.ts) are GraphQL results, so their schemas follow from the selection. Every property takes
// the description of its GraphQL field, so descriptions are written once, in schema/*.graphql.

export type JsonSchema = Record<string, unknown>;

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

/** `schema` or null. */
export function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') {
    const { enum: values, ...rest } = schema;
    return { ...rest, type: [schema.type, 'null'], ...(Array.isArray(values) && { enum: [...values, null] }) };
  }
  if (Object.keys(schema).length === 0) return schema; // JSON: anything, null included
  return { anyOf: [schema, { type: 'null' }] };
}

/** A schema with a description (kept beside a oneOf/anyOf, never inside it). */
function described(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  return description ? { ...schema, description } : schema;
}

/** JSON Schema of a selection on `type`. A field under @include/@skip is optional, others required. */
function selectionSchema(type: GraphQLObjectType, set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  // A field selected twice under one key (a fragment's and the operation's own) is one field whose
  // selections GraphQL merges: so are they here.
  const seen = new Map<string, SelectionSetNode['selections']>();
  const visit = (selections: SelectionSetNode['selections'], conditional: boolean) => {
    for (const s of selections) {
      const isConditional = conditional || Boolean(s.directives?.some((d) => d.name.value === 'include' || d.name.value === 'skip'));
      if (s.kind === Kind.FIELD) {
        const key = s.alias?.value ?? s.name.value;
        if (s.name.value === '__typename') {
          properties[key] = { type: 'string', description: 'Name of the GraphQL type' };
        } else {
          const field = type.getFields()[s.name.value]!;
          const merged = s.selectionSet ? [...(seen.get(key) ?? []), ...s.selectionSet.selections] : undefined;
          if (merged) seen.set(key, merged);
          const selectionSet = s.selectionSet && merged ? { ...s.selectionSet, selections: merged } : s.selectionSet;
          properties[key] = described(outputSchema(field.type, selectionSet, fragments), field.description);
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
  // REST and Socket.IO speak enum values in lower case (src/rest/enum-values.ts).
  else if (isEnumType(inner)) schema = { type: 'string', enum: inner.getValues().map((v) => v.name.toLowerCase()) };
  else if (isScalarType(inner)) schema = SCALARS[inner.name] ?? {};
  else schema = {};
  return isNonNullType(type) ? schema : nullable(schema);
}

/**
 * JSON Schema of the value of the root field `field` (its alias when it has one) of the document's
 * operation (query or subscription), with the root field's description.
 * @throws Error when the operation has no such root field
 */
export function rootFieldSchema(schema: GraphQLSchema, document: DocumentNode, field: string): JsonSchema {
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
  );
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const rootType = operation.operation === 'subscription' ? schema.getSubscriptionType() : operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  const root = selectionSchema(rootType!, operation.selectionSet, fragments);
  const value = (root.properties as Record<string, JsonSchema>)[field];
  if (!value) throw new Error(`operation ${operation.name?.value} has no root field ${field}`);
  return value;
}
