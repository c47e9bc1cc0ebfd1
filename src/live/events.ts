import type { GraphQLSchema } from 'graphql';
import { LIVE_AUTH_FAILURES, LIVE_AUTH_MESSAGES, LiveAuthError, type LiveAuthFailure } from '../auth/live-key';
import { ENUM_VOCABULARY, rootFieldSchema, type JsonSchema, loadOperations } from '../graphql';
import { REPLAY_MAX_ENTRIES } from '../services/change-feed';
import { GLOBAL_STREAM } from '../services/live-streams';
import { SNAPSHOT_REASONS } from './protocol';
import { liveSnapshotDocument } from './snapshot';

// The table of the live channel's events (docs/live-protocol.md), each with its payload schema: what
// a client sends (subscribe, resync, subscribe_signals ...) and what it gets (live_odds, odds_change,
// line_signal, the acknowledgements, connect_error). The payloads of live_odds, odds_change and
// line_signal are the schemas of the GraphQL selections the adapters run (the snapshot query of
// snapshot.ts, operations/LiveOddsChanges.graphql, operations/LineSignalEvents.graphql), with their
// SDL descriptions; the rest is written here beside the protocol it describes. The AsyncAPI document
// (asyncapi.ts) is built from this table.

/** One event of the table: an AsyncAPI 3.0 message object (its key in the table names it in the document). */
export interface LiveEvent {
  /** The event as sent (the Socket.IO event name; SSE names its events alike). */
  name: string;
  title: string;
  summary?: string;
  description?: string;
  payload?: JsonSchema;
  examples?: unknown[];
}

/** `{ success: false, error }`: a refused subscribe or a failed push. */
const FAILURE: JsonSchema = {
  type: 'object',
  required: ['success', 'error'],
  additionalProperties: false,
  properties: {
    success: { type: 'boolean', const: false, description: 'false: this push or request failed' },
    error: { type: 'string', description: 'What went wrong (a bad subscribe field, a key revoked while connected, an internal error)' },
  },
};

const FILTER_PROPERTIES: Record<string, JsonSchema> = {
  game_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647, description: 'Only this game' },
  market_type: { type: 'string', enum: [...ENUM_VOCABULARY.LiveMarketType], description: 'Only this market type. player_props: every player prop and nothing else (snapshots carry markets.player_props, deltas the prop quotes with player_id, prop_type and is_alternate, docs/player-props.md); without market_type the game markets only, never a prop' },
  book_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647, description: 'Only this sportsbook' },
};

