import type { GraphQLSchema } from 'graphql';
import { LIVE_AUTH_FAILURES, LIVE_AUTH_MESSAGES, LiveAuthError, type LiveAuthFailure } from '../auth/live-key';
import { ENUM_VOCABULARY } from '../graphql/enums';
import { rootFieldSchema, type JsonSchema } from '../graphql/json-schema';
import { IDLE_MS, WINDOW } from '../graphql/live-streams';
import { loadOperations } from '../graphql/operations';
import { LIVE_NAMESPACE, liveSnapshotDocument, SUBSCRIBE_GRACE_MS } from './socket-io';

// The AsyncAPI 3.0 document of the Socket.IO namespace /live-odds (/api/v1/asyncapi.json): its events,
// their payloads, the handshake's key and the snapshot + delta protocol of docs/live-protocol.md. The
// payloads of live_odds and odds_change are the schemas of the GraphQL selections the namespace runs
// (the snapshot query of socket-io.ts, operations/LiveOddsChanges.graphql), with their SDL
// descriptions; the rest is written here beside the code it describes. @asyncapi/parser validates it
// (test/integration/live-asyncapi.test.ts).

/** Why a live_odds snapshot was sent (socket-io.ts: join, resync, the interval timer). */
const SNAPSHOT_REASONS = ['snapshot', 'interval', 'resync'] as const;

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

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

export interface AsyncApiOptions {
  /** LIVE_PUSH_INTERVAL_MS: the period of the interval snapshots. */
  pushIntervalMs: number;
}

