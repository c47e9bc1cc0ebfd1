/**
 * Line-movement intelligence (issue 23), pure over an outcome history: steam, reverse line movement
 * and the market leader of each new number. docs/signals.md gives the definitions and the defaults'
 * reasons; the thresholds are SignalThresholds, configurable.
 *
 * A market here is one game, market type, period and live flag; its moves are read on one side
 * (home for moneyline and spread, over for total), since the other side mirrors it.
 */

import { americanToCents, lineMovement } from './line-movement';
import { definitionOf, hasLine, isPropMarket, STORED_MARKET_TYPES, type StoredMarketType } from './market-types';
import { pushTo } from './grouping';

/** Which outcome a price is of: one book's side of a market of a game, pregame or live. */
export interface OutcomeKey {
  gameId: number;
  bookId: number;
  marketType: string;
  period: string;
  side: string;
  isLive: boolean;
}

/** One stored price of an outcome (a history row). */
export interface HistoryPrice extends OutcomeKey {
  point: number | null;
  american: number;
  seenAt: Date;
}

/** A book's price change between two consecutive prices of one outcome. */
export interface PriceMove extends OutcomeKey {
  at: Date;
  from: { point: number | null; american: number };
  to: { point: number | null; american: number };
  /** +1 towards the side (it became more favoured, or the total rose), -1 away from it. */
  direction: 1 | -1;
  /** Points moved (spread, total) or cents (moneyline, or a price move at an unchanged point). */
  size: number;
  /** The unit of `size`. */
  unit: 'points' | 'cents';
}

export interface SignalThresholds {
  /** Steam: at least this many books move the same way... */
  steamBooks: number;
  /** ...within this many minutes... */
  steamWindowMinutes: number;
  /** ...each by at least this many points (spread, total)... */
  steamMinPoints: number;
  /** ...or cents (moneyline). */
  steamMinCents: number;
  /** Reverse line movement: the majority side holds at least this share of tickets (percent). */
  rlmMinTicketsPercent: number;
  /** Reverse line movement: at least this many books move toward the minority side within the steam window. */
  rlmBooks: number;
  /**
   * Whether live (in-game) markets are read too. Default false: in play every book moves with the
   * score at nearly every capture, so books moving together is the game, not money.
   */
  includeLive: boolean;
}

/**
 * Defaults (docs/signals.md, "Thresholds"): 3 books within 15 minutes (the real feed is captured every
 * 13 minutes or so, so a shorter window could not see two captures), half a point (the smallest step
 * of a basketball line) or 10 cents; RLM when 60 % or more of the tickets sit on one side and 2 books
 * move the other way.
 */
export const DEFAULT_SIGNAL_THRESHOLDS: SignalThresholds = {
  steamBooks: 3,
  steamWindowMinutes: 15,
  steamMinPoints: 0.5,
  steamMinCents: 10,
  rlmMinTicketsPercent: 60,
  rlmBooks: 2,
  includeLive: false,
};

/** The side a market's moves are read on. */
export const SIGNAL_SIDE: Readonly<Record<string, string>> = Object.fromEntries(
  STORED_MARKET_TYPES.filter((t) => !isPropMarket(t)).map((t) => [t, definitionOf(t)!.sides[0]]),
);

/** Whether a market's outcomes carry a point (false for a word that is no market type). */
const withLine = (marketType: string) => marketType in SIGNAL_SIDE && hasLine(marketType as StoredMarketType);

const marketKey = (p: { gameId: number; marketType: string; period: string; isLive: boolean }) => `${p.gameId}|${p.marketType}|${p.period}|${p.isLive}`;

/** The moves of `prices` (any order) on each market's signal side, in time order. */
export function priceMoves(prices: readonly HistoryPrice[]): PriceMove[] {
  const byOutcome = new Map<string, HistoryPrice[]>();
  for (const p of prices) {
    if (SIGNAL_SIDE[p.marketType] !== p.side) continue;
    const key = outcomeKey(p);
    pushTo(byOutcome, key, p);
  }
  const moves: PriceMove[] = [];
  for (const list of byOutcome.values()) {
    list.sort((a, b) => a.seenAt.getTime() - b.seenAt.getTime());
    for (let i = 1; i < list.length; i++) {
      const m = moveBetween(list[i - 1]!, list[i]!);
      if (m) moves.push(m);
    }
  }
  return moves.sort(byTimeThenBook);
}

