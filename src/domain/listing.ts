/**
 * Cross-game market listings (spec 4.5-4.7): every available quote of one market type becomes a
 * listing entry carrying its value metrics. Pure assembly over rows already read from the database:
 * the probability math itself is src/domain's (devig, consensusProbability, adjustProbabilityForPoint,
 * valueMetrics, staleReason, isBookFrozen, findArbitrage, medianLine); this file only decides which
 * prices are listed (marketViews: the markets of a listed type), in what order, and what each entry
 * carries. The per-market reference, staleness, bettability and arbitrage are the MarketView's
 * (src/domain/market-view.ts, with the rules); the input and output types are src/domain/listing-types.ts.
 */

import { valueMetrics } from './ev';
import type { DevigMethod } from './devig';
import { hasLine, isPropMarket, SIDES_BY_MARKET, type StoredMarketType } from './market-types';
import { MarketView } from './market-view';
import { DEFAULT_LIVE_FILTER, DEFAULT_REFERENCE, type ReferenceChoice } from './vocabulary';
import type { BuildListingInput, ListingBook, ListingEntry, ListingEv, ListingQuote } from './listing-types';

/** Sides of each market, as plain words (quotes carry their side as stored text). */
const SIDES: Readonly<Record<StoredMarketType, readonly [string, string]>> = SIDES_BY_MARKET;

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
