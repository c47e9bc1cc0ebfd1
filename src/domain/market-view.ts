/**
 * The view of one market the listings, middles and closing prices are computed over (spec 4.5-4.7):
 * its quotes by side and line, each book's de-vigged pair at each line, the reference (true)
 * probability of an outcome, staleness, bettability and the arbitrage complement of a quote.
 *
 * Rules (docs/value-metrics.md is the user-facing version):
 * - A market is one game, market type, period and live flag: pregame and live prices are never mixed.
 * - Aggregate books (Consensus, Open) are dropped before anything else: they are not a place to bet,
 *   so they give no listing entry, no reference, no consensus and no arbitrage leg.
 * - A "line" identifies a two-way pair: the home handicap for spreads (home -3.5 pairs with away +3.5),
 *   the total for totals, nothing for moneylines. A book contributes a de-vigged pair at a line only
 *   when it quotes both sides there.
 * - Only bettable prices (domain/bettable.ts: a pregame price before the game starts, a live price
 *   while it is played, fresh) are profitable, arbitrage legs or middles; the others are listed, marked.
 * - Reference (true) probability of an outcome at line L: the sharp book's de-vigged pair at L; else
 *   the consensus of every book's de-vigged pair at L; else the reference at the nearest line that has
 *   one, moved to L with the key-number model, centred on the median line of the market.
 */

import { findArbitrage } from './arbitrage';
import { consensusProbability, medianLine } from './consensus';
import { devig, type DevigMethod } from './devig';
import { adjustProbabilityForPoint } from './key-numbers';
import { hasLine, MARKET_TYPE_TABLE, POINT_MARKET_TYPES, SIDES_BY_MARKET, type PointMarket, type StoredMarketType } from './market-types';
import { marketMiddles } from './market-middles';
import { pushTo } from './grouping';
import { notBettableReason } from './bettable';
import { isBookFrozen, staleReason } from './stale';
import type { NotBettableReason, ReferenceChoice, StaleReason } from './vocabulary';
import type { ArbitrageDetail, ListingBook, ListingGame, ListingQuote, MiddleEntry, ReferenceInfo } from './listing-types';

/** Sides of each market, as plain words (quotes carry their side as stored text). */
const SIDES: Readonly<Record<StoredMarketType, readonly [string, string]>> = SIDES_BY_MARKET;

/** One book's de-vigged two-way market at one line, probabilities in SIDES order. */
interface BookPair {
  bookId: number;
  isSharp: boolean;
  probabilities: number[];
}

interface LineGroup {
  pairs: BookPair[];
  sharp: BookPair | undefined;
  /** The exchange of lowest id quoting both sides at this line. */
  exchange: BookPair | undefined;
}

interface Reference extends ReferenceInfo {
  probability: number;
}

/** The quotes of one market (game, period, live flag; and player and prop on props) and what is derived from them once (also the fair close of CLV, src/services/closing.ts). */
export class MarketView {
  /** Line -> de-vigged pairs quoting it. Map keys compare with SameValueZero, so 0 and -0 meet. */
  private readonly lines = new Map<number, LineGroup>();
  /** `${side}|${line}` -> the quotes on that side at that line, best (highest decimal) first. */
  private readonly bySideLine = new Map<string, ListingQuote[]>();
  /** Median of the books' lines in the first side's convention; null for moneylines or no pair. */
  private readonly centre: number | null;
  private readonly refCache = new Map<string, Reference | null>();
  /** Book id -> when its price last moved in this market (newest changedAt of its quotes). */
  private readonly lastMove = new Map<number, number>();
  private readonly bettableCache = new Map<ListingQuote, { at: number; reason: NotBettableReason | null }>();

  constructor(
    readonly marketType: StoredMarketType,
    readonly game: ListingGame,
    readonly quotes: readonly ListingQuote[],
    books: ReadonlyMap<number, ListingBook>,
    readonly method: DevigMethod,
  ) {
    const [first, second] = SIDES[marketType];
    // Book -> its first side's quotes and its second side's; a prop's book may quote several lines
    // (main and alternates), a game market's book one per side.
    const byBook = new Map<number, { first: ListingQuote[]; second: ListingQuote[] }>();
    for (const q of quotes) {
      const sides = byBook.get(q.bookId) ?? { first: [], second: [] };
      (q.side === first ? sides.first : sides.second).push(q);
      byBook.set(q.bookId, sides);
      const key = `${q.side}|${this.lineOf(q)}`;
      pushTo(this.bySideLine, key, q);
      this.lastMove.set(q.bookId, Math.max(this.lastMove.get(q.bookId) ?? -Infinity, q.changedAt.getTime()));
    }
    for (const list of this.bySideLine.values()) list.sort((a, b) => b.decimal - a.decimal || a.bookId - b.bookId);
    const bookLines: number[] = [];
    for (const [bookId, sides] of byBook) {
      for (const a of sides.first) {
        const line = this.lineOf(a);
        // A book hanging different lines on the two sides (mid-move) has no two-way market to de-vig.
        const b = sides.second.find((q) => this.lineOf(q) === line);
        if (!b) continue;
        this.addPair(books, bookId, line, a, b, method, bookLines);
      }
    }
    this.centre = hasLine(marketType) && bookLines.length > 0 ? medianLine(bookLines) : null;
  }