/** One book's outcome on a market's signal side: the history rows whose consecutive prices make moves. */
export const outcomeKey = (p: OutcomeKey) => `${marketKey(p)}|${p.bookId}`;

/** Moves in time order, a book's before a higher-numbered book's at the same time (priceMoves' order). */
export const byTimeThenBook = (a: PriceMove, b: PriceMove) => a.at.getTime() - b.at.getTime() || a.bookId - b.bookId;

/** The move from one stored price of an outcome to the next, or null when nothing moved. */
export function moveBetween(a: HistoryPrice, b: HistoryPrice): PriceMove | null {
  if (a.point === b.point && a.american === b.american) return null;
  const m = lineMovement(b.marketType, b.side, a, b);
  if (m.direction === 'none') return null;
  const byPoint = (definitionOf(b.marketType)?.line ?? 'handicap') !== 'none' && a.point !== null && b.point !== null && a.point !== b.point;
  const size = byPoint ? Math.abs(b.point! - a.point!) : Math.abs(americanToCents(b.american) - americanToCents(a.american));
  const direction = m.direction === 'towards_favorite' || m.direction === 'towards_over' ? 1 : -1;
  return { ...pick(b), at: b.seenAt, from: { point: a.point, american: a.american }, to: { point: b.point, american: b.american }, direction, size, unit: byPoint ? 'points' : 'cents' };
}

const pick = (p: HistoryPrice): OutcomeKey => ({ gameId: p.gameId, bookId: p.bookId, marketType: p.marketType, period: p.period, side: p.side, isLive: p.isLive });

/** Whether a move counts for steam and RLM: big enough, and pregame unless live markets are read. */
export const countsForSteam = (m: PriceMove, t: SignalThresholds) => bigEnough(m, t) && !(m.isLive && !t.includeLive);

/** The moves of one market's side in one direction, the unit findSteam scans. */
export const steamGroupKey = (m: PriceMove) => `${marketKey(m)}|${m.direction}`;

const bigEnough = (m: PriceMove, t: SignalThresholds) => m.size >= (m.unit === 'points' ? t.steamMinPoints : t.steamMinCents) - 1e-9;

/** A steam event: `books` moved the market's side the same way within the window. */
export interface SteamEvent {
  gameId: number;
  marketType: string;
  period: string;
  isLive: boolean;
  side: string;
  direction: 1 | -1;
  /** The first move's time and the last one's. */
  startedAt: Date;
  endedAt: Date;
  /** The moves, one per book (its first in the window), in time order. */
  moves: PriceMove[];
}

/**
 * Steam: at least steamBooks distinct books move the same side the same direction by at least the
 * threshold within steamWindowMinutes of the first such move. Each window gives one event; the next
 * event starts with the first qualifying move after it.
 */
export function findSteam(moves: readonly PriceMove[], t: SignalThresholds = DEFAULT_SIGNAL_THRESHOLDS): SteamEvent[] {
  const groups = new Map<string, PriceMove[]>();
  for (const m of moves) {
    if (!countsForSteam(m, t)) continue;
    const key = steamGroupKey(m);
    pushTo(groups, key, m);
  }
  const events: SteamEvent[] = [];
  for (const list of groups.values()) events.push(...scanWindows(list, t.steamBooks, t.steamWindowMinutes).events);
  return events.sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime() || a.gameId - b.gameId);
}

/**
 * findSteam's scan of one group (one market's side, one direction; moves in time order): from each
 * move, the window of `windowMinutes`; `books` distinct books in it make an event and the scan goes
 * on after the window, else from the next move. With `now` (no move later than it is still to
 * come), `settled` counts the leading moves whose windows are closed (their first move is at least
 * the window before `now`): later moves cannot change what the scan decides there, so an
 * incremental caller may drop them and scan the rest again with the moves that come next.
 */
