import { americanCents, compareCodePoints, DEFAULT_DEVIG_METHOD, isPropMarket, MARKET_TYPES, MIDDLE_MARKET_TYPES, PERCENT_DIGITS, PROBABILITY_DIGITS, propTypeOf, roundTo, type DevigMethod, type ListingMarketType } from '../domain';
import type { PrismaClient } from '../db/client';
import { findListingRows } from '../db/listing-repository';
import {
  activeWebhooks,
  changesAfter,
  gameStatuses,
  priceMovesAt,
  readCursor,
  readSignalCursor,
  seenGameStatuses,
  signalsAfter,
  storeEvaluation,
  storeSignalEvaluation,
  type ChangeEntry,
  type NewDelivery,
  type WebhookRow,
} from '../db/webhook-repository';
import { buildListing, listingGame, marketViews, type ListingBook, type ListingEntry, type ListingQuote } from '../domain';
import { newMessageId, type WebhookPredicateModel } from '../services/webhooks';

// From committed changes to stored deliveries (docs/webhooks.md). Driven by the change log
// (src/db/change-log.ts): each round reads the entries after the stored cursor, evaluates every
// enabled webhook's predicate against them and the database, then stores the deliveries and moves
// the cursor in one transaction. A crash before that commit re-runs the round; the unique (webhook,
// event key) keeps the re-run from storing an event twice. So every event is stored exactly once
// before anything is sent.

/** Change log entries evaluated per round (one transaction). */
const BATCH = 100;

/** An event before it is addressed to webhooks: its key, type and body data, and what it is about. */
interface Candidate {
  key: string;
  type: WebhookPredicateModel['type'];
  data: Record<string, unknown>;
  gameId: number;
  bookId: number | null;
  marketType: string | null;
  /** When the change behind it was committed: webhooks registered later only see later changes. */
  recordedAt: Date;
}

const predicateOf = (hook: WebhookRow) => hook.predicate as unknown as WebhookPredicateModel;

/** The filters every predicate type shares: game, book, market. */
function matchesFilters(p: WebhookPredicateModel, c: Candidate): boolean {
  if (p.gameId !== undefined && p.gameId !== c.gameId) return false;
  if (p.bookId !== undefined && c.bookId !== null && p.bookId !== c.bookId) return false;
  if (p.marketType !== undefined && c.marketType !== null && p.marketType !== c.marketType) return false;
  return true;
}

/** The latest commit time among `entries` that name `gameId` (or null). */
function committedAt(entries: readonly ChangeEntry[], gameId: number, marketType?: string): Date | null {
  let at: Date | null = null;
  for (const e of entries) {
    const names = marketType ? e.markets.some((m) => m.gameId === gameId && m.marketType === marketType) : e.games.includes(gameId) || e.markets.some((m) => m.gameId === gameId);
    if (names && (!at || e.recordedAt > at)) at = e.recordedAt;
  }
  return at;
}

/** Games whose status differs from the one last seen (games seen for the first time are only recorded). */
async function statusChanges(prisma: PrismaClient, entries: readonly ChangeEntry[]): Promise<{ candidates: Candidate[]; statuses: Map<number, string> }> {
  const games = [...new Set(entries.flatMap((e) => e.games))];
  const [current, seen] = await Promise.all([gameStatuses(prisma, games), seenGameStatuses(prisma, games)]);
  const version = String(entries.at(-1)!.version);
  const candidates: Candidate[] = [];
  for (const [gameId, status] of current) {
    const previous = seen.get(gameId);
    if (previous === undefined || previous === status) continue;
    candidates.push({
      key: `status_change:${gameId}:${previous}:${status}:${version}`,
      type: 'status_change',
      data: { game_id: gameId, previous_status: previous, status, version: Number(version) },
      gameId,
      bookId: null,
      marketType: null,
      recordedAt: committedAt(entries, gameId) ?? entries.at(-1)!.recordedAt,
    });
  }
  return { candidates, statuses: current };
}

