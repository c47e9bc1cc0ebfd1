import {
  getNamedType,
  getNullableType,
  isEnumType,
  isListType,
  isObjectType,
  Kind,
  typeFromAST,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

// GraphQL enum values are UPPER_CASE (MONEYLINE, WON); the REST interface speaks the spec's lower
// case (moneyline, won). Per operation, once: which response keys hold enum values (lowered in the
// REST body) and which variables are enums (REST parameter values raised before execution).

/** Response keys (aliases) whose values are enums; a nested tree for object fields. */
export type EnumTree = { [key: string]: true | EnumTree };

function collect(type: GraphQLObjectType, set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, out: EnumTree): void {
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) {
      const field = type.getFields()[s.name.value];
      if (!field) continue;
      const named = getNamedType(field.type);
      const key = s.alias?.value ?? s.name.value;
      if (isEnumType(named)) out[key] = true;
      else if (isObjectType(named) && s.selectionSet) {
        const sub: EnumTree = {};
        collect(named, s.selectionSet, fragments, sub);
        if (Object.keys(sub).length) out[key] = { ...((out[key] as EnumTree | undefined) ?? {}), ...sub };
      }
    } else if (s.kind === Kind.INLINE_FRAGMENT) {
      collect(type, s.selectionSet, fragments, out);
    } else {
      const fragment = fragments.get(s.name.value);
      if (fragment) collect(type, fragment.selectionSet, fragments, out);
    }
  }
}

/** The enum-valued response keys of an operation's result. */
export function enumTree(schema: GraphQLSchema, document: DocumentNode): EnumTree {
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
  );
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const out: EnumTree = {};
  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  collect(root!, operation.selectionSet, fragments, out);
  return out;
}

/** `data` with every enum value under `tree` in lower case (a copy; arrays followed). */
export function lowerEnums(data: unknown, tree: EnumTree): unknown {
  if (Array.isArray(data)) return data.map((d) => lowerEnums(d, tree));
  if (!data || typeof data !== 'object') return data;
  const out: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const [key, sub] of Object.entries(tree)) {
    const value = out[key];
    if (sub === true) out[key] = Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v.toLowerCase() : v)) : typeof value === 'string' ? value.toLowerCase() : value;
    else if (value !== undefined) out[key] = lowerEnums(value, sub);
  }
  return out;
}

/** Names of the operation's variables whose type is an enum or a list of one. */
export function enumVariables(schema: GraphQLSchema, document: DocumentNode): string[] {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  return (operation.variableDefinitions ?? []).flatMap((v) => {
    let type = getNullableType(typeFromAST(schema, v.type as never));
    if (isListType(type)) type = getNullableType(type.ofType);
    return type && isEnumType(type) ? [v.variable.name.value] : [];
  });
}

/** `variables` with the named enum variables' string values in upper case. */
export function raiseEnums(variables: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  if (!names.length) return variables;
  const out = { ...variables };
  const up = (v: unknown) => (typeof v === 'string' ? v.toUpperCase() : v);
  for (const name of names) {
    const value = out[name];
    if (value !== undefined && value !== null) out[name] = Array.isArray(value) ? value.map(up) : up(value);
  }
  return out;
}
