/**
 * Line-movement intelligence (issue 23), pure over an outcome history: steam, reverse line movement
 * and the market leader of each new number. docs/signals.md gives the definitions and the defaults'
 * reasons; the thresholds are SignalThresholds, configurable.
 *
 * A market here is one game, market type, period and live flag; its moves are read on one side
 * (home for moneyline and spread, over for total), since the other side mirrors it.
 */

import { americanToCents, lineMovement } from './line-movement';

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
export const SIGNAL_SIDE: Readonly<Record<string, string>> = { moneyline: 'home', spread: 'home', total: 'over', home_team_total: 'over', away_team_total: 'over' };

const marketKey = (p: { gameId: number; marketType: string; period: string; isLive: boolean }) => `${p.gameId}|${p.marketType}|${p.period}|${p.isLive}`;

/** The moves of `prices` (any order) on each market's signal side, in time order. */
export function priceMoves(prices: readonly HistoryPrice[]): PriceMove[] {
  const byOutcome = new Map<string, HistoryPrice[]>();
  for (const p of prices) {
    if (SIGNAL_SIDE[p.marketType] !== p.side) continue;
    const key = `${marketKey(p)}|${p.bookId}`;
    byOutcome.set(key, [...(byOutcome.get(key) ?? []), p]);
  }
  const moves: PriceMove[] = [];
  for (const list of byOutcome.values()) {
    list.sort((a, b) => a.seenAt.getTime() - b.seenAt.getTime());
    for (let i = 1; i < list.length; i++) {
      const a = list[i - 1]!;
      const b = list[i]!;
      if (a.point === b.point && a.american === b.american) continue;
      const m = lineMovement(b.marketType, b.side, a, b);
      if (m.direction === 'none') continue;
      const byPoint = b.marketType !== 'moneyline' && a.point !== null && b.point !== null && a.point !== b.point;
      const size = byPoint ? Math.abs(b.point! - a.point!) : Math.abs(americanToCents(b.american) - americanToCents(a.american));
      const direction = m.direction === 'towards_favorite' || m.direction === 'towards_over' ? 1 : -1;
      moves.push({ ...pick(b), at: b.seenAt, from: { point: a.point, american: a.american }, to: { point: b.point, american: b.american }, direction, size, unit: byPoint ? 'points' : 'cents' });
    }
  }
  return moves.sort((a, b) => a.at.getTime() - b.at.getTime() || a.bookId - b.bookId);
}

const pick = (p: HistoryPrice): OutcomeKey => ({ gameId: p.gameId, bookId: p.bookId, marketType: p.marketType, period: p.period, side: p.side, isLive: p.isLive });

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
  const windowMs = t.steamWindowMinutes * 60_000;
  const groups = new Map<string, PriceMove[]>();
  for (const m of moves) {
    if (!bigEnough(m, t) || (m.isLive && !t.includeLive)) continue;
    const key = `${marketKey(m)}|${m.direction}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  const events: SteamEvent[] = [];
  for (const list of groups.values()) {
    let i = 0;
    while (i < list.length) {
      const start = list[i]!.at.getTime();
      const firstByBook = new Map<number, PriceMove>();
      let j = i;
      for (; j < list.length && list[j]!.at.getTime() - start <= windowMs; j++) if (!firstByBook.has(list[j]!.bookId)) firstByBook.set(list[j]!.bookId, list[j]!);
      if (firstByBook.size >= t.steamBooks) {
        const ms = [...firstByBook.values()];
        const first = ms[0]!;
        events.push({ ...pick({ ...first, seenAt: first.at, point: null, american: 0 }), direction: first.direction, startedAt: first.at, endedAt: ms.at(-1)!.at, moves: ms });
        i = j;
      } else i++;
    }
  }
  return events.sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime() || a.gameId - b.gameId);
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
    const pair = sides[steam.marketType];
    if (!pair) continue;
    const [first, second] = pair;
    const split = (side: string) => splits.find((s) => s.gameId === steam.gameId && s.marketType === steam.marketType && s.side === side);
    const a = split(first);
    const b = split(second);
    if (!a || !b) continue;
    const majority = a.ticketsPercent >= b.ticketsPercent ? a : b;
    if (majority.ticketsPercent < t.rlmMinTicketsPercent) continue;
    // Moves are read on the first side: direction +1 favours it (or raises the total: toward over).
    const toward = steam.direction === 1 ? first : second;
    if (toward === majority.side) continue;
    events.push({
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
    });
  }
  return events;
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
    if (SIGNAL_SIDE[p.marketType] !== p.side || p.marketType === 'moneyline' || p.point === null || (p.isLive && !t.includeLive)) continue;
    byMarket.set(marketKey(p), [...(byMarket.get(marketKey(p)) ?? []), p]);
  }
  const events: LeaderEvent[] = [];
  for (const list of byMarket.values()) {
    list.sort((a, b) => a.seenAt.getTime() - b.seenAt.getTime() || a.bookId - b.bookId);
    const current = new Map<number, number>();
    const open: LeaderEvent[] = [];
    for (const p of list) {
      const before = current.get(p.bookId);
      if (before === p.point) continue;
      current.set(p.bookId, p.point!);
      // A book's first price is where it opened, not a move.
      if (before === undefined) continue;
      for (let k = open.length - 1; k >= 0; k--) if (open[k]!.leaderBookId === p.bookId) open.splice(k, 1);
      for (const e of open) {
        if (p.point === e.number && !e.followers.some((f) => f.bookId === p.bookId)) {
          e.followers.push({ bookId: p.bookId, afterSeconds: Math.round((p.seenAt.getTime() - e.at.getTime()) / 1000) });
        }
      }
      const taken = [...current.entries()].some(([book, point]) => book !== p.bookId && point === p.point);
      if (taken) continue;
      const e: LeaderEvent = { gameId: p.gameId, marketType: p.marketType, period: p.period, isLive: p.isLive, side: p.side, number: p.point!, leaderBookId: p.bookId, at: p.seenAt, followers: [] };
      events.push(e);
      open.push(e);
    }
  }
  return events.sort((a, b) => a.at.getTime() - b.at.getTime() || a.gameId - b.gameId);
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