/** The AsyncAPI 3.0 document of /live-odds. */
export function buildAsyncApi(schema: GraphQLSchema, options: AsyncApiOptions): JsonSchema {
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
  const seconds = Math.round(options.pushIntervalMs / 1000);

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
    asyncapi: '3.0.0',
    id: 'urn:odds-data-service:live-odds',
    info: {
      title: 'Odds Data Service: live odds push channel',
      version: '1.0.0',
      description:
        `The Socket.IO 4 namespace \`${LIVE_NAMESPACE}\` on the API's own host and port (Socket.IO path /socket.io/, transports websocket and polling). ` +
        'Socket.IO events are the messages below, each named by its event. The spec\'s channel (live_odds snapshots about every ' +
        `${seconds} s, filtered by subscribe) is extended by odds_change deltas with sequence numbers: keep stream and seq from the latest ` +
        'snapshot; apply an odds_change of the same stream whose base_seq equals your seq and take its seq; ignore one whose seq is not above ' +
        'yours; on a gap send resync. A new snapshot replaces your state. docs/live-protocol.md has an example session. ' +
        'The same data is on GraphQL over WebSocket at /graphql (subscriptions liveOdds and liveOddsChanges). ' +
        'Line-movement signals (steam, reverse line movement, market leaders: docs/signals.md) come only to sockets that ask with subscribe_signals, as line_signal events ' +
        '(GraphQL: subscription lineSignalEvents; SSE /api/v1/nba/odds/stream: signals=).',
      license: { name: 'Proprietary: all rights reserved' },
      tags: [{ name: 'live', description: 'Live odds of the games being played' }],
    },
    defaultContentType: 'application/json',
    servers: {
      api: {
        host: '{host}',
        protocol: 'ws',
        pathname: '/socket.io',
        title: 'This service',
        description: 'The host and port that served this document (Socket.IO over WebSocket, with HTTP long-polling as fallback)',
        variables: { host: { default: 'localhost:3000', description: 'Host and port of the API process' } },
        security: [ref('securitySchemes', 'apiKey')],
      },
    },
    channels: {
      liveOdds: {
        address: LIVE_NAMESPACE,
        title: 'Live odds',
        description:
          'The namespace. Without a filter a socket gets every live game; the filter (in subscribe, or in the handshake auth beside apiKey, ' +
          `or in its query string) narrows snapshots and deltas alike. A socket whose handshake names no filter gets its first snapshot after subscribe, or after ${SUBSCRIBE_GRACE_MS} ms without one.`,
        servers: [{ $ref: '#/servers/api' }],
        messages: {
          subscribe: ref('messages', 'subscribe'),
          subscribeAck: ref('messages', 'subscribeAck'),
          unsubscribe: ref('messages', 'unsubscribe'),
          resync: ref('messages', 'resync'),
          done: ref('messages', 'done'),
          liveOdds: ref('messages', 'liveOdds'),
          oddsChange: ref('messages', 'oddsChange'),
          connectError: ref('messages', 'connectError'),
          subscribeSignals: ref('messages', 'subscribeSignals'),
          subscribeSignalsAck: ref('messages', 'subscribeSignalsAck'),
          unsubscribeSignals: ref('messages', 'unsubscribeSignals'),
          lineSignal: ref('messages', 'lineSignal'),
        },
      },
    },
    operations: {
      subscribe: {
        action: 'send',
        channel: { $ref: '#/channels/liveOdds' },
        title: 'Set the filter',
        summary: 'Sets (or replaces) the filter; a live_odds snapshot of the new filter follows, then its deltas',
        messages: [{ $ref: '#/channels/liveOdds/messages/subscribe' }],
        reply: { channel: { $ref: '#/channels/liveOdds' }, messages: [{ $ref: '#/channels/liveOdds/messages/subscribeAck' }] },
      },
      unsubscribe: {
        action: 'send',
        channel: { $ref: '#/channels/liveOdds' },
        summary: 'Stops every push to this socket until the next subscribe',
        messages: [{ $ref: '#/channels/liveOdds/messages/unsubscribe' }],
        reply: { channel: { $ref: '#/channels/liveOdds' }, messages: [{ $ref: '#/channels/liveOdds/messages/done' }] },
      },
      resync: {
        action: 'send',
        channel: { $ref: '#/channels/liveOdds' },
        summary: 'Asks for a fresh snapshot (reason resync) of the current filter, after a gap in the seq numbers',
        messages: [{ $ref: '#/channels/liveOdds/messages/resync' }],
        reply: { channel: { $ref: '#/channels/liveOdds' }, messages: [{ $ref: '#/channels/liveOdds/messages/done' }] },
      },
      receiveLiveOdds: {
        action: 'receive',
        channel: { $ref: '#/channels/liveOdds' },
        summary: `Full snapshots: after subscribe, every ${seconds} s (LIVE_PUSH_INTERVAL_MS) and on resync`,
        messages: [{ $ref: '#/channels/liveOdds/messages/liveOdds' }],
      },
      receiveOddsChange: {
        action: 'receive',
        channel: { $ref: '#/channels/liveOdds' },
        summary: 'Deltas: what one ingest changed within the filter (unless subscribe set changes: false)',
        messages: [{ $ref: '#/channels/liveOdds/messages/oddsChange' }],
      },
      subscribeSignals: {
        action: 'send',
        channel: { $ref: '#/channels/liveOdds' },
        title: 'Ask for signal events',
        summary: 'Opt-in: line_signal events for the signals the ingest stores from now on, within this filter (a second call replaces it); odds pushes are unchanged',
        messages: [{ $ref: '#/channels/liveOdds/messages/subscribeSignals' }],
        reply: { channel: { $ref: '#/channels/liveOdds' }, messages: [{ $ref: '#/channels/liveOdds/messages/subscribeSignalsAck' }] },
      },
      unsubscribeSignals: {
        action: 'send',
        channel: { $ref: '#/channels/liveOdds' },
        summary: 'Stops the line_signal events',
        messages: [{ $ref: '#/channels/liveOdds/messages/unsubscribeSignals' }],
        reply: { channel: { $ref: '#/channels/liveOdds' }, messages: [{ $ref: '#/channels/liveOdds/messages/done' }] },
      },
      receiveLineSignal: {
        action: 'receive',
        channel: { $ref: '#/channels/liveOdds' },
        summary: 'A line-movement signal the ingest stored (after subscribe_signals only)',
        messages: [{ $ref: '#/channels/liveOdds/messages/lineSignal' }],
      },
      receiveConnectError: {
        action: 'receive',
        channel: { $ref: '#/channels/liveOdds' },
        summary: 'A refused handshake: the connection is not made',
        messages: [{ $ref: '#/channels/liveOdds/messages/connectError' }],
      },
    },
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'user',
          description:
            'The API key (sk_...) in the Socket.IO handshake auth: io("/live-odds", { auth: { apiKey } }). Checked at the handshake and again while connected: ' +
            'a key revoked or expired meanwhile ends the connection within seconds, with a live_odds { success: false, error } first.',
        },
      },
      messages: {
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
                pattern: '^[0-9a-f]{1,64}$',
                description: `Reconnect: the stream of the last push applied, given with last_seq. The missed deltas come instead of a snapshot while the server holds them (the last ${WINDOW} of the stream; a stream without subscriber lives ${IDLE_MS / 1000} s)`,
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
          summary: 'A delta: the quotes and games one ingest changed within the filter (extension)',
          description:
            'quotes: the displayed quote of every (game, book, market) in which a quote moved, appeared or was withdrawn: replace the outcome with the same game_id, book_id, ' +
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
      },
    },
  };
}
