import { z } from 'zod';
import { ENUM_VOCABULARY, LISTING_DEFAULT_DEVIG_METHOD, LISTING_DEVIG_METHODS, PROP_TYPES, MAX_DESCRIPTION_LENGTH, MAX_URL_LENGTH, MAX_WEBHOOKS_PER_KEY } from '../../graphql';
import { enumValue, objectError, requiredOr } from '../body';
import { item, list, page } from '../envelope';
import { id, integer, required, withDefault } from '../params';
import { defineRoutes } from '../route';

// Alerts by webhook (docs/webhooks.md). The bodies are checked for shape and renamed here
// (snake_case -> the GraphQL input's camelCase, enum values upper-cased); the rules that tie fields
// together (which fields a predicate type takes, the URL's target, the per-key cap) are the
// resolvers' (src/services/webhooks.ts), so GraphQL refuses the same bodies with the same words.

const PREDICATE_TYPES = ENUM_VOCABULARY.WebhookPredicateType;
const MARKET_TYPES = ENUM_VOCABULARY.LiveMarketType;

const webhookPath = { id: required(id('Webhook id', { in: 'path' })) };
const positiveInt = (message: string) => z.number({ error: requiredOr(message) }).int({ error: message }).min(1, { error: message }).max(2_147_483_647, { error: message });
const number = (message: string) => z.number({ error: requiredOr(message) });

const predicate = z
  .strictObject(
    {
      type: enumValue(PREDICATE_TYPES),
      min_ev_per_100: number('must be a number (EV per 100 staked)').optional(),
      devig: enumValue(LISTING_DEVIG_METHODS).optional(),
      game_id: positiveInt('must be an integer game id').optional(),
      book_id: positiveInt('must be an integer sportsbook id').optional(),
      market_type: enumValue(MARKET_TYPES).optional(),
      player_id: positiveInt('must be an integer player id').optional(),
      prop_type: z.string({ error: 'must be a prop type such as points' }).optional(),
      min_cents: number('must be an integer number of cents').int({ error: 'must be an integer number of cents' }).optional(),
      min_points: number('must be a number of points').optional(),
      min_books: number('must be an integer number of books').int({ error: 'must be an integer number of books' }).optional(),
      min_tickets_percent: number('must be a percentage of the tickets').optional(),
      min_window: number('must be a number of points').optional(),
    },
    { error: objectError('must be a JSON object such as {"type": "ev", "min_ev_per_100": 3}') },
  )
  .transform((p) => ({
    type: p.type,
    minEvPer100: p.min_ev_per_100,
    devig: p.devig,
    gameId: p.game_id,
    bookId: p.book_id,
    marketType: p.market_type,
    playerId: p.player_id,
    propType: p.prop_type,
    minCents: p.min_cents,
    minPoints: p.min_points,
    minBooks: p.min_books,
    minTicketsPercent: p.min_tickets_percent,
    minWindow: p.min_window,
  }));

const url = z.string({ error: requiredOr('must be an http or https URL') });
const description = z.string({ error: 'must be a string or null' }).nullable();
const enabled = z.boolean({ error: 'must be true or false' });

const createBody = z
  .strictObject({ url, description: description.optional(), predicate, enabled: enabled.optional() }, { error: objectError('must be a JSON object {"url": ..., "predicate": {...}}') })
  .transform((b) => ({ input: { url: b.url, description: b.description, predicate: b.predicate, enabled: b.enabled } }));

const updateBody = z
  .strictObject({ url: url.optional(), description: description.optional(), predicate: predicate.optional(), enabled: enabled.optional() }, { error: objectError('must be a JSON object') })
  .transform((b) => ({ input: Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) }));

const PREDICATE_OPENAPI = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  description: 'What the webhook watches; each type takes only its own fields (docs/webhooks.md)',
  properties: {
    type: {
      type: 'string',
      enum: [...PREDICATE_TYPES],
      description:
        'ev: a price reaching min_ev_per_100; arbitrage: an arbitrage appearing; line_move: a move of min_cents or min_points; status_change: a game changing status; ' +
        'steam, reverse_line_movement: a signal the ingest stored (docs/signals.md); middle: a middle appearing between bettable prices',
    },
    min_ev_per_100: { type: 'number', minimum: -100, maximum: 100, description: 'ev (required): the least EV per 100 staked that fires; middle (optional): the least EV per 100 of the pair' },
    devig: { type: 'string', enum: [...LISTING_DEVIG_METHODS], default: LISTING_DEFAULT_DEVIG_METHOD, description: 'ev: de-vig method of the reference probability' },
    game_id: { type: 'integer', minimum: 1, description: 'Only this game (every type)' },
    book_id: { type: 'integer', minimum: 1, description: 'ev, line_move: only prices of this sportsbook; middle: only middles with a leg at it' },
    market_type: {
      type: 'string',
      enum: [...MARKET_TYPES],
      description: 'ev, arbitrage, line_move, steam, reverse_line_movement: only this market; middle: spread or total; player_props (ev only): every player prop instead of the game markets',
    },
    player_id: { type: 'integer', minimum: 1, description: 'ev on market_type player_props: only this player' },
    prop_type: { type: 'string', enum: [...PROP_TYPES], description: 'ev on market_type player_props: only this prop type' },
    min_cents: { type: 'integer', minimum: 1, maximum: 10000, description: 'line_move: the least price move in American cents (-110 to -120 is 10); min_cents or min_points is required' },
    min_points: { type: 'number', minimum: 0.5, maximum: 100, description: 'line_move: the least line move in points; steam, reverse_line_movement: the least point move of a book counted in min_books' },
    min_books: { type: 'integer', minimum: 2, maximum: 50, description: 'steam, reverse_line_movement: at least this many books moved by min_cents (moneyline) / min_points (spread, total); default: the signal as stored' },
    min_tickets_percent: { type: 'number', minimum: 50, maximum: 100, description: 'reverse_line_movement: at least this share of the tickets on the side the line moved against' },
    min_window: { type: 'number', minimum: 0.5, maximum: 100, description: 'middle: the least window width in points (window_high - window_low)' },
  },
};
const URL_OPENAPI = {
  type: 'string',
  format: 'uri',
  maxLength: MAX_URL_LENGTH,
  description: 'http or https URL the deliveries are POSTed to; private, loopback and link-local targets are refused unless the service sets WEBHOOK_ALLOW_PRIVATE_TARGETS',
};
const DESCRIPTION_OPENAPI = { type: ['string', 'null'], maxLength: MAX_DESCRIPTION_LENGTH, description: 'A label of your own' };
const ENABLED_OPENAPI = { type: 'boolean', default: true, description: 'false: no new events are stored for it' };

