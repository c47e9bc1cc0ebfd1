/**
 * Cross-game market listings (spec 4.5-4.7): every available quote of one market type becomes a
 * listing entry carrying its value metrics. Pure assembly over rows already read from the database:
 * the probability math itself is src/domain's (devig, consensusProbability, adjustProbabilityForPoint,
 * valueMetrics, staleReason, isBookFrozen, findArbitrage, medianLine); this file only decides which prices feed it.
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
import { valueMetrics, type ValueMetrics } from './ev';
import { adjustProbabilityForPoint, type League } from './key-numbers';
import { hasLine, isPropMarket, MARKET_TYPE_TABLE, POINT_MARKET_TYPES, SIDES_BY_MARKET, type MarketType, type PointMarket, type StoredMarketType } from './market-types';
import { findMiddle, type Middle } from './middles';
import { pushTo } from './grouping';
import { gameTiming, notBettableReason } from './bettable';
import { isBookFrozen, staleReason } from './stale';
import { DEFAULT_LIVE_FILTER, DEFAULT_REFERENCE, type ListingSort, type LiveFilter, type NotBettableReason, type ReferenceChoice, type StaleReason } from './vocabulary';

/** A listed market: one of the three markets, or every player prop at once (`player_props`). */
export type ListingMarketType = MarketType | 'player_props';

/** A game as the listing needs it. */
export interface ListingGame {
  id: number;
  /** Picks the key-number distribution (NBA or WNBA). */
  league: League;
  homeTeamId: number;
  awayTeamId: number;
  /** The game is being played: a book that stops moving meanwhile is flagged (BOOK_FROZEN). Default false. */
  live?: boolean;
  /** The game has started (its pregame prices can no longer be bet). Default: `live`. */
  started?: boolean;
}

/**
 * A stored game as the listing needs it: its league by name, and whether it has started and is being
 * played (`timing`: gameTiming's reading, of now unless the caller reads another instant).
 */
export function listingGame(
  game: { id: number; leagueName: string; homeTeamId: number; awayTeamId: number; status: string; startTime: Date },
  timing = gameTiming(game),
): ListingGame {
  return { id: game.id, league: game.leagueName.toLowerCase() === 'wnba' ? 'WNBA' : 'NBA', homeTeamId: game.homeTeamId, awayTeamId: game.awayTeamId, live: timing.inPlay, started: timing.started };
}

export interface ListingBook {
  id: number;
  name: string | null;
  isAggregate: boolean;
  isSharp: boolean;
  /** sportsbook, exchange, prediction_market or aggregate (absent: sportsbook). */
  kind?: string;
}

/** One current price (a Quote row); only available quotes should be passed in. */
export interface ListingQuote {
  gameId: number;
  bookId: number;
  marketType: string;
  period: string;
  side: string;
  isLive: boolean;
  outcomeId: string | null;
  teamId: number | null;
  /** The side's handicap (spread), the total (total), null (moneyline). */
  point: number | null;
  /** Player props: the player (0 or absent otherwise) and an alternate's line key ('' or absent on main lines). */
  playerId?: number;
  lineKey?: string;
  american: number;
  decimal: number;
  fractional: string;
  isAvailable: boolean;
  lineStatus: string;
  seenAt: Date;
  changedAt: Date;
}

/** Which estimate of the true probability was used, and how. */
export interface ReferenceInfo {
  /** `sharp`: the sharp book's de-vigged price; `exchange`: an exchange's; `consensus`: mean of every book's de-vigged price. */
  reference: ReferenceChoice;
  /** The side's point the reference was measured at (null on moneylines). */
  reference_point: number | null;
  /** True when the reference was moved from reference_point to the outcome's point (key numbers). */
  point_adjusted: boolean;
  /** Books whose de-vigged pair formed the reference (1 for the sharp book). */
  reference_book_count: number;
}

