import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Kind, parse, validate, type DocumentNode, type FieldNode, type GraphQLSchema, type OperationDefinitionNode, type SelectionNode } from 'graphql';

// The document of the resumable odds stream (Subscription.oddsStream): the selections of /live-odds
// spliced into it, so the stream's `live_odds` and `odds_change` events carry exactly what the
// Socket.IO events carry: a snapshot selects what GET /odds/live selects (LiveOdds.graphql, plus the
// stream, seq and reason of a push), a change what LiveOddsChanges.graphql selects. Both the SSE
// transport (which runs it) and the OpenAPI document (which describes its events) build it here.

const STREAM_OPERATION = `
subscription OddsStream($game_id: Int, $market_type: LiveMarketType, $book_id: Int, $book_ids: [Int!], $moneyline: Boolean!, $spread: Boolean!, $total: Boolean!, $player_props: Boolean = false, $last_event_id: String) {
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
