import { formatAmerican, PERCENT_DIGITS, PROBABILITY_DIGITS, roundTo } from '../../domain';
import type { ArbitrageDetail, ListingEntry, ListingEv } from './build-listing';

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
    outcome_id: q.outcomeId !== null && /^\d{1,15}$/.test(q.outcomeId) ? Number(q.outcomeId) : null,
    game_id: q.gameId,
    book_id: q.bookId,
    book_name: bookName(q.bookId),
    market_type: q.marketType,
    side: q.side,
    team_id: q.teamId,
    team,
    point: q.point,
    odds: { decimal: q.decimal, american: formatAmerican(q.american), fractional: q.fractional, original: q.american, implied_probability: probability(1 / q.decimal) },
    value: maybe(entry.value, percent),
    is_live: q.isLive,
    is_available: q.isAvailable,
    line_status: q.lineStatus,
    period: q.period,
    confirmedAt: q.seenAt,
    ageSeconds: ageSeconds(q.seenAt, now),
    ev: presentEv(entry.ev, bookName),
  };
}

function presentEv(ev: ListingEv, bookName: (id: number) => string | null) {
  return {
    // The price itself is shown as stored (like odds.decimal), so the two always agree.
    decimal_odds: ev.decimal_odds,
    implied_probability: probability(ev.implied_probability),
    true_probability: maybe(ev.true_probability, probability),
    break_even_probability: probability(ev.break_even_probability),
    edge_percentage: maybe(ev.edge_percentage, percent),
    ev_per_100: maybe(ev.ev_per_100, percent),
    profitable: ev.profitable,
    stale: ev.stale,
    staleReason: ev.stale_reason,
    arbitrage: ev.arbitrage,
    devig_method: ev.devig_method,
    reference: ev.reference?.reference ?? null,
    reference_point: ev.reference?.reference_point ?? null,
    point_adjusted: ev.reference?.point_adjusted ?? null,
    reference_book_count: ev.reference?.reference_book_count ?? null,
    arbitrage_detail: maybe(ev.arbitrage_detail, (a) => presentArbitrage(a, bookName)),
  };
}

function presentArbitrage(a: ArbitrageDetail, bookName: (id: number) => string | null) {
  return {
    total_implied_probability: probability(a.total_implied_probability),
    profit_percentage: percent(a.profit_percentage),
    stake: probability(a.stake),
    complement: {
      book_id: a.complement.book_id,
      book_name: bookName(a.complement.book_id),
      side: a.complement.side,
      point: a.complement.point,
      decimal: a.complement.decimal,
      american: formatAmerican(a.complement.american),
      stake: probability(a.complement.stake),
      stale: a.complement.stale,
    },
  };
}
