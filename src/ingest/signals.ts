import {
  DEFAULT_SIGNAL_THRESHOLDS,
  GameSignalTracker,
  MARKET_TYPES,
  reverseLineMovementOf,
  SIDES_BY_MARKET,
  type BettingSplit,
  type HistoryPrice,
  type LeaderEvent,
  type PriceMove,
  type ReverseLineMovementEvent,
  type SignalKind,
  type SignalThresholds,
  type SteamEvent,
} from '../domain';
import type { PrismaClient } from '../db/client';
import { pregameHistory, sportsbookKinds, storedSignalsOf, type SignalRow } from '../db/signal-repository';
import type { PublicBettingRow, QuoteRow, SportsbookRow } from './feed-rows';

// Line-movement signals at ingest (issue 23; docs/signals.md): with each capture, the games whose
// prices it moved and that have not started get their signals brought up to date, and every event
// not yet stored is stored under its key, in the capture's own statement: the signals commit with the
// prices that showed them. Requests only read the table: nothing is computed per request. An event
// keeps the figures of the capture that first showed it (for RLM, the shares then); a leader's
// followers are brought up to date as books arrive on its number.
//
// Incremental (issue 21: the full re-read of every moved game's history at every capture made a
// replay quadratic): this process keeps, per game, the detectors' running state (GameSignalTracker)
// fed with the history rows each capture added, as the capture's diff saw them. A game this process
// has not seen yet (first capture, a restart, a game that was not `scheduled` for a while, a capture
// older than the last one read) is seeded once from its stored history and stored signals. The
// events stored are those of the detectors over the game's pregame history up to each capture that
// moved it, as recomputing everything at every capture gives (test/integration/signals-incremental.test.ts).

/**
 * What one capture added, as of its diff, for the signals detected with it (detectSignals),
 * which read neither memory nor the database for it: the database does not hold it yet, and memory
 * holds the next captures' state by the time theirs are detected.
 */
export interface CaptureAdditions {
  /** The capture's time: the seenAt of its history rows. */
  at: Date;
  /** The games whose quotes changed (ChangeSet.markets' games). */
  gameIds: number[];
  /** The quotes that got a history row (their point or price moved, or they are new). */
  history: QuoteRow[];
  /** Each of those games' status after the capture. */
  statuses: Map<number, string>;
  /** The public-betting shares after the capture (lowestBookSplits) of those games that have not started (SIGNAL_STATUS). */
  splits: Map<number, BettingSplit[]>;
  /** The sportsbooks this capture creates. */
  books: readonly SportsbookRow[];
  /** The games this capture creates: nothing of them is stored yet. */
  created: ReadonlySet<number>;
}

const moveData = (m: PriceMove) => ({
  book_id: m.bookId,
  at: m.at.toISOString(),
  from_point: m.from.point,
  from_american: m.from.american,
  to_point: m.to.point,
  to_american: m.to.american,
  size: m.size,
  unit: m.unit,
});

const steamRow = (e: SteamEvent): SignalRow => ({
  key: `steam|${e.gameId}|${e.marketType}|${e.period}|${e.side}|${e.direction}|${e.startedAt.toISOString()}`,
  kind: 'steam',
  gameId: e.gameId,
  marketType: e.marketType,
  period: e.period,
  side: e.side,
  at: e.startedAt,
  data: { direction: e.direction === 1 ? 'toward_side' : 'away_from_side', books: e.moves.length, ended_at: e.endedAt.toISOString(), moves: e.moves.map(moveData) },
});

const rlmKey = (e: { gameId: number; marketType: string; period: string; startedAt: Date }, towardSide: string) =>
  `reverse_line_movement|${e.gameId}|${e.marketType}|${e.period}|${towardSide}|${e.startedAt.toISOString()}`;

/** The side an RLM window's moves went toward (reverseLineMovementOf's reading of the direction). */
const towardOf = (w: SteamEvent) => (SIDES_BY_MARKET as Record<string, readonly [string, string] | undefined>)[w.marketType]?.[w.direction === 1 ? 0 : 1] ?? '';

const windowKeys = new WeakMap<SteamEvent, string>();
/** The key an RLM window's event is stored under, memoised: a settled window is checked at every capture of its game. */
function windowKey(w: SteamEvent): string {
  let key = windowKeys.get(w);
  if (key === undefined) windowKeys.set(w, (key = rlmKey(w, towardOf(w))));
  return key;
}