const GATE = 'Pro and Elite keys; a key sees and changes only its own webhooks (another key\'s id is a 404).';

export const webhookRoutes = defineRoutes([
  {
    path: '/webhooks',
    method: 'POST',
    status: 201,
    summary: 'Registers a webhook; the answer carries its signing secret (whsec_...), shown only this once',
    description:
      `${GATE} At most ${MAX_WEBHOOKS_PER_KEY} webhooks per key. Deliveries are POSTed as {type, timestamp, data} with the Standard Webhooks headers ` +
      'webhook-id, webhook-timestamp and webhook-signature (v1, HMAC-SHA256 with the secret), retried with exponential backoff for 24 hours; only changes committed after registration fire.',
    params: z.object({}),
    body: {
      schema: createBody,
      openapi: { type: 'object', additionalProperties: false, required: ['url', 'predicate'], properties: { url: URL_OPENAPI, description: DESCRIPTION_OPENAPI, predicate: PREDICATE_OPENAPI, enabled: ENABLED_OPENAPI } },
      description: '{"url": "https://example.com/hooks/odds", "predicate": {"type": "ev", "min_ev_per_100": 3, "devig": "power"}}',
    },
    operation: 'CreateWebhook',
    envelope: item('webhook', 'WEBHOOK_NOT_FOUND'),
  },
  {
    path: '/webhooks',
    summary: "The calling key's webhooks, oldest first (never their secrets)",
    description: GATE,
    params: z.object({}),
    operation: 'Webhooks',
    envelope: list('webhooks'),
  },
  {
    path: '/webhooks/:id',
    summary: 'One of the calling key\'s webhooks',
    description: GATE,
    params: z.object(webhookPath),
    operation: 'Webhook',
    envelope: item('webhook', 'WEBHOOK_NOT_FOUND'),
    errors: [404],
  },
  {
    path: '/webhooks/:id',
    method: 'PATCH',
    summary: 'Changes a webhook: url, description, predicate, enabled (absent fields are left alone)',
    description: `${GATE} Deliveries already stored are still sent, to the URL the webhook has when they are attempted.`,
    params: z.object(webhookPath),
    body: {
      schema: updateBody,
      openapi: { type: 'object', additionalProperties: false, properties: { url: URL_OPENAPI, description: DESCRIPTION_OPENAPI, predicate: PREDICATE_OPENAPI, enabled: ENABLED_OPENAPI } },
      description: '{"enabled": false} or any of url, description, predicate',
    },
    operation: 'UpdateWebhook',
    envelope: item('webhook', 'WEBHOOK_NOT_FOUND'),
    errors: [404],
  },
  {
    path: '/webhooks/:id',
    method: 'DELETE',
    summary: 'Deletes a webhook and its delivery log (pending deliveries are dropped)',
    description: GATE,
    params: z.object(webhookPath),
    operation: 'DeleteWebhook',
    envelope: item('webhook', 'WEBHOOK_NOT_FOUND'),
    errors: [404],
  },
  {
    path: '/webhooks/:id/deliveries',
    summary: "A webhook's delivery log, newest first: each event's webhook-id, type, status, attempts and last answer",
    description: `${GATE} status: pending (next_attempt_at says when), delivered (a 2xx answered), failed (no 2xx within 24 hours). payload is the body sent.`,
    params: z.object({
      ...webhookPath,
      limit: withDefault(integer('Page size', 1, 1000), 100),
      offset: withDefault(integer('Index of the first delivery', 0, 2_147_483_647), 0),
    }),
    operation: 'WebhookDeliveries',
    envelope: page('deliveries'),
    errors: [404],
  },
  {
    path: '/webhooks/:id/test',
    method: 'POST',
    status: 201,
    summary: 'Sends a test event (type webhook.test) to the webhook, stored and delivered like any other',
    description: `${GATE} The answer is the stored delivery (pending); the delivery log shows its outcome.`,
    params: z.object(webhookPath),
    operation: 'TestWebhook',
    envelope: item('delivery', 'WEBHOOK_NOT_FOUND'),
    errors: [404],
  },
]);
