import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Kind, parse, validate, type DocumentNode, type ExecutionResult, type FieldNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { AppError } from '../errors';
import { OPERATIONS_DIR } from '../graphql';
import type { LiveOddsPayload } from './protocol';

// The live snapshot (`live_odds`): the query the Socket.IO adapter runs for it, and the payload a
// result of it (or an SSE stream's snapshot event) becomes. The AsyncAPI document describes the same
// selection (events.ts).

/**
 * The snapshot query: GET /odds/live's operation (LiveOdds.graphql: the same variables, selection
 * and fragments, props included under player_props) plus the stream and seq of a push.
 * @throws Error if invalid
 */
export function liveSnapshotDocument(schema: GraphQLSchema, dir = OPERATIONS_DIR): DocumentNode {
  const liveOdds = parse(readFileSync(path.join(dir, 'LiveOdds.graphql'), 'utf8'));
  const operation = liveOdds.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const live = operation.selectionSet.selections[0] as FieldNode;
  const pushFields = (parse('{ stream seq }').definitions[0] as OperationDefinitionNode).selectionSet.selections;
  const snapshot: OperationDefinitionNode = {
    ...operation,
    name: { kind: Kind.NAME, value: 'LiveOddsSnapshot' },
    selectionSet: { ...operation.selectionSet, selections: [{ ...live, selectionSet: { ...live.selectionSet!, selections: [...live.selectionSet!.selections, ...pushFields] } }] },
  };
  const fragments = liveOdds.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION);
  const shared = parse(readFileSync(path.join(dir, 'fragments.graphql'), 'utf8')).definitions;
  const document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [snapshot, ...fragments, ...shared] };
  const errors = validate(schema, document).filter((e) => !/Fragment ".*" is never used/.test(e.message));
  if (errors.length) throw new Error(`live snapshot document: ${errors.map((e) => e.message).join('; ')}`);
  return document;
}

/** A snapshot that applies at `seq` of the group's stream. */
export interface Snapshot {
  payload: LiveOddsPayload;
  seq: number;
}

export function snapshotPayload(result: ExecutionResult, reason: string): Snapshot | { error: string } {
  if (result.errors?.length) {
    const original = result.errors[0]!.originalError;
    return { error: original instanceof AppError ? original.message : 'internal error' };
  }
  const live = (result.data as { live: { updated_at: string | null; stream: string; seq: number; items: unknown[] } }).live;
  return {
    seq: live.seq,
    payload: { success: true, data: live.items, count: live.items.length, updated_at: live.updated_at, reason, stream: live.stream, seq: live.seq },
  };
}
