import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { enumVariables } from './enums';
import { MARKET_TYPES } from '../domain';
import {
  getNamedType,
  isEnumType,
  Kind,
  parse,
  typeFromAST,
  validate,
  visit,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
} from 'graphql';

/** src/graphql/operations (also when running from dist/graphql, which has no .graphql files). */
export const OPERATIONS_DIR = [path.join(__dirname, 'operations'), path.resolve(__dirname, '..', '..', 'src', 'graphql', 'operations')].find((d) =>
  existsSync(path.join(d, 'fragments.graphql')),
) ?? path.join(__dirname, 'operations');

/** Keeps only the fragments an operation uses, directly or through other fragments. */
function withUsedFragments(operation: DocumentNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): DocumentNode {
  const used = new Set<string>();
  const pending = [operation as DocumentNode | FragmentDefinitionNode];
  while (pending.length) {
    visit(pending.pop()!, {
      FragmentSpread(node) {
        const name = node.name.value;
        const fragment = fragments.get(name);
        if (fragment && !used.has(name)) {
          used.add(name);
          pending.push(fragment);
        }
      },
    });
  }
  return { ...operation, definitions: [...operation.definitions, ...[...used].map((n) => fragments.get(n)!)] };
}

/** The operations already loaded, per schema and folder: REST, the transports and the contracts share one load. */
const loaded = new WeakMap<GraphQLSchema, Map<string, ReadonlyMap<string, DocumentNode>>>();

/**
 * Every named operation of src/graphql/operations/*.graphql (one per file, named like the file), with
 * the fragments of fragments.graphql it uses, validated against `schema`; read once per schema and
 * folder (the documents are shared: nothing may change them).
 * @throws Error naming the file for a parse or validation error (the app does not start).
 */
export function loadOperations(schema: GraphQLSchema, dir = OPERATIONS_DIR): ReadonlyMap<string, DocumentNode> {
  let ofSchema = loaded.get(schema);
  if (!ofSchema) loaded.set(schema, (ofSchema = new Map()));
  let operations = ofSchema.get(dir);
  if (!operations) ofSchema.set(dir, (operations = readOperations(schema, dir)));
  return operations;
}

function readOperations(schema: GraphQLSchema, dir: string): Map<string, DocumentNode> {
  // Without locations: kept for the life of the process, a document with them also holds every token
  // of its text (about 1 MB for all of them); validation messages here name the file instead.
  const fragmentsDoc = parse(readFileSync(path.join(dir, 'fragments.graphql'), 'utf8'), { noLocation: true });
  const fragments = new Map(
    fragmentsDoc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
  );
  const operations = new Map<string, DocumentNode>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.graphql') && f !== 'fragments.graphql')) {
    const name = file.replace(/\.graphql$/, '');
    const document = withUsedFragments(parse(readFileSync(path.join(dir, file), 'utf8'), { noLocation: true }), fragments);
    const errors = validate(schema, document);
    if (errors.length) throw new Error(`src/graphql/operations/${file}: ${errors.map((e) => e.message).join('; ')}`);
    operations.set(name, document);
  }
  return operations;
}

/**
 * The variables of `document`'s operation from values that carry the domain's lower-case words for
 * enum variables (REST parameters, Socket.IO filters): each such word becomes its enum value name
 * (src/graphql/enums.ts). Other values pass unchanged.
 */
export function variablesFor(schema: GraphQLSchema, document: DocumentNode): (values: Record<string, unknown>) => Record<string, unknown> {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const enums = new Map<string, string>();
  for (const definition of operation?.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type as Parameters<typeof typeFromAST>[1]);
    const named = type && getNamedType(type);
    if (named && isEnumType(named)) enums.set(definition.variable.name.value, named.name);
  }
  return (values) => enumVariables(schema, enums, values);
}

