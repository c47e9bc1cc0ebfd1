import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';

// Bounds on what one GraphQL request may ask for, as validation rules: a query over the limit is
// rejected before any resolver runs, with extensions.code QUERY_TOO_COMPLEX.

/** Deepest field nesting allowed (the REST operations need 6). */
export const MAX_DEPTH = 10;
/** Most fields one operation may select, fragments expanded (a full games page selects ~150). */
export const MAX_COST = 1000;

function measure(selectionSet: SelectionSetNode, fragments: Record<string, FragmentDefinitionNode>, seen: ReadonlySet<string>): { depth: number; cost: number } {
  let depth = 0;
  let cost = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const inner = selection.selectionSet ? measure(selection.selectionSet, fragments, seen) : { depth: 0, cost: 0 };
      depth = Math.max(depth, inner.depth + 1);
      cost += 1 + inner.cost;
    } else {
      const set =
        selection.kind === Kind.INLINE_FRAGMENT
          ? selection.selectionSet
          : seen.has(selection.name.value)
            ? undefined // a fragment cycle: the standard NoFragmentCycles rule reports it
            : fragments[selection.name.value]?.selectionSet;
      if (!set) continue;
      const inner = measure(set, fragments, selection.kind === Kind.FRAGMENT_SPREAD ? new Set([...seen, selection.name.value]) : seen);
      depth = Math.max(depth, inner.depth);
      cost += inner.cost;
    }
  }
  return { depth, cost };
}

/**
 * Validation rule rejecting operations nested deeper than `maxDepth` fields or selecting more than
 * `maxCost` fields in all (fragments counted where spread).
 */
export function complexityLimit(maxDepth = MAX_DEPTH, maxCost = MAX_COST) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = Object.fromEntries(
      context
        .getDocument()
        .definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((f) => [f.name.value, f]),
    );
    return {
      OperationDefinition(node) {
        const { depth, cost } = measure(node.selectionSet, fragments, new Set());
        const name = node.name ? `operation ${node.name.value}` : 'the operation';
        if (depth > maxDepth) {
          context.reportError(
            new GraphQLError(`Query too deep: ${name} nests ${depth} levels of fields, the limit is ${maxDepth}`, {
              nodes: [node],
              extensions: { code: 'QUERY_TOO_COMPLEX' },
            }),
          );
        }
        if (cost > maxCost) {
          context.reportError(
            new GraphQLError(`Query too costly: ${name} selects ${cost} fields, the limit is ${maxCost}`, {
              nodes: [node],
              extensions: { code: 'QUERY_TOO_COMPLEX' },
            }),
          );
        }
      },
    };
  };
}