export function scanWindows(list: readonly PriceMove[], books: number, windowMinutes: number, now?: Date): { events: SteamEvent[]; settled: number } {
  const windowMs = windowMinutes * 60_000;
  const events: SteamEvent[] = [];
  let settled = 0;
  let closed = now !== undefined;
  let i = 0;
  while (i < list.length) {
    const start = list[i]!.at.getTime();
    const firstByBook = new Map<number, PriceMove>();
    let j = i;
    for (; j < list.length && list[j]!.at.getTime() - start <= windowMs; j++) if (!firstByBook.has(list[j]!.bookId)) firstByBook.set(list[j]!.bookId, list[j]!);
    if (firstByBook.size >= books) {
      const ms = [...firstByBook.values()];
      const first = ms[0]!;
      events.push({ ...pick({ ...first, seenAt: first.at, point: null, american: 0 }), direction: first.direction, startedAt: first.at, endedAt: ms.at(-1)!.at, moves: ms });
      i = j;
    } else i++;
    // A move after `now` is later than now, so more than the window after this start: none can join.
    closed &&= now!.getTime() - start >= windowMs;
    if (closed) settled = i;
  }
  return { events, settled };
}

/** Public betting of one side of a market: shares of tickets and of money, percent. */
export interface BettingSplit {
  gameId: number;
  marketType: string;
  side: string;
  ticketsPercent: number;
  moneyPercent: number | null;
}

/** Reverse line movement: the line moved toward the side most tickets are not on. */
export interface ReverseLineMovementEvent {
  gameId: number;
  marketType: string;
  period: string;
  isLive: boolean;
  /** The side holding the majority of tickets, and its shares. */
  majoritySide: string;
  majorityTicketsPercent: number;
  majorityMoneyPercent: number | null;
  /** The side the line moved toward (the minority of tickets). */
  towardSide: string;
  startedAt: Date;
  moves: PriceMove[];
}

/**
 * Reverse line movement: while at least rlmMinTicketsPercent of the tickets are on one side, at
 * least rlmBooks books move toward the other side (by the steam thresholds) within the steam window.
 * `splits` are the shares at the time of the moves (ingest computes with the shares it has just
 * stored); `sides` gives each market type's two sides.
 */
export function findReverseLineMovement(
  moves: readonly PriceMove[],
  splits: readonly BettingSplit[],
  sides: Readonly<Record<string, readonly [string, string]>>,
  t: SignalThresholds = DEFAULT_SIGNAL_THRESHOLDS,
): ReverseLineMovementEvent[] {
  const events: ReverseLineMovementEvent[] = [];
  for (const steam of findSteam(moves, { ...t, steamBooks: t.rlmBooks })) {
    const e = reverseLineMovementOf(steam, splits, sides, t);
    if (e) events.push(e);
  }
  return events;
}

/**
 * The RLM event of one window where rlmBooks books moved together (a findSteam event with steamBooks
 * = rlmBooks), read against `splits`; null when the tickets' majority is too small or is the side
 * the line moved toward.
 */
export function reverseLineMovementOf(
  steam: SteamEvent,
  splits: readonly BettingSplit[],
  sides: Readonly<Record<string, readonly [string, string]>>,
  t: SignalThresholds = DEFAULT_SIGNAL_THRESHOLDS,
): ReverseLineMovementEvent | null {
  const pair = sides[steam.marketType];
  if (!pair) return null;
  const [first, second] = pair;
  const split = (side: string) => splits.find((s) => s.gameId === steam.gameId && s.marketType === steam.marketType && s.side === side);
  const a = split(first);
  const b = split(second);
  if (!a || !b) return null;
  const majority = a.ticketsPercent >= b.ticketsPercent ? a : b;
  if (majority.ticketsPercent < t.rlmMinTicketsPercent) return null;
  // Moves are read on the first side: direction +1 favours it (or raises the total: toward over).
  const toward = steam.direction === 1 ? first : second;
  if (toward === majority.side) return null;
  return {
    gameId: steam.gameId,
    marketType: steam.marketType,
    period: steam.period,
    isLive: steam.isLive,
    majoritySide: majority.side,
    majorityTicketsPercent: majority.ticketsPercent,
    majorityMoneyPercent: majority.moneyPercent,
    towardSide: toward,
    startedAt: steam.startedAt,
    moves: steam.moves,
  };
}

/** The market leader of one new number: the book first there, and how long the others took. */
export interface LeaderEvent {
  gameId: number;
  marketType: string;
  period: string;
  isLive: boolean;
  side: string;
  /** The new number (the signal side's point). */
  number: number;
  leaderBookId: number;
  at: Date;
  /** Books that moved to the same number later, with their delay in seconds. */
  followers: Array<{ bookId: number; afterSeconds: number }>;
}

