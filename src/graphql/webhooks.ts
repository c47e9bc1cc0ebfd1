import { randomBytes, randomUUID } from 'node:crypto';
import { DEFAULT_DEVIG_METHOD, MIDDLE_MARKET_TYPES, PROP_TYPES, type DevigMethod, type LiveMarketType, type WebhookPredicateType } from '../domain';
import type { DeliveryRow, WebhookRow } from '../db/webhook-repository';
import { invalidParameter, refuseControlCharacters } from './arguments';
import { isPrivateHost } from './webhook-target';

// The rules of a webhook given to createWebhook / updateWebhook (docs/webhooks.md), in one place so
// GraphQL and REST refuse the same bodies with the same words (named like REST's body fields), and
// the stored shapes.

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

type PredicateInput = {
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

/** The GraphQL Webhook of a row; `secret` only when it is shown (at creation). */
export function webhookOf(row: WebhookRow, showSecret = false) {
  const p = row.predicate as unknown as WebhookPredicateModel;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    enabled: row.enabled,
    createdAt: row.createdAt,
    secret: showSecret ? row.secret : null,
    predicate: {
      type: p.type,
      minEvPer100: p.minEvPer100 ?? null,
      devig: p.devig ?? null,
      gameId: p.gameId ?? null,
      bookId: p.bookId ?? null,
      marketType: p.marketType ?? null,
      playerId: p.playerId ?? null,
      propType: p.propType ?? null,
      minCents: p.minCents ?? null,
      minPoints: p.minPoints ?? null,
      minBooks: p.minBooks ?? null,
      minTicketsPercent: p.minTicketsPercent ?? null,
      minWindow: p.minWindow ?? null,
    },
  };
}

/** The GraphQL WebhookDelivery of a row. */
export function deliveryOf(row: DeliveryRow) {
  return {
    messageId: row.messageId,
    eventType: row.eventType,
    status: row.status as 'pending' | 'delivered' | 'failed',
    attempts: row.attempts,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    nextAttemptAt: row.nextAttemptAt,
    createdAt: row.createdAt,
    lastAttemptAt: row.lastAttemptAt,
    deliveredAt: row.deliveredAt,
    payload: row.payload,
  };
}