/** Every price or line move of the entries, with its size in cents and points. */
async function lineMoves(prisma: PrismaClient, entries: readonly ChangeEntry[]): Promise<Array<Candidate & { cents: number; points: number }>> {
  const out: Array<Candidate & { cents: number; points: number }> = [];
  for (const entry of entries) {
    for (const m of await priceMovesAt(prisma, entry.seenAt, entry.markets)) {
      const cents = Math.abs(americanCents(m.american) - americanCents(m.previousAmerican));
      const points = m.point !== null && m.previousPoint !== null ? Math.abs(m.point - m.previousPoint) : 0;
      out.push({
        key: `line_move:${m.gameId}:${m.bookId}:${m.marketType}:${m.period}:${m.side}:${m.isLive ? 'live' : 'pregame'}:${m.seenAt.toISOString()}`,
        type: 'line_move',
        data: {
          game_id: m.gameId,
          book_id: m.bookId,
          market_type: m.marketType,
          period: m.period,
          side: m.side,
          is_live: m.isLive,
          point: m.point,
          previous_point: m.previousPoint,
          american: m.american,
          previous_american: m.previousAmerican,
          cents_moved: cents,
          points_moved: points,
          seen_at: m.seenAt.toISOString(),
          version: Number(entry.version),
        },
        gameId: m.gameId,
        bookId: m.bookId,
        marketType: m.marketType,
        recordedAt: entry.recordedAt,
        cents,
        points,
      });
    }
  }
  return out;
}

/**
 * The full-game listing entries (value metrics with `devig`) of the changed games, per market: the
 * three game markets, or with `props` every player prop (one listing over the games whose props changed).
 */
async function listingEntries(prisma: PrismaClient, entries: readonly ChangeEntry[], devig: DevigMethod, props = false): Promise<ListingEntry[]> {
  const out: ListingEntry[] = [];
  // Staleness is judged at the capture's own time: an alert is about the prices as that capture saw them.
  const at = entries.at(-1)!.seenAt;
  const listed: readonly ListingMarketType[] = props ? ['player_props'] : MARKET_TYPES;
  for (const marketType of listed) {
    const changed = (type: string) => (marketType === 'player_props' ? isPropMarket(type) : type === marketType);
    const gameIds = [...new Set(entries.flatMap((e) => e.markets.filter((m) => changed(m.marketType)).map((m) => m.gameId)))];
    if (!gameIds.length) continue;
    const rows = await findListingRows(prisma, { gameIds, marketType, period: 'full_game' });
    const books = new Map<number, ListingBook>(rows.books.map((b) => [b.id, b]));
    out.push(
      ...buildListing({
        marketType,
        games: rows.games.map((g) => listingGame(g)),
        quotes: rows.quotes,
        books,
        devigMethod: devig,
        sort: 'odds',
        now: at,
      }),
    );
  }
  return out;
}

/** The price an entry offers, as the event names it (a prop's with its player, prop type and line kind). */
const priceOf = (e: ListingEntry) => ({
  game_id: e.quote.gameId,
  book_id: e.quote.bookId,
  book_name: e.book.name,
  market_type: e.quote.marketType,
  period: e.quote.period,
  side: e.quote.side,
  is_live: e.quote.isLive,
  point: e.quote.point,
  american: e.quote.american,
  decimal: e.quote.decimal,
  ...(isPropMarket(e.quote.marketType) && { player_id: e.quote.playerId ?? null, prop_type: propTypeOf(e.quote.marketType), is_alternate: (e.quote.lineKey ?? '') !== '' }),
});

function evCandidates(listing: readonly ListingEntry[], entries: readonly ChangeEntry[], devig: DevigMethod): Array<Candidate & { evPer100: number; playerId: number }> {
  return listing.flatMap((e) => {
    const ev = e.ev.ev_per_100;
    // Only a bettable price is advertised (docs/value-metrics.md): none for a stale price, a pregame
    // price of a started game or a live price of a finished one.
    if (ev === null || !e.ev.bettable) return [];
    const q = e.quote;
    return [
      {
        // A prop's price is also the player's (the same prop, side and point of two players are two events).
        key: `ev:${devig}:${q.gameId}:${q.bookId}:${q.marketType}:${q.period}:${q.side}:${q.isLive ? 'live' : 'pregame'}:${q.point ?? ''}:${q.american}${q.playerId ? `:${q.playerId}` : ''}`,
        type: 'ev' as const,
        data: { ...priceOf(e), ev_per_100: ev, true_probability: e.ev.true_probability, devig_method: devig, seen_at: q.seenAt.toISOString(), version: Number(entries.at(-1)!.version) },
        gameId: q.gameId,
        bookId: q.bookId,
        marketType: q.marketType,
        recordedAt: committedAt(entries, q.gameId, q.marketType) ?? entries.at(-1)!.recordedAt,
        evPer100: ev,
        playerId: q.playerId ?? 0,
      },
    ];
  });
}