/** The other leg of an arbitrage and the stake split that locks the profit. */
export interface ArbitrageDetail {
  /** sum(1/d) of this price and the best complementary price; below 1. */
  total_implied_probability: number;
  /** Guaranteed profit as a percentage of the total staked. */
  profit_percentage: number;
  /** Fraction of the bankroll to stake on this outcome. */
  stake: number;
  complement: { book_id: number; side: string; point: number | null; decimal: number; american: number; stake: number; stale: boolean };
}

/**
 * The EV object of one listing entry: the domain's ValueMetrics, with the probability-derived fields
 * null when no reference exists (for example only one side of the market is quoted anywhere).
 */
export interface ListingEv extends Omit<ValueMetrics, 'true_probability' | 'edge_percentage' | 'ev_per_100'> {
  true_probability: number | null;
  edge_percentage: number | null;
  ev_per_100: number | null;
  devig_method: DevigMethod;
  /** Why `stale` is true (domain/stale.ts), or null when the price is fresh. */
  stale_reason: StaleReason | null;
  /** The price can be bet now (domain/bettable.ts); profitable and arbitrage are only ever true when it can. */
  bettable: boolean;
  /** Why it cannot, or null when it can. */
  not_bettable_reason: NotBettableReason | null;
  reference: ReferenceInfo | null;
  arbitrage_detail: ArbitrageDetail | null;
}

export interface ListingEntry {
  quote: ListingQuote;
  game: ListingGame;
  book: ListingBook;
  /** The value score `sort=value` orders by: ev_per_100 (null without a reference). */
  value: number | null;
  ev: ListingEv;
}

export interface BuildListingInput {
  marketType: ListingMarketType;
  games: readonly ListingGame[];
  /** Every quote of the games in scope for this market type and period, whatever the book filter. */
  quotes: readonly ListingQuote[];
  /** Sportsbook rows by id; a book without a row counts as an ordinary (non-aggregate, non-sharp) book. */
  books: ReadonlyMap<number, ListingBook>;
  devigMethod: DevigMethod;
  /** Which fair price to prefer (default DEFAULT_REFERENCE); the consensus where that book has none. */
  reference?: ReferenceChoice;
  sort: ListingSort;
  /** The clock staleness is measured against. */
  now: Date;
  /** Output filters, applied after the market-wide computations (a filtered-out book still counts). */
  bookIds?: readonly number[] | null | undefined;
  teamIds?: readonly number[] | null | undefined;
  sides?: readonly string[] | null | undefined;
  /** Player props only: these players, and these props (stored market types, player_points ...). */
  playerIds?: readonly number[] | null | undefined;
  propMarkets?: readonly string[] | null | undefined;
  /** Pregame prices only, live prices only, or all (default DEFAULT_LIVE_FILTER). */
  live?: LiveFilter | undefined;
  /**
   * Only this slice of the sorted listing (default all): the order needs each price's value only, so
   * the rest of an entry (staleness, bettability, arbitrage) is computed for the slice alone.
   */
  page?: { offset: number; limit: number } | undefined;
}