  /** One book's de-vigged pair `a`, `b` at `line`. */
  private addPair(books: ReadonlyMap<number, ListingBook>, bookId: number, line: number, a: ListingQuote, b: ListingQuote, method: DevigMethod, bookLines: number[]): void {
    const pair: BookPair = { bookId, isSharp: books.get(bookId)?.isSharp ?? false, probabilities: devig([a.decimal, b.decimal], method) };
    const group = this.lines.get(line) ?? { pairs: [], sharp: undefined, exchange: undefined };
    group.pairs.push(pair);
    if (pair.isSharp && !group.sharp) group.sharp = pair;
    if (books.get(bookId)?.kind === 'exchange' && (!group.exchange || bookId < group.exchange.bookId)) group.exchange = pair;
    this.lines.set(line, group);
    bookLines.push(line);
  }

  /** The line a quote belongs to: home handicap (spread), total (total), 0 (moneyline). */
  lineOf(q: ListingQuote): number {
    if (!hasLine(this.marketType) || q.point === null) return 0;
    // +0 folds -0 (away +0 on a pick'em) onto the same line as home 0.
    if (this.isHandicap()) return q.side === 'home' ? q.point + 0 : -q.point + 0;
    return q.point;
  }

  /** A line written in `side`'s own convention (an away spread point is minus the home handicap). */
  private sidePoint(line: number, side: string): number {
    return this.isHandicap() && side === 'away' ? -line + 0 : line;
  }

  /** A handicap market (spread): each side has its own point, the home one names the line. */
  private isHandicap(): boolean {
    return MARKET_TYPE_TABLE[this.marketType].line === 'handicap';
  }

  /** The game market with a line this listing is of (spread, total), for the key-number model; null otherwise. */
  private pointMarket(): PointMarket | null {
    return (POINT_MARKET_TYPES as readonly string[]).includes(this.marketType) ? (this.marketType as PointMarket) : null;
  }

  private sideIndex(side: string): number {
    return SIDES[this.marketType].indexOf(side);
  }

  /** The quoting book's own de-vigged probability for the quote's side, when it quotes both sides there. */
  ownProbability(q: ListingQuote): number | null {
    const pair = this.lines.get(this.lineOf(q))?.pairs.find((p) => p.bookId === q.bookId);
    return pair ? (pair.probabilities[this.sideIndex(q.side)] ?? null) : null;
  }

  /**
   * Reference probability of `side` at `line`: the `prefer`red book's (sharp or exchange) where it
   * quotes both sides, else the consensus, in which that book is just one of the books (`consensus`
   * is the staleness comparison). Null when no book quotes both sides anywhere.
   */
  reference(side: string, line: number, prefer: ReferenceChoice): Reference | null {
    const cacheKey = `${side}|${line}|${prefer}`;
    if (this.refCache.has(cacheKey)) return this.refCache.get(cacheKey) ?? null;
    const result = this.computeReference(side, line, prefer);
    this.refCache.set(cacheKey, result);
    return result;
  }

  private computeReference(side: string, line: number, prefer: ReferenceChoice): Reference | null {
    const exact = this.atLine(side, line, prefer);
    if (exact) return exact;
    // Props have no key-number model: a prop's reference is measured at its own line or not at all.
    const market = this.pointMarket();
    if (!market || this.lines.size === 0) return null;
    // Nearest line with a reference; ties go to the line with more books, then the lower line, so the
    // choice does not depend on the order rows came back in.
    const nearest = [...this.lines.entries()].sort(
      ([la, ga], [lb, gb]) => Math.abs(la - line) - Math.abs(lb - line) || gb.pairs.length - ga.pairs.length || la - lb,
    )[0];
    if (!nearest) return null;
    const base = this.atLine(side, nearest[0], prefer);
    if (!base) return null;
    const probability = adjustProbabilityForPoint({
      league: this.game.league,
      market,
      side: side as 'home' | 'away' | 'over' | 'under',
      probability: base.probability,
      fromPoint: this.sidePoint(nearest[0], side),
      toPoint: this.sidePoint(line, side),
      // Centre the result distribution on where the market as a whole sits, not on the reference line.
      ...(this.centre === null ? {} : { marketLine: this.sidePoint(this.centre, side) }),
    });
    return { ...base, probability, point_adjusted: true };
  }