function arbitrageCandidates(listing: readonly ListingEntry[], entries: readonly ChangeEntry[]): Candidate[] {
  const out = new Map<string, Candidate>();
  for (const e of listing) {
    const detail = e.ev.arbitrage_detail;
    // The listing only pairs bettable legs (src/domain/market-view.ts).
    if (!e.ev.arbitrage || !detail || !e.ev.bettable || detail.complement.stale) continue;
    const q = e.quote;
    const legs = [
      { book_id: q.bookId, side: q.side, point: q.point, american: q.american, decimal: q.decimal, stake: detail.stake },
      { book_id: detail.complement.book_id, side: detail.complement.side, point: detail.complement.point, american: detail.complement.american, decimal: detail.complement.decimal, stake: detail.complement.stake },
    ].sort((a, b) => compareCodePoints(a.side, b.side));
    // Both legs' entries carry the arbitrage: one key for the pair.
    const key = `arbitrage:${q.gameId}:${q.marketType}:${q.period}:${q.isLive ? 'live' : 'pregame'}:${legs.map((l) => `${l.book_id}/${l.side}/${l.point ?? ''}/${l.american}`).join(':')}`;
    if (out.has(key)) continue;
    out.set(key, {
      key,
      type: 'arbitrage',
      data: {
        game_id: q.gameId,
        market_type: q.marketType,
        period: q.period,
        is_live: q.isLive,
        profit_percentage: detail.profit_percentage,
        total_implied_probability: detail.total_implied_probability,
        legs,
        version: Number(entries.at(-1)!.version),
      },
      gameId: q.gameId,
      bookId: null,
      marketType: q.marketType,
      recordedAt: committedAt(entries, q.gameId, q.marketType) ?? entries.at(-1)!.recordedAt,
    });
  }
  return [...out.values()];
}

/**
 * The middles (docs/signals.md) of the changed games' full-game spreads and totals: the same rows and
 * MarketView as Query.middles, so only bettable prices are legs. One key per pair of prices: a middle
 * fires once, again only when a leg's price or line changes.
 */
async function middleCandidates(prisma: PrismaClient, entries: readonly ChangeEntry[]): Promise<Array<Candidate & { evPer100: number; windowWidth: number; bookIds: number[] }>> {
  const out: Array<Candidate & { evPer100: number; windowWidth: number; bookIds: number[] }> = [];
  const at = entries.at(-1)!.seenAt;
  for (const marketType of MIDDLE_MARKET_TYPES) {
    const gameIds = [...new Set(entries.flatMap((e) => e.markets.filter((m) => m.marketType === marketType).map((m) => m.gameId)))];
    if (!gameIds.length) continue;
    const rows = await findListingRows(prisma, { gameIds, marketType, period: 'full_game' });
    const books = new Map<number, ListingBook>(rows.books.map((b) => [b.id, b]));
    const games = rows.games.map((g) => listingGame(g));
    for (const view of marketViews({ marketType, games, quotes: rows.quotes, books, devigMethod: DEFAULT_DEVIG_METHOD })) {
      for (const m of view.middles(at)) {
        const leg = (q: ListingQuote, stake: number) => ({ book_id: q.bookId, side: q.side, point: q.point, american: q.american, decimal: q.decimal, stake: roundTo(stake, PROBABILITY_DIGITS), seen_at: q.seenAt.toISOString() });
        const key = `middle:${m.game.id}:${m.marketType}:${m.period}:${m.isLive ? 'live' : 'pregame'}:${[m.low, m.high].map((q) => `${q.bookId}/${q.side}/${q.point}/${q.american}`).join(':')}`;
        out.push({
          key,
          type: 'middle',
          data: {
            game_id: m.game.id,
            market_type: m.marketType,
            period: m.period,
            is_live: m.isLive,
            window_low: m.middle.window.low,
            window_high: m.middle.window.high,
            width: m.middle.width,
            middle_probability: roundTo(m.middle.middle_probability, PROBABILITY_DIGITS),
            ev_per_100: roundTo(m.middle.ev_per_100, PERCENT_DIGITS),
            low: leg(m.low, m.middle.stakes[0]),
            high: leg(m.high, m.middle.stakes[1]),
            version: Number(entries.at(-1)!.version),
          },
          gameId: m.game.id,
          // Either leg's book may be the one a predicate names: matched below, not by matchesFilters.
          bookId: null,
          marketType: m.marketType,
          recordedAt: committedAt(entries, m.game.id, m.marketType) ?? entries.at(-1)!.recordedAt,
          evPer100: m.middle.ev_per_100,
          windowWidth: m.middle.window.high - m.middle.window.low,
          bookIds: [m.low.bookId, m.high.bookId],
        });
      }
    }
  }
  return out;
}