/** The events of the live channel, keyed by their message id, with their payload schemas read from `schema`. */
export function liveEvents(schema: GraphQLSchema): Record<string, LiveEvent> {
  const snapshot = rootFieldSchema(schema, liveSnapshotDocument(schema), 'live');
  const snapshotProperties = snapshot.properties as Record<string, JsonSchema>;
  const changes = loadOperations(schema).get('LiveOddsChanges');
  if (!changes) throw new Error('src/graphql/operations/LiveOddsChanges.graphql is missing');
  const signals = loadOperations(schema).get('LineSignalEvents');
  if (!signals) throw new Error('src/graphql/operations/LineSignalEvents.graphql is missing');
  const signalFilter: Record<string, JsonSchema> = {
    game_id: { oneOf: [FILTER_PROPERTIES.game_id!, { type: 'array', minItems: 1, maxItems: 50, items: FILTER_PROPERTIES.game_id! }], description: 'Only these games (one id or a list)' },
    kind: {
      oneOf: [
        { type: 'string', enum: [...ENUM_VOCABULARY.SignalKind] },
        { type: 'array', minItems: 1, maxItems: 50, items: { type: 'string', enum: [...ENUM_VOCABULARY.SignalKind] } },
      ],
      description: 'Only these kinds: steam, reverse_line_movement, market_leader (one or a list)',
    },
    market_type: {
      oneOf: [
        { type: 'string', enum: [...ENUM_VOCABULARY.MarketType] },
        { type: 'array', minItems: 1, maxItems: 50, items: { type: 'string', enum: [...ENUM_VOCABULARY.MarketType] } },
      ],
      description: 'Only these markets (one or a list)',
    },
  };
  const liveOdds: JsonSchema = {
    type: 'object',
    required: ['success', 'data', 'count', 'updated_at', 'reason', 'stream', 'seq'],
    properties: {
      success: { type: 'boolean', const: true, description: 'true: data holds the live games' },
      data: { ...snapshotProperties.items, description: 'The games being played within the filter, as GET /api/v1/nba/odds/live gives them' },
      count: { type: 'integer', minimum: 0, description: 'Number of games in data' },
      updated_at: snapshotProperties.updated_at,
      reason: { type: 'string', enum: [...SNAPSHOT_REASONS], description: 'snapshot: after subscribe (or the connection); interval: the periodic push; resync: asked for, or a reconnect whose missed deltas are no longer held' },
      stream: snapshotProperties.stream,
      seq: snapshotProperties.seq,
    },
  };

  return {
    subscribe: {
      name: 'subscribe',
      title: 'subscribe (client to server)',
      summary: 'The filter, and the options of the delta extension; with an optional Socket.IO acknowledgement',
      payload: {
        type: ['object', 'null'],
        additionalProperties: false,
        description: 'No payload (or null): every live game',
        properties: {
          ...FILTER_PROPERTIES,
          changes: { type: 'boolean', default: true, description: 'false: no odds_change for this socket, only the live_odds snapshots of the spec' },
          stream: {
            type: 'string',
            pattern: '^[0-9a-z]{1,64}$',
            description: `Reconnect: the stream of the last push applied (\`${GLOBAL_STREAM}\`), given with last_seq. The missed deltas come instead of a snapshot, on any API process, while the stored change log holds them all (72 hours) and they are at most ${REPLAY_MAX_ENTRIES}; otherwise a snapshot with reason resync`,
          },
          last_seq: { type: 'integer', minimum: 0, maximum: 2_147_483_647, description: 'Reconnect: the seq of the last delta (or snapshot) applied, given with stream' },
        },
        dependentRequired: { stream: ['last_seq'], last_seq: ['stream'] },
      },
      examples: [{ name: 'oneGameMoneyline', summary: 'One game, moneyline only', payload: { game_id: 264312, market_type: 'moneyline' } }],
    },
    subscribeAck: {
      name: 'subscribe acknowledgement',
      title: 'subscribe acknowledgement (server to client)',
      summary: 'The Socket.IO acknowledgement of subscribe: the filter in force, or why the payload was refused',
      payload: {
        type: 'object',
        required: ['success', 'filter'],
        properties: {
          success: { type: 'boolean', description: 'false: the payload was refused and the previous filter stays' },
          filter: { type: 'object', additionalProperties: false, properties: FILTER_PROPERTIES, description: 'The filter in force after this call' },
          error: { type: 'string', description: 'Why the payload was refused: "invalid subscribe payload: " and the field' },
        },
      },
      examples: [{ name: 'accepted', payload: { success: true, filter: { game_id: 264312, market_type: 'moneyline' } } }],
    },
    subscribeSignals: {
      name: 'subscribe_signals',
      title: 'subscribe_signals (client to server)',
      summary: 'The signal filter (Pro and Elite keys; the request is charged like subscribe); with an optional acknowledgement',
      payload: { type: ['object', 'null'], additionalProperties: false, description: 'No payload (or null): every signal', properties: signalFilter },
      examples: [{ name: 'steamOnTotals', summary: 'Steam on totals only', payload: { kind: 'steam', market_type: ['total'] } }],
    },
    subscribeSignalsAck: {
      name: 'subscribe_signals acknowledgement',
      title: 'subscribe_signals acknowledgement (server to client)',
      summary: 'The signal filter in force (lists), or why it was refused (a bad field, a plan without line movement)',
      payload: {
        type: 'object',
        required: ['success'],
        properties: {
          success: { type: 'boolean', description: 'false: refused; the previous signal filter stays' },
          filter: {
            type: 'object',
            additionalProperties: false,
            properties: Object.fromEntries(Object.entries(signalFilter).map(([k, v]) => [k, { type: 'array', items: (v.oneOf as JsonSchema[])[0]!, description: v.description }])),
            description: 'The signal filter in force after this call, each field a list',
          },
          error: { type: 'string', description: '"invalid subscribe_signals payload: " and the field, or the plan refusal' },
        },
      },
      examples: [{ name: 'accepted', payload: { success: true, filter: { kind: ['steam'], market_type: ['total'] } } }],
    },
    unsubscribeSignals: { name: 'unsubscribe_signals', title: 'unsubscribe_signals (client to server)', summary: 'No payload; an optional acknowledgement' },
    lineSignal: {
      name: 'line_signal',
      title: 'line_signal (server to client)',
      summary: 'A stored line-movement signal as GET /api/v1/nba/odds/signals serves it: a new steam, RLM or leader event, or a leader again when a book follows it',
      payload: rootFieldSchema(schema, signals, 'signal'),
    },
    unsubscribe: { name: 'unsubscribe', title: 'unsubscribe (client to server)', summary: 'No payload; an optional acknowledgement' },
    resync: { name: 'resync', title: 'resync (client to server)', summary: 'No payload; an optional acknowledgement, then a live_odds with reason resync' },
    done: {
      name: 'acknowledgement',
      title: 'unsubscribe / resync acknowledgement (server to client)',
      payload: { type: 'object', required: ['success'], properties: { success: { type: 'boolean', const: true, description: 'Always true' } } },
    },
    liveOdds: {
      name: 'live_odds',
      title: 'live_odds (server to client)',
      summary: 'A full snapshot of the live games within the filter (spec 6), or { success: false, error }',
      payload: { oneOf: [liveOdds, FAILURE] },
    },
    oddsChange: {
      name: 'odds_change',
      title: 'odds_change (server to client)',
      summary: 'A delta: the quotes and games one ingest changed within the filter (extension), possibly none',
      description:
        'One per ingest that changed something, on every filter (empty games and quotes when nothing in the filter changed), numbered by the global change log: ' +
        'seq is the ingest\'s version, base_seq the previous ingest\'s, the same on every API process. quotes: the displayed quote of every (game, book, market) in which a quote moved, appeared or was withdrawn: replace the outcome with the same game_id, book_id, ' +
        'market_type, period and side (is_available false: withdrawn). games: status, clock and score of the games that changed; a game no longer in_progress/live leaves the live set. ' +
        'Under market_type player_props the quotes are player props only, each the one quote of a player and line that the ingest changed (a game that starts playing: all its props), ' +
        'with player_id, prop_type and is_alternate beside the game keys: replace the prop outcome with the same game_id, book_id, market_type, side, player_id and is_alternate ' +
        '(and point, on an alternate line; a main line\'s point moves). Without player_props no prop quote is sent and no quote has these fields.',
      payload: rootFieldSchema(schema, changes, 'change'),
    },
    connectError: {
      name: 'connect_error',
      title: 'connect_error (server to client)',
      summary: 'Socket.IO error of a refused handshake',
      payload: {
        type: 'object',
        required: ['message'],
        properties: {
          message: { type: 'string', description: 'Which check failed, e.g. "' + LIVE_AUTH_MESSAGES.missing + '"; or "invalid subscribe payload: ..." for a bad filter in the handshake' },
          data: {
            type: 'object',
            description: 'Present when the key was refused',
            required: ['reason', 'status'],
            properties: {
              reason: { type: 'string', enum: [...LIVE_AUTH_FAILURES], description: 'missing, invalid or revoked key; expired subscription; plan without live odds; too many live connections for the plan' },
              status: { type: 'integer', enum: [401, 403, 429], description: 'The HTTP status of the same refusal on REST' },
            },
          },
        },
      },
      examples: Object.entries(LIVE_AUTH_MESSAGES).map(([reason, message]) => ({
        name: reason,
        payload: { message, data: { reason, status: new LiveAuthError(reason as LiveAuthFailure).status } },
      })),
    },
  };
}