/**
 * Variables of the LiveOdds operation (GET /odds/live) and of every live push (the Socket.IO and SSE
 * snapshots, which use the same selection, and the LiveOddsChanges deltas): the filter plus the
 * @include flag of each market key, so a market type narrows the markets object to that key, and
 * player_props to markets.player_props and the deltas' quotes to props with their prop fields.
 */
export function liveOddsVariables(filter: { game_id?: number | null | undefined; market_type?: string | null | undefined; book_id?: number | null | undefined; period?: string | null | undefined }) {
  const only = filter.market_type ?? null;
  return {
    game_id: filter.game_id ?? null,
    market_type: only,
    book_id: filter.book_id ?? null,
    book_ids: filter.book_id != null ? [filter.book_id] : null,
    // The markets of one period (GET /live?period=); the full game when none is given.
    period: filter.period ?? null,
    // One @include flag per game market, named as the market (the operation's variables).
    ...Object.fromEntries(MARKET_TYPES.map((type) => [type, !only || only === type])),
    player_props: only === 'player_props',
  };
}

// The document of the resumable odds stream (Subscription.oddsStream): the selections of /live-odds
// spliced into it, so the stream's `live_odds` and `odds_change` events carry exactly what the
// Socket.IO events carry: a snapshot selects what GET /odds/live selects (LiveOdds.graphql, plus the
// stream, seq and reason of a push), a change what LiveOddsChanges.graphql selects. Both the SSE
// adapter (which runs it) and the OpenAPI document (which describes its events) build it here.

const STREAM_OPERATION = `
subscription OddsStream($game_id: Int, $market_type: LiveMarketType, $book_id: Int, $book_ids: [Int!], $period: Period, $moneyline: Boolean!, $spread: Boolean!, $total: Boolean!, $player_props: Boolean = false, $last_event_id: String) {
  event: oddsStream(gameId: $game_id, marketType: $market_type, bookId: $book_id, lastEventId: $last_event_id) {
    sequence
    kind
    resyncReason
    snapshot { stream seq reason }
    change { __typename }
  }
}`;

/** The root field of the event's value in a result of the document. */
export const ODDS_STREAM_FIELD = 'event';

const firstField = (document: DocumentNode): FieldNode => {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  return operation.selectionSet.selections[0] as FieldNode;
};

/**
 * The stream's subscription document, from the operation files in `dir` (src/graphql/operations).
 * @throws Error if it does not validate against `schema` (the app does not start)
 */
export function oddsStreamDocument(schema: GraphQLSchema, dir: string): DocumentNode {
  const read = (file: string) => parse(readFileSync(path.join(dir, file), 'utf8'));
  const liveOdds = read('LiveOdds.graphql');
  const liveSelections = firstField(liveOdds).selectionSet!.selections;
  const changeSelections = firstField(read('LiveOddsChanges.graphql')).selectionSet!.selections;
  const template = parse(STREAM_OPERATION);
  const operation = template.definitions[0] as OperationDefinitionNode;
  const event = operation.selectionSet.selections[0] as FieldNode;
  const selections = event.selectionSet!.selections.map((s): SelectionNode => {
    if (s.kind !== Kind.FIELD || !s.selectionSet) return s;
    if (s.name.value === 'snapshot') return { ...s, selectionSet: { ...s.selectionSet, selections: [...s.selectionSet.selections, ...liveSelections] } };
    return { ...s, selectionSet: { ...s.selectionSet, selections: changeSelections } };
  });
  const document: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [
      { ...operation, selectionSet: { ...operation.selectionSet, selections: [{ ...event, selectionSet: { ...event.selectionSet!, selections } }] } },
      ...liveOdds.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION),
      ...read('fragments.graphql').definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION),
    ],
  };
  const errors = validate(schema, document).filter((e) => !/Fragment ".*" is never used/.test(e.message));
  if (errors.length) throw new Error(`odds stream document: ${errors.map((e) => e.message).join('; ')}`);
  return document;
}