const rlmRow = (e: ReverseLineMovementEvent): SignalRow => ({
  key: rlmKey(e, e.towardSide),
  kind: 'reverse_line_movement',
  gameId: e.gameId,
  marketType: e.marketType,
  period: e.period,
  side: e.towardSide,
  at: e.startedAt,
  data: {
    toward_side: e.towardSide,
    majority_side: e.majoritySide,
    majority_tickets_percent: e.majorityTicketsPercent,
    majority_money_percent: e.majorityMoneyPercent,
    books: e.moves.length,
    moves: e.moves.map(moveData),
  },
});

const leaderRow = (e: LeaderEvent): SignalRow => ({
  key: `market_leader|${e.gameId}|${e.marketType}|${e.period}|${e.side}|${e.number}|${e.at.toISOString()}`,
  kind: 'market_leader',
  gameId: e.gameId,
  marketType: e.marketType,
  period: e.period,
  side: e.side,
  at: e.at,
  data: { number: e.number, leader_book_id: e.leaderBookId, followers: e.followers.map((f) => ({ book_id: f.bookId, after_seconds: f.afterSeconds })) },
});

/** A leader's data as comparable text, whatever key order it was read back in (jsonb sorts keys). */
const leaderText = (d: { number?: unknown; leader_book_id?: unknown; followers?: Array<{ book_id?: unknown; after_seconds?: unknown }> }) =>
  JSON.stringify([d.number, d.leader_book_id, (d.followers ?? []).map((f) => [f.book_id, f.after_seconds])]);

/** One game as this process knows it: the detectors' state and what is stored of its signals. */
interface GameMemory {
  tracker: GameSignalTracker;
  /** Steam and RLM keys stored. */
  stored: Set<string>;
  /** Leader keys stored, with their data (leaderText). */
  leaders: Map<string, string>;
}

interface Recorder {
  thresholds: SignalThresholds;
  /** Every sportsbook id known, and the aggregates among them (never read: not a place to bet). */
  books: Set<number>;
  aggregates: Set<number>;
  games: Map<number, GameMemory>;
}
const recorders = new WeakMap<PrismaClient, Recorder>();
const FORGET_AFTER_MS = 2 * 24 * 3_600_000;

/**
 * The shares of each full-game market side of one game, from its public-betting rows as memory holds
 * them (GameState.betting): the lowest-numbered book's that has them (the feed's public figures are
 * per book). One pass over the game's rows, matched against the few sides found so far: building a
 * text key per row made this a third of the signals' CPU at ingest.
 */
export function lowestBookSplits(betting: Iterable<{ readonly row: PublicBettingRow }>): BettingSplit[] {
  const lowest: Array<BettingSplit & { bookId: number }> = [];
  for (const { row: b } of betting) {
    if (b.period !== 'full_game' || b.ticketsPercent === null) continue;
    const i = lowest.findIndex((s) => s.marketType === b.marketType && s.side === b.side);
    if (i >= 0 && lowest[i]!.bookId <= b.bookId) continue;
    const split = { gameId: b.gameId, marketType: b.marketType, side: b.side, ticketsPercent: b.ticketsPercent, moneyPercent: b.moneyPercent, bookId: b.bookId };
    if (i >= 0) lowest[i] = split;
    else lowest.push(split);
  }
  return lowest;
}

/** The status of the games whose signals are detected: those that have not started. */
export const SIGNAL_STATUS = 'scheduled';

/** The history rows the detectors read: pregame, full game, game markets. */
const readable = (p: { period: string; isLive: boolean; marketType: string }) => p.period === 'full_game' && !p.isLive && (MARKET_TYPES as readonly string[]).includes(p.marketType);

/**
 * The signal rows the capture `capture` brings (new events, and leaders whose followers changed) of
 * the games it moved that had not started, detected as of that capture: write them with it
 * (writeSignals). Called with each capture's diff, in capture order, before its statement commits:
 * memory counts them as stored from now on; if the statement does not commit, the feed store drops its
 * memory and this one with it (forgetSignals). A game not in memory is read from the database once
 * the captures before this one have committed (`settled`), not to miss the prices they add.
 */
