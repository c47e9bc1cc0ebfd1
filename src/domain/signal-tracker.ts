/**
 * The line-movement signals of one game kept up to date price by price (issue 23, made incremental
 * for issue 21's ingest speed; docs/signals.md, "Incremental at ingest"). Fed the prices of each
 * capture, it gives what findSteam, findReverseLineMovement and findLeaders over every price fed so
 * far would give, without reading the past again: each book's last price (for its next move), the
 * moves of the steam windows still open, and each market's leader state. The work per capture is
 * that of the capture's own prices (plus the RLM windows not yet stored, see `settledRlmWindows`).
 */

import {
  byPriceTimeThenBook,
  byTimeThenBook,
  countsForLeaders,
  countsForSteam,
  DEFAULT_SIGNAL_THRESHOLDS,
  leaderMarketKey,
  leaderStep,
  moveBetween,
  outcomeKey,
  scanWindows,
  SIGNAL_SIDE,
  steamGroupKey,
  type HistoryPrice,
  type LeaderEvent,
  type LeaderMarket,
  type PriceMove,
  type SignalThresholds,
  type SteamEvent,
} from './signals';
import { pushTo } from './grouping';

/** What one `add` found. */
export interface TrackedSignals {
  /**
   * Steam events of findSteam over every price so far, less those settled by an earlier `add` (which
   * that call returned): the union over all calls is the union of findSteam at each call.
   */
  steam: SteamEvent[];
  /**
   * Windows where rlmBooks books moved together (findSteam with steamBooks = rlmBooks), to read
   * against the shares of now (reverseLineMovementOf): the settled ones kept in `settledRlmWindows`
   * and the open ones. findReverseLineMovement at this call gives exactly the RLM events of these
   * plus those of the windows already dropped from `settledRlmWindows` by the caller.
   */
  rlmWindows: SteamEvent[];
  /** Leader events started or followed by this call's prices (the same objects as in `leaders`). */
  leaders: Set<LeaderEvent>;
}

export class GameSignalTracker {
  /** Each outcome's last price: its next price's move starts there. */
  private readonly last = new Map<string, HistoryPrice>();
  /** Per steam group (steamGroupKey), the moves from the first whose window is still open. */
  private readonly steamGroups = new Map<string, PriceMove[]>();
  private readonly rlmGroups = new Map<string, PriceMove[]>();
  private readonly leaderMarkets = new Map<string, LeaderMarket>();
  /**
   * RLM windows whose moves are settled: their RLM depends only on the shares, which change, so they
   * are read again at every capture until the caller has stored their event and removes them.
   */
  settledRlmWindows: SteamEvent[] = [];
  /** Every leader event so far, in the order found (followers grow in place). */
  readonly leaders: LeaderEvent[] = [];
  /** The latest `now` passed to `add` (epoch ms). */
  lastAt = -Infinity;

  constructor(readonly thresholds: SignalThresholds = DEFAULT_SIGNAL_THRESHOLDS) {}

  /**
   * Adds `prices` (history rows of this game, any order among themselves) seen up to `now`, every
   * one later than the previous call's `now`: no price at or before `now` may come after this call.
   * @throws Error when a price is not later than the previous call's `now` (the caller must start a
   * new tracker and feed it everything, in order).
   */
  add(prices: readonly HistoryPrice[], now: Date): TrackedSignals {
    const t = this.thresholds;
    for (const p of prices) if (p.seenAt.getTime() <= this.lastAt || p.seenAt.getTime() > now.getTime()) throw new Error('GameSignalTracker: a price out of order');
    this.lastAt = now.getTime();
    const ordered = [...prices].sort(byPriceTimeThenBook);

    const moves: PriceMove[] = [];
    for (const p of ordered) {
      if (SIGNAL_SIDE[p.marketType] !== p.side) continue;
      const key = outcomeKey(p);
      const before = this.last.get(key);
      this.last.set(key, p);
      const m = before && moveBetween(before, p);
      if (m) moves.push(m);
    }
    moves.sort(byTimeThenBook);
    for (const m of moves) {
      if (!countsForSteam(m, t)) continue;
      pushTo(this.steamGroups, steamGroupKey(m), m);
      pushTo(this.rlmGroups, steamGroupKey(m), m);
    }

    const steam: SteamEvent[] = [];
    for (const [key, list] of this.steamGroups) {
      const scan = scanWindows(list, t.steamBooks, t.steamWindowMinutes, now);
      steam.push(...scan.events);
      settle(this.steamGroups, key, list, scan.settled);
    }
    const open: SteamEvent[] = [];
    for (const [key, list] of this.rlmGroups) {
      const scan = scanWindows(list, t.rlmBooks, t.steamWindowMinutes, now);
      // A window is settled when its first move is (then the window is closed and its moves all are).
      for (const e of scan.events) {
        if (list.indexOf(e.moves[0]!) < scan.settled) this.settledRlmWindows.push(e);
        else open.push(e);
      }
      settle(this.rlmGroups, key, list, scan.settled);
    }

    const leaders = new Set<LeaderEvent>();
    for (const p of ordered) {
      if (!countsForLeaders(p, t)) continue;
      const key = leaderMarketKey(p);
      let market = this.leaderMarkets.get(key);
      if (!market) this.leaderMarkets.set(key, (market = { current: new Map(), open: [] }));
      const e = leaderStep(market, p, (followed) => leaders.add(followed));
      if (e) {
        this.leaders.push(e);
        leaders.add(e);
      }
    }
    return { steam, rlmWindows: [...this.settledRlmWindows, ...open], leaders };
  }
}

/** Drops a group's settled moves: no later scan starts before them. */
function settle(map: Map<string, PriceMove[]>, key: string, list: PriceMove[], settled: number): void {
  if (settled >= list.length) map.delete(key);
  else if (settled > 0) map.set(key, list.slice(settled));
}