/** A stored event for `hook`: the Standard Webhooks body {type, timestamp, data}. */
function deliveryFor(hook: WebhookRow, c: Candidate, now: Date): NewDelivery {
  return {
    webhookId: hook.id,
    messageId: newMessageId(),
    eventKey: c.key,
    eventType: c.type,
    payload: { type: c.type, timestamp: now.toISOString(), data: { webhook_id: hook.id, ...c.data } } as unknown as NewDelivery['payload'],
  };
}

/** The deliveries the entries make for `hooks`. */
async function deliveriesOf(prisma: PrismaClient, entries: readonly ChangeEntry[], hooks: readonly WebhookRow[], statusCandidates: readonly Candidate[], now: Date): Promise<NewDelivery[]> {
  const out: NewDelivery[] = [];
  const byType = (type: WebhookPredicateModel['type']) => hooks.filter((h) => predicateOf(h).type === type);
  const addressed = (hook: WebhookRow, c: Candidate) => c.recordedAt >= hook.createdAt && matchesFilters(predicateOf(hook), c);

  for (const hook of byType('status_change')) {
    for (const c of statusCandidates) if (addressed(hook, c)) out.push(deliveryFor(hook, c, now));
  }

  const lineHooks = byType('line_move');
  if (lineHooks.length) {
    const moves = await lineMoves(prisma, entries);
    for (const hook of lineHooks) {
      const p = predicateOf(hook);
      for (const m of moves) {
        const big = (p.minCents !== undefined && m.cents >= p.minCents) || (p.minPoints !== undefined && m.points >= p.minPoints);
        if (big && addressed(hook, m)) out.push(deliveryFor(hook, m, now));
      }
    }
  }

  const middleHooks = byType('middle');
  if (middleHooks.length) {
    const middles = await middleCandidates(prisma, entries);
    for (const hook of middleHooks) {
      const p = predicateOf(hook);
      for (const m of middles) {
        if (p.minEvPer100 !== undefined && m.evPer100 < p.minEvPer100) continue;
        if (p.minWindow !== undefined && m.windowWidth < p.minWindow) continue;
        if (p.bookId !== undefined && !m.bookIds.includes(p.bookId)) continue;
        if (addressed(hook, m)) out.push(deliveryFor(hook, m, now));
      }
    }
  }

  // One listing per de-vig method in use; arbitrage does not depend on the method, so it is read
  // from whichever listing is built (the default method's when only arbitrage is watched). EV
  // webhooks on player_props get a listing of the changed games' props of their own (docs/player-props.md).
  const evHooks = byType('ev');
  const arbHooks = byType('arbitrage');
  const watchesProps = (h: WebhookRow) => predicateOf(h).marketType === 'player_props';
  const methods = new Set<DevigMethod>(evHooks.filter((h) => !watchesProps(h)).map((h) => predicateOf(h).devig ?? DEFAULT_DEVIG_METHOD));
  if (arbHooks.length && !methods.size) methods.add(DEFAULT_DEVIG_METHOD);
  let arbitrageDone = false;
  for (const method of methods) {
    const listing = await listingEntries(prisma, entries, method);
    const candidates = evCandidates(listing, entries, method);
    for (const hook of evHooks.filter((h) => !watchesProps(h) && (predicateOf(h).devig ?? DEFAULT_DEVIG_METHOD) === method)) {
      const min = predicateOf(hook).minEvPer100!;
      for (const c of candidates) if (c.evPer100 >= min && addressed(hook, c)) out.push(deliveryFor(hook, c, now));
    }
    if (!arbitrageDone && arbHooks.length) {
      arbitrageDone = true;
      for (const c of arbitrageCandidates(listing, entries)) for (const hook of arbHooks) if (addressed(hook, c)) out.push(deliveryFor(hook, c, now));
    }
  }
  const propHooks = evHooks.filter(watchesProps);
  for (const method of new Set(propHooks.map((h) => predicateOf(h).devig ?? DEFAULT_DEVIG_METHOD))) {
    const candidates = evCandidates(await listingEntries(prisma, entries, method, true), entries, method);
    for (const hook of propHooks.filter((h) => (predicateOf(h).devig ?? DEFAULT_DEVIG_METHOD) === method)) {
      const p = predicateOf(hook);
      for (const c of candidates) {
        if (c.evPer100 < p.minEvPer100! || c.recordedAt < hook.createdAt) continue;
        if (p.gameId !== undefined && p.gameId !== c.gameId) continue;
        if (p.bookId !== undefined && p.bookId !== c.bookId) continue;
        if (p.playerId !== undefined && p.playerId !== c.playerId) continue;
        if (p.propType !== undefined && p.propType !== propTypeOf(c.marketType!)) continue;
        out.push(deliveryFor(hook, c, now));
      }
    }
  }
  return out;
}