  private atLine(side: string, line: number, prefer: ReferenceChoice): Reference | null {
    const group = this.lines.get(line);
    if (!group || group.pairs.length === 0) return null;
    const index = this.sideIndex(side);
    const point = !hasLine(this.marketType) ? null : this.sidePoint(line, side);
    const book = prefer === 'sharp' ? group.sharp : prefer === 'exchange' ? group.exchange : undefined;
    if (book) {
      return { probability: book.probabilities[index] as number, reference: prefer, reference_point: point, point_adjusted: false, reference_book_count: 1 };
    }
    const consensus = consensusProbability(group.pairs.map((p) => p.probabilities));
    return { probability: consensus[index] as number, reference: 'consensus', reference_point: point, point_adjusted: false, reference_book_count: group.pairs.length };
  }

  /** True when some book quotes both sides at some line (a reference exists somewhere). */
  hasPairs(): boolean {
    return this.lines.size > 0;
  }

  /** Whether `bookId` stopped moving in this market while the game is played (domain isBookFrozen). */
  frozen(bookId: number): boolean {
    const own = this.lastMove.get(bookId);
    if (own === undefined) return false;
    let others: number | null = null;
    for (const [id, at] of this.lastMove) if (id !== bookId && (others === null || at > others)) others = at;
    return isBookFrozen({ gameLive: this.game.live ?? false, bookLastMove: new Date(own), othersLastMove: others === null ? null : new Date(others) });
  }

  /** Why `q` is stale at `now`, or null: its age, its distance from the consensus, or its frozen book. */
  staleReason(q: ListingQuote, now: Date): StaleReason | null {
    // Staleness compares the book with the market, so the consensus here ignores the sharp preference.
    const consensus = this.reference(q.side, this.lineOf(q), 'consensus');
    const own = this.ownProbability(q) ?? 1 / q.decimal;
    return staleReason({ seenAt: q.seenAt, now, isLive: q.isLive, probability: own, consensusProbability: consensus?.probability ?? null, bookFrozen: this.frozen(q.bookId) });
  }

  /** Why `q` cannot be bet at `now` (domain/bettable.ts), or null when it can. */
  notBettable(q: ListingQuote, now: Date): NotBettableReason | null {
    // Asked once per quote and once per arbitrage or middle it could be a leg of: remembered per clock.
    const cached = this.bettableCache.get(q);
    if (cached && cached.at === now.getTime()) return cached.reason;
    const inPlay = this.game.live ?? false;
    const reason = notBettableReason({
      isAvailable: q.isAvailable,
      isLive: q.isLive,
      gameStarted: this.game.started ?? inPlay,
      gameInPlay: inPlay,
      stale: this.staleReason(q, now) !== null,
    });
    this.bettableCache.set(q, { at: now.getTime(), reason });
    return reason;
  }

  /** The bettable quotes on `side` at `line` (its own convention's line, lineOf), best first. */
  bettableAt(side: string, line: number, now: Date): ListingQuote[] {
    return (this.bySideLine.get(`${side}|${line}`) ?? []).filter((q) => this.notBettable(q, now) === null);
  }

  /** Every line quoted on `side`, in lineOf's convention. */
  linesOf(side: string): number[] {
    return [...this.bySideLine.keys()].filter((k) => k.startsWith(`${side}|`)).map((k) => Number(k.slice(side.length + 1)));
  }

  /**
   * The middles of this market at `now`: for every line of the first side (over, home) and every line
   * of the second (under, away) whose window holds results that win both, the best bettable price of
   * each, in order of EV (src/domain/market-middles.ts). None on moneylines or without a two-way
   * price to centre on.
   */
  middles(now: Date): MiddleEntry[] {
    // Middles need the key-number model's result distribution: spreads and totals only (no props).
    const market = this.pointMarket();
    if (!market || this.centre === null || this.lines.size === 0) return [];
    return marketMiddles({
      game: this.game,
      market,
      centre: this.centre,
      handicap: this.isHandicap(),
      linesOf: (side) => this.linesOf(side),
      best: (side, line) => this.bettableAt(side, line, now)[0],
    });
  }

  /**
   * The best bettable price on the other side at the quote's line, when the two make an arbitrage.
   * Only bettable prices are legs: a price that cannot be bet locks no profit.
   */
  arbitrage(q: ListingQuote, now: Date): ArbitrageDetail | null {
    if (this.notBettable(q, now) !== null) return null;
    const [first, second] = SIDES[this.marketType];
    const other = this.bettableAt(q.side === first ? second : first, this.lineOf(q), now)[0];
    if (!other) return null;
    const arb = findArbitrage([q.decimal, other.decimal]);
    if (!arb) return null;
    return {
      total_implied_probability: arb.total_implied_probability,
      profit_percentage: arb.profit_percentage,
      stake: arb.stakes[0] as number,
      complement: {
        book_id: other.bookId,
        side: other.side,
        point: other.point,
        decimal: other.decimal,
        american: other.american,
        stake: arb.stakes[1] as number,
        // An arbitrage is only as good as its staler leg: marked, so it is not advertised as certain.
        stale: this.staleReason(other, now) !== null,
      },
    };
  }
}