/** A middle (domain/middles.ts) between two bettable prices of one market. */
export interface MiddleEntry {
  game: ListingGame;
  marketType: MarketType;
  period: string;
  isLive: boolean;
  /** The leg that wins above its line: over, or home. */
  low: ListingQuote;
  /** The leg that wins below its line: under, or away. */
  high: ListingQuote;
  middle: Middle;
}

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
   * each, in order of EV. Result Y is the total, or the home margin (home at handicap h wins when
   * Y > -h, away at handicap a when Y < a), centred on the market's median line. None on moneylines
   * or without a two-way price to centre on.
   */
  middles(now: Date): MiddleEntry[] {
    // Middles need the key-number model's result distribution: spreads and totals only (no props).
    const market = this.pointMarket();
    if (!market || this.centre === null || this.lines.size === 0) return [];
    const [first, second] = SIDES[market];
    // lineOf is the home handicap (spreads) or the total: in Y that is -line for both spread sides.
    const inY = (line: number) => (this.isHandicap() ? -line + 0 : line);
    const out: MiddleEntry[] = [];
    for (const lowLine of this.linesOf(first)) {
      const low = this.bettableAt(first, lowLine, now)[0];
      if (!low) continue;
      for (const highLine of this.linesOf(second)) {
        const high = this.bettableAt(second, highLine, now)[0];
        if (!high) continue;
        const middle = findMiddle({
          league: this.game.league,
          market,
          low: { line: inY(lowLine), decimal: low.decimal },
          high: { line: inY(highLine), decimal: high.decimal },
          mean: inY(this.centre),
        });
        if (middle) out.push({ game: this.game, marketType: market, period: low.period, isLive: low.isLive, low, high, middle });
      }
    }
    return out.sort((a, b) => b.middle.ev_per_100 - a.middle.ev_per_100 || a.middle.window.low - b.middle.window.low);
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

/**
 * Builds the listing of one market type: one entry per available quote of a non-aggregate book, with
 * its EV object, filtered by bookIds/teamIds/sides and sorted by `sort`:
 * - `odds`: highest decimal price first; `value`: highest value (ev_per_100) first, null values last;
 * - ties: game id, book id, side, point, pregame before live (ascending).
 * References, consensus, staleness and arbitrage always use every non-aggregate book of the market,
 * whatever the output filters. Quotes of games missing from `games`, of another market type, or
 * unavailable are ignored.
 */
export function buildListing(input: BuildListingInput): ListingEntry[] {
  const { devigMethod, now } = input;
  const prefer = input.reference ?? DEFAULT_REFERENCE;
  const bookOf = (id: number): ListingBook => input.books.get(id) ?? { id, name: null, isAggregate: false, isSharp: false };

  // Absent filters do not filter; an empty list matches nothing (the rule of src/services/arguments.ts).
  const bookFilter = input.bookIds ? new Set(input.bookIds) : null;
  const teamFilter = input.teamIds ? new Set(input.teamIds) : null;
  const sideFilter = input.sides ? new Set(input.sides) : null;
  const playerFilter = input.playerIds ? new Set(input.playerIds) : null;
  const propFilter = input.propMarkets ? new Set(input.propMarkets) : null;
  const live = input.live ?? DEFAULT_LIVE_FILTER;
  // The order first (price, or value: the EV per 100 against the reference, which needs no flag),
  // then the entries of the page only: the same entries as building all and cutting the page.
  const listed: Array<{ view: MarketView; quote: ListingQuote; value: number | null }> = [];
  for (const view of marketViews(input)) {
    if (propFilter && !propFilter.has(view.marketType)) continue;
    if (playerFilter && !playerFilter.has(view.quotes[0]!.playerId ?? 0)) continue;
    for (const q of view.quotes) {
      if (bookFilter && !bookFilter.has(q.bookId)) continue;
      if (sideFilter && !sideFilter.has(q.side)) continue;
      if ((live === 'pregame' && q.isLive) || (live === 'live' && !q.isLive)) continue;
      if (teamFilter && (q.teamId === null || !teamFilter.has(q.teamId))) continue;
      listed.push({ view, quote: q, value: input.sort === 'value' ? valueOf(view, q, prefer) : null });
    }
  }
  listed.sort(input.sort === 'odds' ? byOdds : byValue);
  const page = input.page ? listed.slice(input.page.offset, input.page.offset + input.page.limit) : listed;
  return page.map(({ view, quote }) => entryFor(view, quote, bookOf(quote.bookId), devigMethod, prefer, now));
}

/** The value `sort=value` orders by: the entry's ev_per_100 (entryFor), null without a reference. */
function valueOf(view: MarketView, q: ListingQuote, prefer: ReferenceChoice): number | null {
  const reference = view.reference(q.side, view.lineOf(q), prefer);
  return reference ? valueMetrics({ decimalOdds: q.decimal, trueProbability: reference.probability, stale: false, arbitrage: false }).ev_per_100 : null;
}

/**
 * The markets (game, period, live flag; and player and prop on props) of one listed market type, each
 * a MarketView over its available quotes of real books (aggregates dropped; quotes of a market with a
 * line but without a point dropped). `player_props` gathers every player prop.
 */
export function marketViews(input: Pick<BuildListingInput, 'marketType' | 'games' | 'quotes' | 'books' | 'devigMethod'>): MarketView[] {
  const { marketType } = input;
  const games = new Map(input.games.map((g) => [g.id, g]));
  const listed = (type: string): type is StoredMarketType => (marketType === 'player_props' ? isPropMarket(type) : type === marketType);
  const markets = new Map<string, ListingQuote[]>();
  for (const q of input.quotes) {
    if (!listed(q.marketType) || !q.isAvailable || !SIDES[q.marketType].includes(q.side) || !games.has(q.gameId)) continue;
    if (input.books.get(q.bookId)?.isAggregate) continue;
    if (hasLine(q.marketType) && q.point === null) continue;
    // A prop's market is one player's prop in one game (its main and alternate lines together).
    const key = `${q.gameId}|${q.period}|${q.isLive}|${q.marketType}|${q.playerId ?? 0}`;
    const list = markets.get(key) ?? [];
    list.push(q);
    markets.set(key, list);
  }
  return [...markets.values()].map((quotes) => new MarketView(quotes[0]!.marketType as StoredMarketType, games.get(quotes[0]!.gameId)!, quotes, input.books, input.devigMethod));
}

function entryFor(view: MarketView, q: ListingQuote, book: ListingBook, method: DevigMethod, prefer: ReferenceChoice, now: Date): ListingEntry {
  const line = view.lineOf(q);
  const reference = view.reference(q.side, line, prefer);
  const reason = view.staleReason(q, now);
  const stale = reason !== null;
  const notBettable = view.notBettable(q, now);
  const bettable = notBettable === null;
  const arbitrageDetail = view.arbitrage(q, now);
  const arbitrage = arbitrageDetail !== null;
  let ev: ListingEv;
  if (reference) {
    const metrics = valueMetrics({ decimalOdds: q.decimal, trueProbability: reference.probability, stale, arbitrage });
    const { probability: _p, ...info } = reference;
    // A price that cannot be bet is never advertised as value, however good its figure.
    ev = {
      ...metrics,
      profitable: metrics.profitable && bettable,
      devig_method: method,
      stale_reason: reason,
      bettable,
      not_bettable_reason: notBettable,
      reference: info,
      arbitrage_detail: arbitrageDetail,
    };
  } else {
    ev = {
      decimal_odds: q.decimal,
      implied_probability: 1 / q.decimal,
      true_probability: null,
      break_even_probability: 1 / q.decimal,
      edge_percentage: null,
      ev_per_100: null,
      profitable: false,
      stale,
      arbitrage,
      devig_method: method,
      stale_reason: reason,
      bettable,
      not_bettable_reason: notBettable,
      reference: null,
      arbitrage_detail: arbitrageDetail,
    };
  }
  return { quote: q, game: view.game, book, value: ev.ev_per_100, ev };
}

/** What the order reads of an entry: its price and its value. */
type Ranked = Pick<ListingEntry, 'quote' | 'value'>;

function tieBreak(a: Ranked, b: Ranked): number {
  return (
    a.quote.gameId - b.quote.gameId ||
    (a.quote.playerId ?? 0) - (b.quote.playerId ?? 0) ||
    (a.quote.marketType < b.quote.marketType ? -1 : a.quote.marketType > b.quote.marketType ? 1 : 0) ||
    a.quote.bookId - b.quote.bookId ||
    (a.quote.side < b.quote.side ? -1 : a.quote.side > b.quote.side ? 1 : 0) ||
    (a.quote.point ?? 0) - (b.quote.point ?? 0) ||
    Number(a.quote.isLive) - Number(b.quote.isLive)
  );
}

function byOdds(a: Ranked, b: Ranked): number {
  return b.quote.decimal - a.quote.decimal || tieBreak(a, b);
}

function byValue(a: Ranked, b: Ranked): number {
  if (a.value === null || b.value === null) {
    if (a.value !== b.value) return a.value === null ? 1 : -1;
    return tieBreak(a, b);
  }
  return b.value - a.value || tieBreak(a, b);
}