/**
 * Market leader: for every move of a spread or total to a number no other book of the market was on
 * just before, the book that got there first, and each other book that moved to it afterwards (while
 * the leader stays on it) with how long it took. Every book's first price seeds the numbers in use;
 * `prices` are the history rows, any order.
 */
export function findLeaders(prices: readonly HistoryPrice[], t: Pick<SignalThresholds, 'includeLive'> = DEFAULT_SIGNAL_THRESHOLDS): LeaderEvent[] {
  const byMarket = new Map<string, HistoryPrice[]>();
  for (const p of prices) {
    if (!countsForLeaders(p, t)) continue;
    pushTo(byMarket, marketKey(p), p);
  }
  const events: LeaderEvent[] = [];
  for (const list of byMarket.values()) {
    list.sort(byPriceTimeThenBook);
    const market: LeaderMarket = { current: new Map(), open: [] };
    for (const p of list) {
      const e = leaderStep(market, p);
      if (e) events.push(e);
    }
  }
  return events.sort((a, b) => a.at.getTime() - b.at.getTime() || a.gameId - b.gameId);
}

/** Whether findLeaders reads a price: a spread's or total's signal side, with a point, pregame unless live markets are read. */
export const countsForLeaders = (p: HistoryPrice, t: Pick<SignalThresholds, 'includeLive'>) =>
  SIGNAL_SIDE[p.marketType] === p.side && withLine(p.marketType) && p.point !== null && !(p.isLive && !t.includeLive);

/** The market findLeaders reads a price in (one game, market type, period and live flag). */
export const leaderMarketKey = (p: { gameId: number; marketType: string; period: string; isLive: boolean }) => marketKey(p);

/** The order findLeaders reads a market's prices in: time, then book. */
export const byPriceTimeThenBook = (a: HistoryPrice, b: HistoryPrice) => a.seenAt.getTime() - b.seenAt.getTime() || a.bookId - b.bookId;

/** findLeaders' running state over one market: each book's number, and the events a book can still follow. */
export interface LeaderMarket {
  current: Map<number, number>;
  open: LeaderEvent[];
}

/**
 * findLeaders' step: reads the market's next price (in byPriceTimeThenBook order), adds its book to
 * the open events it follows (calling `followed` for each), and returns the event it starts, if any.
 */
export function leaderStep(market: LeaderMarket, p: HistoryPrice, followed?: (e: LeaderEvent) => void): LeaderEvent | null {
  const { current, open } = market;
  const before = current.get(p.bookId);
  if (before === p.point) return null;
  current.set(p.bookId, p.point!);
  // A book's first price is where it opened, not a move.
  if (before === undefined) return null;
  for (let k = open.length - 1; k >= 0; k--) if (open[k]!.leaderBookId === p.bookId) open.splice(k, 1);
  for (const e of open) {
    if (p.point === e.number && !e.followers.some((f) => f.bookId === p.bookId)) {
      e.followers.push({ bookId: p.bookId, afterSeconds: Math.round((p.seenAt.getTime() - e.at.getTime()) / 1000) });
      followed?.(e);
    }
  }
  for (const [book, point] of current) if (book !== p.bookId && point === p.point) return null;
  const e: LeaderEvent = { gameId: p.gameId, marketType: p.marketType, period: p.period, isLive: p.isLive, side: p.side, number: p.point!, leaderBookId: p.bookId, at: p.seenAt, followers: [] };
  open.push(e);
  return e;
}

/** One book's opening and current price of an outcome, with their times. */
export interface OpeningToCurrent {
  gameId: number;
  bookId: number;
  marketType: string;
  period: string;
  side: string;
  isLive: boolean;
  open: { point: number | null; american: number; at: Date };
  current: { point: number | null; american: number; at: Date };
}

/** Opening -> current per book and outcome, from history rows (any order). */
export function openingToCurrent(prices: readonly HistoryPrice[]): OpeningToCurrent[] {
  const out = new Map<string, OpeningToCurrent>();
  for (const p of prices) {
    const key = `${marketKey(p)}|${p.side}|${p.bookId}`;
    const price = { point: p.point, american: p.american, at: p.seenAt };
    const o = out.get(key);
    if (!o) out.set(key, { ...pick(p), open: price, current: price });
    else {
      if (p.seenAt < o.open.at) o.open = price;
      if (p.seenAt >= o.current.at) o.current = price;
    }
  }
  return [...out.values()];
}
