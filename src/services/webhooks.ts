import { randomBytes, randomUUID } from 'node:crypto';
import { DEFAULT_DEVIG_METHOD, MIDDLE_MARKET_TYPES, PROP_TYPES, type DevigMethod, type LiveMarketType, type WebhookPredicateType } from '../domain';
import {
  createWebhookWithinCap,
  deleteWebhook,
  findWebhook,
  insertDelivery,
  listDeliveries,
  listWebhooks,
  updateWebhook,
  type DeliveryRow,
  type WebhookRow,
} from '../db/webhook-repository';
import { AppError } from '../errors';
import { invalidParameter, MAX_LIMIT, refuseControlCharacters } from './arguments';
import type { ReadContext } from './read-context';
import { isPrivateHost } from './webhook-target';

// The webhooks of a key (docs/webhooks.md): the rules of a webhook given to createWebhook /
// updateWebhook, in one place so GraphQL and REST refuse the same bodies with the same words (named
// like REST's body fields), the stored shapes, and the operations on a key's own webhooks. API
// processes only manage (write webhooks and test events); the ingesting process evaluates and sends
// (src/webhooks). Another key's webhook is "not found", never "forbidden": ids of others are not
// disclosed. The plan gate (webhooks) is the caller's.

export type { DeliveryRow, WebhookRow };

/** Webhooks one key may hold. */
export const MAX_WEBHOOKS_PER_KEY = 20;
export const MAX_URL_LENGTH = 2048;
export const MAX_DESCRIPTION_LENGTH = 200;

/** The stored predicate (JSON column Webhook.predicate): the domain's words, absent filters left out. */
export interface WebhookPredicateModel {
  type: WebhookPredicateType;
  minEvPer100?: number;
  devig?: DevigMethod;
  gameId?: number;
  bookId?: number;
  /** A game market, or player_props (ev only: every player prop). */
  marketType?: LiveMarketType;
  /** ev on player_props: only this player's props, only this prop type (points, rebounds, ...). */
  playerId?: number;
  propType?: string;
  minCents?: number;
  minPoints?: number;
  minBooks?: number;
  minTicketsPercent?: number;
  minWindow?: number;
}

export type PredicateInput = {
  type: WebhookPredicateType;
  minEvPer100?: number | null | undefined;
  devig?: DevigMethod | null | undefined;
  gameId?: number | null | undefined;
  bookId?: number | null | undefined;
  marketType?: LiveMarketType | null | undefined;
  playerId?: number | null | undefined;
  propType?: string | null | undefined;
  minCents?: number | null | undefined;
  minPoints?: number | null | undefined;
  minBooks?: number | null | undefined;
  minTicketsPercent?: number | null | undefined;
  minWindow?: number | null | undefined;
};

/** Which optional fields each predicate type takes (others are refused, so a typo is not silently ignored). */
const FIELDS: Record<WebhookPredicateType, ReadonlyArray<keyof PredicateInput>> = {
  ev: ['minEvPer100', 'devig', 'gameId', 'bookId', 'marketType', 'playerId', 'propType'],
  arbitrage: ['gameId', 'marketType'],
  line_move: ['minCents', 'minPoints', 'gameId', 'bookId', 'marketType'],
  status_change: ['gameId'],
  steam: ['minBooks', 'minCents', 'minPoints', 'gameId', 'marketType'],
  reverse_line_movement: ['minTicketsPercent', 'minBooks', 'minCents', 'minPoints', 'gameId', 'marketType'],
  middle: ['minWindow', 'minEvPer100', 'gameId', 'bookId', 'marketType'],
};

const SNAKE: Record<string, string> = {
  minEvPer100: 'min_ev_per_100',
  devig: 'devig',
  gameId: 'game_id',
  bookId: 'book_id',
  marketType: 'market_type',
  playerId: 'player_id',
  propType: 'prop_type',
  minCents: 'min_cents',
  minPoints: 'min_points',
  minBooks: 'min_books',
  minTicketsPercent: 'min_tickets_percent',
  minWindow: 'min_window',
};

