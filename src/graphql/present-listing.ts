import { formatAmerican, PERCENT_DIGITS, PROBABILITY_DIGITS, roundTo } from '../domain';
import type { ArbitrageDetail, ListingEntry, ListingEv } from '../domain';

// The edge where listing numbers are rounded for presentation: sorting works on exact values, so
// rounding never changes an order; the profitable and arbitrage flags are decided in src/domain
// (ev.ts, arbitrage.ts) from the figures as shown with the same digits, so a flag never
// contradicts its figure (profitable with ev_per_100 0.00).

const probability = (p: number) => roundTo(p, PROBABILITY_DIGITS);
const percent = (p: number) => roundTo(p, PERCENT_DIGITS);
const maybe = <T, R>(value: T | null, f: (v: T) => R): R | null => (value === null ? null : f(value));

export interface TeamBriefModel {
  id: number;
  name: string | null;
  abbr: string | null;
}

/** Whole seconds from `from` to `now`, never negative (a clock behind the feed's shows 0). */
export const ageSeconds = (from: Date, now: Date) => Math.max(0, Math.floor((now.getTime() - from.getTime()) / 1000));

/** The GraphQL ListingOutcome of one entry at `now`; `team` and `bookName` are looked up by the caller. */
export function presentEntry(entry: ListingEntry, team: TeamBriefModel | null, bookName: (id: number) => string | null, now: Date) {
  const q = entry.quote;
  return {
    // The feed's outcome ids are integers; a missing or non-numeric one is left out.
    outcomeId: q.outcomeId !== null && /^\d{1,15}$/.test(q.outcomeId) ? Number(q.outcomeId) : null,
    gameId: q.gameId,
    bookId: q.bookId,
    bookName: bookName(q.bookId),
    marketType: q.marketType,
    side: q.side,
    teamId: q.teamId,
    team,
    point: q.point,
    odds: { decimal: q.decimal, american: formatAmerican(q.american), fractional: q.fractional, original: q.american },
    value: maybe(entry.value, percent),
    isLive: q.isLive,
    isAvailable: q.isAvailable,
    lineStatus: q.lineStatus,
    period: q.period,
    confirmedAt: q.seenAt,
    ageSeconds: ageSeconds(q.seenAt, now),
    ev: presentEv(entry.ev, bookName),
  };
}

function presentEv(ev: ListingEv, bookName: (id: number) => string | null) {
  return {
    // The price itself is shown as stored (like odds.decimal), so the two always agree.
    decimalOdds: ev.decimal_odds,
    impliedProbability: probability(ev.implied_probability),
    trueProbability: maybe(ev.true_probability, probability),
    breakEvenProbability: probability(ev.break_even_probability),
    edgePercentage: maybe(ev.edge_percentage, percent),
    evPer100: maybe(ev.ev_per_100, percent),
    profitable: ev.profitable,
    stale: ev.stale,
    staleReason: ev.stale_reason,
    bettable: ev.bettable,
    notBettableReason: ev.not_bettable_reason,
    arbitrage: ev.arbitrage,
    devigMethod: ev.devig_method,
    reference: ev.reference?.reference ?? null,
    referencePoint: ev.reference?.reference_point ?? null,
    pointAdjusted: ev.reference?.point_adjusted ?? null,
    referenceBookCount: ev.reference?.reference_book_count ?? null,
    arbitrageDetail: maybe(ev.arbitrage_detail, (a) => presentArbitrage(a, bookName)),
  };
}

function presentArbitrage(a: ArbitrageDetail, bookName: (id: number) => string | null) {
  return {
    totalImpliedProbability: probability(a.total_implied_probability),
    profitPercentage: percent(a.profit_percentage),
    stake: probability(a.stake),
    complement: {
      bookId: a.complement.book_id,
      bookName: bookName(a.complement.book_id),
      side: a.complement.side,
      point: a.complement.point,
      decimal: a.complement.decimal,
      american: formatAmerican(a.complement.american),
      stake: probability(a.complement.stake),
      stale: a.complement.stale,
    },
  };
}