/**
 * One round: evaluates the change log entries after the cursor (at most BATCH) and stores their
 * deliveries with the cursor's move. Resolves the number of entries evaluated (0: up to date).
 */
export async function evaluateChanges(prisma: PrismaClient, now: Date): Promise<number> {
  const cursor = await readCursor(prisma);
  const entries = await changesAfter(prisma, cursor, BATCH);
  if (!entries.length) return 0;
  const hooks = await activeWebhooks(prisma, now);
  // Statuses are tracked whatever the webhooks, so a webhook registered later compares against them.
  const { candidates, statuses } = await statusChanges(prisma, entries);
  const deliveries = hooks.length ? await deliveriesOf(prisma, entries, hooks, candidates, now) : [];
  const stored = await storeEvaluation(prisma, { from: cursor, to: entries.at(-1)!.version, deliveries, statuses, now });
  return stored ? entries.length : 0;
}

/** Signals evaluated per round (one transaction). */
const SIGNAL_BATCH = 200;

/** The moves of a stored steam or RLM signal (its `data.moves`), as the predicate counts them. */
type StoredMove = { book_id: number; size: number; unit: 'points' | 'cents' };

/**
 * Whether a stored steam or RLM signal fires `p`: at least minBooks books (any number when absent)
 * whose move reaches min_points (a move in points) or min_cents (in cents; a threshold left out
 * counts every move of its unit), and for RLM a majority of at least minTicketsPercent.
 */
export function signalFires(p: WebhookPredicateModel, data: Record<string, unknown>): boolean {
  const moves = Array.isArray(data.moves) ? (data.moves as StoredMove[]) : [];
  const big = (m: StoredMove) => (m.unit === 'points' ? p.minPoints === undefined || m.size >= p.minPoints : p.minCents === undefined || m.size >= p.minCents);
  const books = new Set(moves.filter(big).map((m) => m.book_id)).size;
  if (books === 0 || (p.minBooks !== undefined && books < p.minBooks)) return false;
  if (p.type === 'reverse_line_movement' && p.minTicketsPercent !== undefined) {
    const share = data.majority_tickets_percent;
    if (typeof share !== 'number' || share < p.minTicketsPercent) return false;
  }
  return true;
}

/**
 * One round over the stored signals (steam, reverse line movement) after the signals cursor: each
 * enabled webhook of those types gets a delivery per signal its predicate picks, stored with the
 * cursor's move in one transaction (as evaluateChanges). Resolves the number of signals read (0: up to date).
 */
export async function evaluateSignals(prisma: PrismaClient, now: Date): Promise<number> {
  const cursor = await readSignalCursor(prisma);
  const { rows, last, committedAt } = await signalsAfter(prisma, cursor, SIGNAL_BATCH);
  if (last === cursor) return 0;
  const hooks = (await activeWebhooks(prisma, now)).filter((h) => predicateOf(h).type === 'steam' || predicateOf(h).type === 'reverse_line_movement');
  const deliveries: NewDelivery[] = [];
  for (const row of rows) {
    const data = row.data as Record<string, unknown>;
    const c: Candidate = {
      key: `signal:${row.key}`,
      type: row.kind as 'steam' | 'reverse_line_movement',
      data: { signal_key: row.key, game_id: row.gameId, market_type: row.marketType, period: row.period, side: row.side, at: row.at.toISOString(), detected_at: row.detectedAt.toISOString(), ...data },
      gameId: row.gameId,
      bookId: null,
      marketType: row.marketType,
      recordedAt: committedAt.get(row.detectedAt.getTime()) ?? now,
    };
    for (const hook of hooks) {
      const p = predicateOf(hook);
      if (p.type === row.kind && c.recordedAt >= hook.createdAt && matchesFilters(p, c) && signalFires(p, data)) deliveries.push(deliveryFor(hook, c, now));
    }
  }
  const stored = await storeSignalEvaluation(prisma, { from: cursor, to: last, deliveries, now });
  return stored ? rows.length || 1 : 0;
}
