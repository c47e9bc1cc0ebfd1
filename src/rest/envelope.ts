import { AppError, ERRORS, type ErrorCode } from '../errors';
import { RESYNC_REASONS, type JsonSchema } from '../graphql';

// The spec's envelopes (section 1) and how a GraphQL result becomes one. A route names its envelope
// with one of the constructors below; openapi.ts asks the same object for the body's JSON Schema.

export type { JsonSchema };
type Params = Record<string, unknown>;

export interface Envelope {
  kind: 'list' | 'page' | 'item' | 'events';
  /** The root field of the operation's result that holds the payload. */
  field: string;
  /** The response body of a successful result (or throws AppError, e.g. 404 for a missing item). */
  body(data: Record<string, unknown>, params: Params): Record<string, unknown>;
  /** JSON Schema of the body, given the schema of the root field's value. */
  schema(field: JsonSchema): JsonSchema;
}

const success = { type: 'boolean', const: true, description: 'true: the request succeeded' };
const count = { type: 'integer', minimum: 0, description: 'Number of records in data' };

/** `schema` with `description` unless it has one (the GraphQL field's own comes first). */
const described = (schema: JsonSchema, description: string): JsonSchema => (schema.description ? schema : { ...schema, description });

function asList(value: unknown): { items: unknown[]; rest: Record<string, unknown> } {
  if (Array.isArray(value)) return { items: value, rest: {} };
  const { items, ...rest } = (value ?? {}) as { items?: unknown[] };
  return { items: items ?? [], rest };
}

/** Items of a root field that holds `{ items, updated_at? }` or a bare list. */
function itemsSchema(field: JsonSchema): JsonSchema {
  return field.type === 'array' ? field : ((field.properties as Record<string, JsonSchema>).items ?? { type: 'array' });
}

/**
 * `{ success, data: [..], count }`. The root field is a list, or an object `{ items, updated_at? }`
 * whose `updated_at` is copied beside data (live odds, movement).
 */
export function list(field: string): Envelope {
  return {
    kind: 'list',
    field,
    body(data) {
      const { items, rest } = asList(data[field]);
      return { success: true, data: items, count: items.length, ...('updated_at' in rest && { updated_at: rest.updated_at }) };
    },
    schema(fieldSchema) {
      const updatedAt = (fieldSchema.properties as Record<string, JsonSchema> | undefined)?.updated_at;
      return {
        type: 'object',
        required: ['success', 'data', 'count', ...(updatedAt ? ['updated_at'] : [])],
        properties: {
          success,
          data: described(itemsSchema(fieldSchema), 'The records'),
          count,
          ...(updatedAt && { updated_at: described(updatedAt, 'When the newest included quote was last seen') }),
        },
      };
    },
  };
}

/**
 * `{ success, data: [..], count, pagination: { limit, offset, total?, has_more? } }` from a root
 * field `{ items, total? }` and the route's limit/offset parameters.
 */
export function page(field: string): Envelope {
  return {
    kind: 'page',
    field,
    body(data, params) {
      const { items, rest } = asList(data[field]);
      const limit = params.limit as number;
      const offset = params.offset as number;
      const total = typeof rest.total === 'number' ? rest.total : undefined;
      const pagination = total === undefined ? { limit, offset } : { limit, offset, total, has_more: offset + items.length < total };
      return { success: true, data: items, count: items.length, pagination };
    },
    schema(fieldSchema) {
      const hasTotal = Boolean((fieldSchema.properties as Record<string, unknown> | undefined)?.total);
      const int = (description: string) => ({ type: 'integer', minimum: 0, description });
      return {
        type: 'object',
        required: ['success', 'data', 'count', 'pagination'],
        properties: {
          success,
          data: described(itemsSchema(fieldSchema), 'The records of this page'),
          count: described(count, 'Number of records on this page'),
          pagination: {
            type: 'object',
            description: 'Where this page lies among the records matching the filters',
            required: ['limit', 'offset', ...(hasTotal ? ['total', 'has_more'] : [])],
            properties: {
              limit: int('Page size, as asked (default 100, at most 1000)'),
              offset: int('Zero-based index of the first record of this page'),
              ...(hasTotal && { total: int('Number of records matching the filters, on every page'), has_more: { type: 'boolean', description: 'true when records follow this page' } }),
            },
          },
        },
      };
    },
  };
}