const present = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

/** A predicate checked and normalised. @throws AppError BAD_REQUEST naming the field (predicate.min_cents) */
export function checkPredicate(input: PredicateInput): WebhookPredicateModel {
  const allowed = FIELDS[input.type];
  for (const field of Object.keys(SNAKE) as Array<keyof PredicateInput>) {
    if (present(input[field]) && !allowed.includes(field)) {
      throw invalidParameter(`predicate.${SNAKE[field]}`, `is not a field of a ${input.type} predicate (it takes ${allowed.map((f) => SNAKE[f]).join(', ')})`);
    }
  }
  const positiveId = (field: 'gameId' | 'bookId') => {
    const v = input[field];
    if (present(v) && (!Number.isInteger(v) || v < 1)) throw invalidParameter(`predicate.${SNAKE[field]}`, 'must be a positive integer id');
    return present(v) ? { [field]: v } : {};
  };
  // Player props are watched for value only (issue 22): the other types' events are game markets'.
  if (input.marketType === 'player_props' && input.type !== 'ev') throw invalidParameter('predicate.market_type', `player_props is only for ev predicates, not ${input.type}`);
  const out: WebhookPredicateModel = { type: input.type, ...positiveId('gameId'), ...positiveId('bookId'), ...(present(input.marketType) && { marketType: input.marketType }) };
  if (input.type === 'ev' && (present(input.playerId) || present(input.propType))) {
    const field = present(input.playerId) ? 'player_id' : 'prop_type';
    if (input.marketType !== 'player_props') throw invalidParameter(`predicate.${field}`, 'needs market_type player_props');
    if (present(input.playerId)) {
      if (!Number.isInteger(input.playerId) || input.playerId < 1) throw invalidParameter('predicate.player_id', 'must be a positive integer id');
      out.playerId = input.playerId;
    }
    if (present(input.propType)) {
      if (!PROP_TYPES.includes(input.propType)) throw invalidParameter('predicate.prop_type', `must be one of ${PROP_TYPES.join(', ')}`);
      out.propType = input.propType;
    }
  }
  if (input.type === 'ev') {
    const min = input.minEvPer100;
    if (!present(min)) throw invalidParameter('predicate.min_ev_per_100', 'is required for an ev predicate');
    if (!Number.isFinite(min) || min < -100 || min > 100) throw invalidParameter('predicate.min_ev_per_100', 'must be a number from -100 to 100');
    out.minEvPer100 = min;
    out.devig = input.devig ?? DEFAULT_DEVIG_METHOD;
  }
  // steam and RLM count the books whose move reaches min_cents / min_points (both optional there).
  const signal = input.type === 'steam' || input.type === 'reverse_line_movement';
  if (signal && present(input.minBooks)) {
    if (!Number.isInteger(input.minBooks) || input.minBooks < 2 || input.minBooks > 50) throw invalidParameter('predicate.min_books', 'must be an integer from 2 to 50');
    out.minBooks = input.minBooks;
  }
  if (input.type === 'reverse_line_movement' && present(input.minTicketsPercent)) {
    if (!Number.isFinite(input.minTicketsPercent) || input.minTicketsPercent < 50 || input.minTicketsPercent > 100) throw invalidParameter('predicate.min_tickets_percent', 'must be a number from 50 to 100 (percent of the tickets)');
    out.minTicketsPercent = input.minTicketsPercent;
  }
  if (input.type === 'middle') {
    if (present(input.marketType) && !(MIDDLE_MARKET_TYPES as readonly string[]).includes(input.marketType)) {
      throw invalidParameter('predicate.market_type', `must be one of ${MIDDLE_MARKET_TYPES.join(', ')} for a middle predicate (middles are spreads and totals)`);
    }
    if (present(input.minWindow)) {
      if (!Number.isFinite(input.minWindow) || input.minWindow < 0.5 || input.minWindow > 100) throw invalidParameter('predicate.min_window', 'must be a number of points from 0.5 to 100');
      out.minWindow = input.minWindow;
    }
    if (present(input.minEvPer100)) {
      if (!Number.isFinite(input.minEvPer100) || input.minEvPer100 < -100 || input.minEvPer100 > 100) throw invalidParameter('predicate.min_ev_per_100', 'must be a number from -100 to 100');
      out.minEvPer100 = input.minEvPer100;
    }
  }
  if (input.type === 'line_move' || signal) {
    if (input.type === 'line_move' && !present(input.minCents) && !present(input.minPoints)) throw invalidParameter('predicate.min_cents', 'min_cents or min_points is required for a line_move predicate');
    if (present(input.minCents)) {
      if (!Number.isInteger(input.minCents) || input.minCents < 1 || input.minCents > 10_000) throw invalidParameter('predicate.min_cents', 'must be an integer from 1 to 10000');
      out.minCents = input.minCents;
    }
    if (present(input.minPoints)) {
      if (!Number.isFinite(input.minPoints) || input.minPoints < 0.5 || input.minPoints > 100) throw invalidParameter('predicate.min_points', 'must be a number from 0.5 to 100');
      out.minPoints = input.minPoints;
    }
  }
  return out;
}

