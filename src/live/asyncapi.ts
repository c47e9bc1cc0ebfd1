import type { GraphQLSchema } from 'graphql';
import type { JsonSchema } from '../graphql';
import { liveEvents } from './events';
import { LIVE_NAMESPACE, SUBSCRIBE_GRACE_MS } from './protocol';

// The AsyncAPI 3.0 document of the Socket.IO namespace /live-odds (/api/v1/asyncapi.json): its events
// and their payloads come from the core's table of events (events.ts); the channel, the operations
// (who sends what, and the replies), the handshake's key and the snapshot + delta protocol of
// docs/live-protocol.md are written here. @asyncapi/parser validates it
// (test/integration/live-asyncapi.test.ts).

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

export interface AsyncApiOptions {
  /** LIVE_PUSH_INTERVAL_MS: the period of the interval snapshots. */
  pushIntervalMs: number;
}

/** The AsyncAPI 3.0 document of /live-odds. */
export function buildAsyncApi(schema: GraphQLSchema, options: AsyncApiOptions): JsonSchema {
  const messages = liveEvents(schema);
  const seconds = Math.round(options.pushIntervalMs / 1000);

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
        'yours; on a gap send resync. A new snapshot replaces your state. The sequence is global (stream "global", the change log\'s): ' +
        'every ingest that changed something has one odds_change, the same seq and content on every API process, empty when nothing in ' +
        'your filter changed, so any process can resume you. docs/live-protocol.md has an example session. ' +
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
        // Every event of the core's table.
        messages: Object.fromEntries(Object.keys(messages).map((id) => [id, ref('messages', id)])),
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
      messages,
    },
  };
}