export async function detectSignals(
  prisma: PrismaClient,
  capture: CaptureAdditions,
  settled: () => Promise<unknown>,
  thresholds: SignalThresholds = DEFAULT_SIGNAL_THRESHOLDS,
): Promise<SignalRow[]> {
  if (!capture.gameIds.length) return [];
  let recorder = recorders.get(prisma);
  if (!recorder || recorder.thresholds !== thresholds) recorders.set(prisma, (recorder = { thresholds, books: new Set(), aggregates: new Set(), games: new Map() }));
  const { at } = capture;
  const ids: number[] = [];
  for (const id of capture.gameIds) {
    // A game that left `scheduled` is read again from the database if it ever comes back.
    if (capture.statuses.get(id) === SIGNAL_STATUS) ids.push(id);
    else recorder.games.delete(id);
  }
  if (!ids.length) return [];
  const memory = recorder.games;
  // A game no capture has moved for two days (finished without a last pregame move, postponed) is
  // forgotten, so a long-running poller's memory stays bounded; if it moves again it is read again.
  for (const [id, game] of memory) if (game.tracker.lastAt < at.getTime() - FORGET_AFTER_MS) memory.delete(id);
  const unseen = ids.filter((id) => {
    const known = memory.get(id);
    // A capture not later than the last one read (a recorded series out of order): read again from the database.
    if (known && at.getTime() <= known.tracker.lastAt) memory.delete(id);
    // A game this capture creates has nothing stored to read: its history starts with this capture.
    if (!memory.has(id) && capture.created.has(id)) memory.set(id, { tracker: new GameSignalTracker(thresholds), stored: new Set(), leaders: new Map() });
    return !memory.has(id);
  });

  // The capture's own rows are not stored yet: a game read from the database gets them from the capture too.
  const fresh = capture.history.filter((q) => readable(q) && ids.includes(q.gameId));
  const know = (b: { id: number; isAggregate: boolean }) => {
    recorder.books.add(b.id);
    if (b.isAggregate) recorder.aggregates.add(b.id);
  };
  // Books this capture creates are not stored yet: known from it, not worth a wait and a read.
  for (const b of capture.books) know(b);
  const bookKnown = (r: { bookId: number }) => recorder.books.has(r.bookId);
  const booksKnown = fresh.every(bookKnown);
  if (unseen.length || !booksKnown) await settled();
  const [seedRows, seedSignals] = unseen.length
    ? await Promise.all([
        pregameHistory(prisma, unseen, at),
        storedSignalsOf(prisma, unseen),
      ])
    : [[], []];
  if (!booksKnown || !seedRows.every(bookKnown)) {
    const books = await sportsbookKinds(prisma);
    for (const b of books) know(b);
  }
  const real = (r: { bookId: number }) => !recorder.aggregates.has(r.bookId);

  const rows: SignalRow[] = [];
  const leaderTexts = new Map<string, string>();
  const byGame = new Map<number, HistoryPrice[]>(ids.map((id) => [id, []]));
  for (const r of seedRows) if (real(r)) byGame.get(r.gameId)!.push(r);
  for (const q of fresh) if (real(q)) byGame.get(q.gameId)!.push({ gameId: q.gameId, bookId: q.bookId, marketType: q.marketType, period: q.period, side: q.side, isLive: q.isLive, point: q.point, american: q.american, seenAt: at });

  const seeded = new Map<number, GameMemory>();
  for (const id of ids) {
    let game = memory.get(id);
    if (!game) {
      game = { tracker: new GameSignalTracker(thresholds), stored: new Set(), leaders: new Map() };
      for (const s of seedSignals) {
        if (s.gameId !== id) continue;
        if (s.kind === 'market_leader') game.leaders.set(s.key, leaderText(s.data as Parameters<typeof leaderText>[0]));
        else game.stored.add(s.key);
      }
      seeded.set(id, game);
    }
    const found = game.tracker.add(byGame.get(id)!, at);
    for (const e of found.steam) {
      const row = steamRow(e);
      if (!game.stored.has(row.key)) rows.push(row);
    }
    for (const w of found.rlmWindows) {
      if (game.stored.has(windowKey(w))) continue;
      const e = reverseLineMovementOf(w, capture.splits.get(id) ?? [], SIDES_BY_MARKET, thresholds);
      if (e) rows.push(rlmRow(e));
    }
    // A game read from the database compares every leader with what is stored; else those this capture touched.
    for (const e of seeded.has(id) ? game.tracker.leaders : found.leaders) {
      const row = leaderRow(e);
      const text = leaderText(row.data as Parameters<typeof leaderText>[0]);
      if (game.leaders.get(row.key) === text) continue;
      rows.push(row);
      leaderTexts.set(row.key, text);
    }
  }

  for (const [id, game] of seeded) memory.set(id, game);
  for (const row of rows) {
    const game = memory.get(row.gameId)!;
    if (row.kind === 'market_leader') game.leaders.set(row.key, leaderTexts.get(row.key)!);
    else game.stored.add(row.key);
  }
  // A settled RLM window whose event is stored needs no further reading.
  for (const id of ids) {
    const game = memory.get(id)!;
    game.tracker.settledRlmWindows = game.tracker.settledRlmWindows.filter((w) => !game.stored.has(windowKey(w)));
  }
  return rows;
}

/**
 * Drops what this process remembers of stored signals: every game is read again from the database
 * when it next moves. Called when the ingest reloads its memory (another writer, or commits lost).
 */
export function forgetSignals(prisma: PrismaClient): void {
  recorders.delete(prisma);
}