/** A target URL checked. @throws AppError BAD_REQUEST (control characters, not http(s), too long, credentials, private address) */
export function checkUrl(value: string, allowPrivate: boolean): string {
  // Checked before trim() and the URL parser, which would drop or escape some of them silently.
  refuseControlCharacters('url', value);
  const url = value.trim();
  if (url.length > MAX_URL_LENGTH) throw invalidParameter('url', `must be at most ${MAX_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidParameter('url', 'must be an absolute http or https URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalidParameter('url', 'must be an absolute http or https URL');
  if (parsed.username || parsed.password) throw invalidParameter('url', 'must not carry credentials (verify the webhook-signature header instead)');
  if (!allowPrivate && isPrivateHost(parsed.hostname)) {
    throw invalidParameter('url', 'must not point at a private, loopback, link-local or other special-purpose address, nor at the host the service runs on (the service refuses to call into its own network)');
  }
  return url;
}

/** A label checked: null when empty. @throws AppError BAD_REQUEST (control characters, too long) */
export function checkDescription(value: string | null | undefined): string | null {
  if (!present(value)) return null;
  refuseControlCharacters('description', value);
  const text = value.trim();
  if (text.length > MAX_DESCRIPTION_LENGTH) throw invalidParameter('description', `must be at most ${MAX_DESCRIPTION_LENGTH} characters`);
  return text || null;
}

/** A new signing secret: 24 random bytes, base64, prefixed whsec_ (the Standard Webhooks form). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** A new webhook-id: unique per event, kept across retries. */
export const newMessageId = (): string => `msg_${randomUUID().replace(/-/g, '')}`;

/** A webhook as createWebhook takes it. */
export interface NewWebhookInput {
  url: string;
  description?: string | null | undefined;
  predicate: PredicateInput;
  enabled?: boolean | null | undefined;
}

/** The changes updateWebhook takes: an absent field is left alone. */
export interface WebhookChangesInput {
  url?: string | null | undefined;
  description?: string | null | undefined;
  predicate?: PredicateInput | null | undefined;
  enabled?: boolean | null | undefined;
}

type Db = Pick<ReadContext, 'db'>;

/** The webhooks of key `keyId`. */
export const listOwnWebhooks = (ctx: Db, keyId: string): Promise<WebhookRow[]> => listWebhooks(ctx.db.prisma, keyId);

/** Webhook `id` of key `keyId`. @throws AppError WEBHOOK_NOT_FOUND (also for another key's) */
export async function ownWebhook(ctx: Db, keyId: string, id: number): Promise<WebhookRow> {
  const row = await findWebhook(ctx.db.prisma, keyId, id);
  if (!row) throw new AppError('WEBHOOK_NOT_FOUND', `webhook ${id} not found`);
  return row;
}

/** Checks a page of deliveries (limit 1..MAX_LIMIT, offset >= 0), before the webhook is looked up. @throws AppError BAD_REQUEST */
export function deliveryPage(limit: number | null | undefined, offset: number | null | undefined): { limit: number; offset: number } {
  const page = { limit: limit ?? 100, offset: offset ?? 0 };
  if (page.limit < 1 || page.limit > MAX_LIMIT) throw invalidParameter('limit', `must be an integer from 1 to ${MAX_LIMIT}`);
  if (page.offset < 0) throw invalidParameter('offset', 'must be an integer of at least 0');
  return page;
}

/** A page of the deliveries of webhook `webhookId` of key `keyId`. @throws AppError WEBHOOK_NOT_FOUND */
export async function ownDeliveries(ctx: Db, keyId: string, webhookId: number, page: { limit: number; offset: number }) {
  const hook = await ownWebhook(ctx, keyId, webhookId);
  return listDeliveries(ctx.db.prisma, hook.id, page.limit, page.offset);
}

/**
 * A new webhook of key `keyId`, with a fresh secret, within MAX_WEBHOOKS_PER_KEY.
 * @throws AppError BAD_REQUEST (its rules; the key already holds the most webhooks)
 */
export async function createOwnWebhook(ctx: Db & Pick<ReadContext, 'now'>, keyId: string, input: NewWebhookInput, allowPrivateTargets: boolean): Promise<WebhookRow> {
  const url = checkUrl(input.url, allowPrivateTargets);
  const description = checkDescription(input.description);
  const predicate = checkPredicate(input.predicate);
  const row = await createWebhookWithinCap(ctx.db.prisma, MAX_WEBHOOKS_PER_KEY, {
    keyId,
    url,
    description,
    secret: newWebhookSecret(),
    predicate: { ...predicate },
    enabled: input.enabled ?? true,
    createdAt: ctx.now,
  });
  if (!row) throw invalidParameter('url', `this key already has ${MAX_WEBHOOKS_PER_KEY} webhooks, the most one key may hold; delete one first`);
  return row;
}

/** Webhook `id` of key `keyId` changed. @throws AppError BAD_REQUEST (its rules) or WEBHOOK_NOT_FOUND */
export async function updateOwnWebhook(ctx: Db, keyId: string, id: number, input: WebhookChangesInput, allowPrivateTargets: boolean): Promise<WebhookRow> {
  if (input.enabled === null) throw invalidParameter('enabled', 'must be true or false');
  const changes = {
    ...(input.url !== undefined && { url: checkUrl(input.url ?? '', allowPrivateTargets) }),
    ...(input.description !== undefined && { description: checkDescription(input.description) }),
    ...(input.predicate !== undefined && input.predicate !== null && { predicate: { ...checkPredicate(input.predicate) } }),
    ...(input.enabled !== undefined && { enabled: input.enabled }),
  };
  const row = await updateWebhook(ctx.db.prisma, keyId, id, changes);
  if (!row) throw new AppError('WEBHOOK_NOT_FOUND', `webhook ${id} not found`);
  return row;
}

/** Deletes webhook `id` of key `keyId`. @throws AppError WEBHOOK_NOT_FOUND */
export async function deleteOwnWebhook(ctx: Db, keyId: string, id: number): Promise<void> {
  if (!(await deleteWebhook(ctx.db.prisma, keyId, id))) throw new AppError('WEBHOOK_NOT_FOUND', `webhook ${id} not found`);
}

/** Stores a test event for webhook `id` of key `keyId` (the sender delivers it). @throws AppError WEBHOOK_NOT_FOUND */
export async function sendTestEvent(ctx: Db & Pick<ReadContext, 'now'>, keyId: string, id: number): Promise<DeliveryRow> {
  const hook = await ownWebhook(ctx, keyId, id);
  const messageId = newMessageId();
  const payload = { type: 'webhook.test', timestamp: ctx.now.toISOString(), data: { webhook_id: hook.id, message: 'test event sent on request (POST .../webhooks/:id/test)' } };
  return insertDelivery(ctx.db.prisma, { webhookId: hook.id, messageId, eventKey: `test:${messageId}`, eventType: 'webhook.test', payload }, ctx.now);
}