/** `{ success, data: {..} }`; a null root field is a 404 with `notFound`'s message. */
export function item(field: string, notFound: ErrorCode = 'NOT_FOUND'): Envelope {
  return {
    kind: 'item',
    field,
    body(data) {
      const value = data[field];
      if (value === null || value === undefined) throw new AppError(notFound);
      return { success: true, data: value };
    },
    schema(fieldSchema) {
      const { type, ...rest } = fieldSchema;
      // the 404 takes the null case, so a 200 body always has an object
      const nonNull = Array.isArray(type) ? { ...rest, type: type.filter((t) => t !== 'null') } : fieldSchema;
      return { type: 'object', required: ['success', 'data'], properties: { success, data: described(nonNull, 'The record') } };
    },
  };
}

/**
 * A Server-Sent Events stream (docs/live-protocol.md) whose root field is one event: never a JSON
 * body (the SSE transport writes the events), and a schema that describes each event's `data`.
 */
export function events(field: string): Envelope {
  return {
    kind: 'events',
    field,
    body() {
      throw new Error('an event stream has no JSON body');
    },
    schema(fieldSchema) {
      const parts = (fieldSchema.properties ?? {}) as Record<string, JsonSchema>;
      const nonNull = (s: JsonSchema | undefined): JsonSchema => (s?.anyOf ? ((s.anyOf as JsonSchema[])[0] ?? {}) : (s ?? {}));
      const snapshot = nonNull(parts.snapshot);
      const snapshotParts = (snapshot.properties ?? {}) as Record<string, JsonSchema>;
      const liveOdds = {
        type: 'object',
        required: ['success', 'data', 'count', 'updated_at', 'reason', 'stream', 'seq'],
        properties: {
          success,
          data: itemsSchema(snapshot),
          count: { type: 'integer', minimum: 0, description: 'Number of games in data' },
          updated_at: snapshotParts.updated_at ?? {},
          reason: { type: 'string', enum: ['snapshot', 'interval', 'resync'], description: 'Why this snapshot: the first event, the periodic snapshot, or a resync' },
          stream: { type: 'string', const: 'global', description: 'Always global: the sequence is the database-wide one, valid on every process and across restarts' },
          seq: { type: 'integer', description: 'The global sequence number of the last change this snapshot includes (also the event id)' },
          resync_reason: { type: 'string', enum: [...RESYNC_REASONS], description: 'Why a Last-Event-ID could not be resumed: older than the change log keeps, never issued by this database, or followed by more changes than a replay sends (a snapshot is smaller)' },
        },
      };
      const heartbeat = { type: 'object', required: ['server_time'], properties: { server_time: { type: 'string', format: 'date-time', description: 'The server clock when the heartbeat was sent' } } };
      return {
        type: 'string',
        description:
          'Server-Sent Events. `id:` is the global sequence number (give it back as Last-Event-ID). Events: live_odds (a snapshot, or ' +
          '{success: false, error} before the stream ends), odds_change (a delta), heartbeat (server time), and with signals= line_signal (a stored signal as GET /signals gives it, no id). x-events gives the JSON of each `data:` line.',
        'x-events': { live_odds: liveOdds, odds_change: nonNull(parts.change), heartbeat },
      };
    },
  };
}

/** The body of every error: `{ success: false, error }`. */
export function errorBody(error: AppError): { success: false; error: string } {
  return { success: false, error: error.message };
}

/** JSON Schema of the error body. */
export const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['success', 'error'],
  description: 'The body of every failure (spec 7)',
  properties: {
    success: { type: 'boolean', const: false, description: 'false: the request failed' },
    error: { type: 'string', description: 'What went wrong, in words meant for the developer (the parameter and what it allows, the plan needed, ...)' },
  },
};

/** HTTP status of an error code. */
export const statusOf = (code: ErrorCode): number => ERRORS[code].status;
