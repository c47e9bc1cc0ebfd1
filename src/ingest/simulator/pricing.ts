import { americanToImpliedProbability, coverProbability, liveMarginDistribution, MARKET_TYPE_TABLE, normalCdf, roundToHalfPoint, twoWayBookPrices, type CoreBetType, type MarketType, type StoredMarketType } from '../../domain';
import type { SimBook } from './books';
import { HOUR, MINUTE } from './calendar';
import type { GameState } from './game';
import { FIRST_HALF_MARGIN_SHARE, FIRST_HALF_SD_SHARE, FIRST_HALF_TOTAL_SHARE, type SimPeriod } from './models';
import { clamp, clampInt, sum } from './numbers';
import { Rng } from './random';
import type { GamePlan } from './schedule';

// What each book prices, and when: the fair view of a game (pregame: drifting from the opening to the
// closing numbers; live: the score so far plus the remaining share of the pregame expectation), each
// book's own slowly changing disagreement with it, and its two-way prices. The odds math itself
// (cover probabilities, margin, rounding) is src/domain/book-pricing.ts.

export type SimSide = 'home' | 'away' | 'over' | 'under';

/**
 * A live moneyline whose favourite is fairer than this is taken off the board (books pull lopsided
 * moneylines rather than quote -9900 against +2400); the spread and total stay up.
 */
export const LIVE_MONEYLINE_MAX_PROBABILITY = 0.97;

/** A book's disagreement with the fair line is a normal draw cut at this many of its SDs (bounded, as books are). */
const BOOK_SHIFT_CUT = 2.5;

/** A run of this many unanswered points makes the books suspend their live markets for a moment. */
export const RUN_SUSPEND_POINTS = 7;

/** What a book prices for one period at one instant. */
export interface MarketView {
  /** Expected home margin and its standard deviation. */
  margin: number;
  marginSd: number;
  /** Expected total and its standard deviation. */
  total: number;
  totalSd: number;
  /** Margin and total already in (live); 0 pregame. */
  scoredMargin: number;
  scoredTotal: number;
  /** Moneyline can end tied (first half): ties push. */
  tiePushes: boolean;
}

/**
 * P(side wins) for a two-way market, pushes excluded (a push returns the stake):
 * `value` is the home handicap (spread), the total line, or 0 (moneyline).
 */
export function twoWayProbability(type: MarketType, v: MarketView, value: number): number {
  const { counts, line } = MARKET_TYPE_TABLE[type];
  if (counts === 'sum') return coverProbability(v.total, v.totalSd, value, true);
  if (line === 'none' && !v.tiePushes) return 1 - normalCdf(-v.margin / v.marginSd);
  // Home covers when margin + handicap > 0, i.e. margin > -value.
  return coverProbability(v.margin, v.marginSd, -value, true);
}

/** The pregame view of the fair numbers at `t` (frozen at tip). */
export function pregameView(seed: number, plan: GamePlan, t: number, period: SimPeriod): MarketView {
  const tt = clamp(t, plan.postedMs, plan.tipMs);
  const progress = (tt - plan.postedMs) / (plan.tipMs - plan.postedMs);
  const eased = progress * progress * (3 - 2 * progress);
  const hourBucket = Math.floor(tt / HOUR);
  const w = new Rng(seed, 'wobble', plan.game.id, hourBucket);
  const fade = 1 - eased;
  const margin = plan.marginOpen + (plan.marginClose - plan.marginOpen) * eased + w.normal(0, 0.5) * fade;
  const total = plan.totalOpen + (plan.totalClose - plan.totalOpen) * eased + w.normal(0, 0.8) * fade;
  const full: MarketView = {
    margin,
    marginSd: plan.model.marginSd,
    total,
    totalSd: plan.model.totalSd,
    scoredMargin: 0,
    scoredTotal: 0,
    tiePushes: false,
  };
  return period === 'firsthalf' ? firstHalfOf(full) : full;
}

export function firstHalfOf(v: MarketView): MarketView {
  return {
    margin: v.margin * FIRST_HALF_MARGIN_SHARE,
    marginSd: v.marginSd * FIRST_HALF_SD_SHARE,
    total: v.total * FIRST_HALF_TOTAL_SHARE,
    totalSd: v.totalSd * FIRST_HALF_SD_SHARE,
    scoredMargin: 0,
    scoredTotal: 0,
    tiePushes: true,
  };
}

/** The live view at an in-progress state, or undefined when the period's market is decided. */
export function liveView(plan: GamePlan, s: GameState, period: SimPeriod): MarketView | undefined {
  const regulation = plan.model.quarterRealMinutes.length;
  const regSeconds = regulation * plan.league.period_minutes * 60;
  const half = regulation / 2;
  // Seconds played in this period's scope.
  let remaining: number;
  let scopeSeconds: number;
  let awayPts: number;
  let homePts: number;
  if (period === 'firsthalf') {
    if (s.phase === 'halftime' || s.period > half) return undefined;
    scopeSeconds = half * plan.league.period_minutes * 60;
    remaining = s.secondsLeft + (half - s.period) * plan.league.period_minutes * 60;
    awayPts = sum(s.away.slice(0, half));
    homePts = sum(s.home.slice(0, half));
  } else {
    scopeSeconds = regSeconds;
    remaining =
      s.period <= regulation ? s.secondsLeft + (regulation - s.period) * plan.league.period_minutes * 60 : s.secondsLeft;
    if (s.phase === 'halftime') remaining = half * plan.league.period_minutes * 60;
    awayPts = sum(s.away);
    homePts = sum(s.home);
  }
  const r = Math.max(remaining / scopeSeconds, 0);
  // The closing (tip) numbers of the scope: pregameView at tip has no wobble left.
  const closing: MarketView = {
    margin: plan.marginClose,
    marginSd: plan.model.marginSd,
    total: plan.totalClose,
    totalSd: plan.model.totalSd,
    scoredMargin: 0,
    scoredTotal: 0,
    tiePushes: false,
  };
  const base = period === 'firsthalf' ? firstHalfOf(closing) : closing;
  const preMargin = base.margin;
  const preTotal = base.total;
  const preMarginSd = base.marginSd;
  const preTotalSd = base.totalSd;
  const scoredMargin = homePts - awayPts;
  const scoredTotal = homePts + awayPts;
  const played = 1 - r;
  // Remaining points: the pregame rate, nudged by the pace seen so far once a fair share is played.
  const paceTotal = played > 0.15 ? scoredTotal / played : preTotal;
  const remainingTotal = r * (0.75 * preTotal + 0.25 * paceTotal);
  // The margin: Stern's Brownian motion (src/domain/win-probability.ts), from the closing line.
  const margin = liveMarginDistribution({ lead: scoredMargin, timeLeft: r, pregameMargin: preMargin, sd: preMarginSd });
  return {
    margin: margin.mean,
    marginSd: Math.max(margin.sd, 0.6),
    total: scoredTotal + remainingTotal,
    totalSd: Math.max(preTotalSd * Math.sqrt(r), 0.8),
    scoredMargin,
    scoredTotal,
    tiePushes: period === 'firsthalf',
  };
}

/**
 * Whether the books have their live markets suspended at `now`: for `holdMs` after a basket that ends
 * a run of RUN_SUSPEND_POINTS or more unanswered points in the period being played (books pause while
 * they reprice a run; the sharp book comes back first).
 */
export function suspendedForRun(plan: GamePlan, now: number, holdMs: number): boolean {
  const seg = plan.segments.find((x) => now >= x.start && now < x.end);
  if (!seg || seg.kind !== 'period') return false;
  const frac = (now - seg.start) / (seg.end - seg.start);
  let run = 0;
  let runHome: boolean | undefined;
  let lastT = -1;
  for (const e of plan.events[seg.period - 1] ?? []) {
    if (e.t > frac) break;
    run = e.home === runHome ? run + e.points : e.points;
    runHome = e.home;
    lastT = e.t;
  }
  if (run < RUN_SUSPEND_POINTS) return false;
  return (frac - lastT) * (seg.end - seg.start) < holdMs;
}

export interface QuoteContext {
  seed: number;
  plan: GamePlan;
  book: SimBook;
  period: SimPeriod;
  live: boolean;
  /** Time used for the book's line shift (pregame: min(now, tip); live: now). */
  t: number;
}

/** The book's own view: the fair view shifted by its slowly changing disagreement. */
export function bookView(ctx: QuoteContext, v: MarketView): MarketView {
  if (ctx.book.lineNoise === 0) return v;
  const bucket = ctx.live ? Math.floor(ctx.t / (2 * MINUTE)) : Math.floor(ctx.t / (3 * HOUR));
  const r = new Rng(ctx.seed, 'shift', ctx.plan.game.id, ctx.book.id, ctx.period, ctx.live ? 'live' : 'pre', bucket);
  const scale = ctx.period === 'firsthalf' ? 0.6 : 1;
  const cut = (x: number) => clamp(x, -BOOK_SHIFT_CUT, BOOK_SHIFT_CUT);
  return {
    ...v,
    margin: v.margin + cut(r.normal(0, 1)) * ctx.book.lineNoise * scale,
    total: v.total + cut(r.normal(0, 1)) * ctx.book.lineNoise * 1.6 * scale,
  };
}

export interface Quote {
  side: SimSide;
  teamId: number | undefined;
  odds: number;
  value: number;
  q: number;
}

/** Both sides of one market at one book, or undefined when suspended. */
export function quoteMarket(ctx: QuoteContext, type: StoredMarketType, fair: MarketView): Quote[] | undefined {
  const v = bookView(ctx, fair);
  const margin = ctx.live ? ctx.book.liveMargin : ctx.book.margin;
  const { plan } = ctx;
  const { counts, line: lineKind } = MARKET_TYPE_TABLE[type];
  // Priced by what settles each market (domain/market-types.ts): a team's points, the margin, the sum.
  if (counts === 'home' || counts === 'away') return quoteTeamTotal(type as CoreBetType, v, margin, counts === 'home' ? plan.home.id : plan.away.id);
  if (counts === 'margin' && lineKind === 'none') {
    const p = twoWayProbability(type as MarketType, v, 0);
    if (ctx.live && (p > LIVE_MONEYLINE_MAX_PROBABILITY || p < 1 - LIVE_MONEYLINE_MAX_PROBABILITY)) return undefined; // off the board when lopsided
    const [home, away] = twoWayBookPrices(p, margin);
    return [
      { side: 'away', teamId: plan.away.id, odds: away, value: 0, q: americanToImpliedProbability(away) },
      { side: 'home', teamId: plan.home.id, odds: home, value: 0, q: americanToImpliedProbability(home) },
    ];
  }
  if (counts === 'margin') {
    const homeValue = roundToHalfPoint(-v.margin);
    const p = twoWayProbability(type as MarketType, v, homeValue);
    const [home, away] = twoWayBookPrices(p, margin);
    return [
      { side: 'away', teamId: plan.away.id, odds: away, value: roundToHalfPoint(-homeValue), q: americanToImpliedProbability(away) },
      { side: 'home', teamId: plan.home.id, odds: home, value: homeValue, q: americanToImpliedProbability(home) },
    ];
  }
  const line = Math.max(roundToHalfPoint(v.total), v.scoredTotal + 0.5);
  const p = twoWayProbability(type as MarketType, v, line);
  const [over, under] = twoWayBookPrices(p, margin);
  return [
    { side: 'over', teamId: undefined, odds: over, value: line, q: americanToImpliedProbability(over) },
    { side: 'under', teamId: undefined, odds: under, value: line, q: americanToImpliedProbability(under) },
  ];
}

/**
 * One team's points over or under a line (a core team-score market). The team's expected points are
 * half of total plus or minus margin; its SD is sqrt(totalSd^2 + marginSd^2) / 2, which holds when the
 * two teams' points are independent (then total and margin are uncorrelated and each has the variance
 * of the sum). Live, the line stays above the points already scored, as on totals.
 */
function quoteTeamTotal(type: CoreBetType, v: MarketView, margin: number, teamId: number): Quote[] {
  const sign = type === 'home_team_total' ? 1 : -1;
  const expected = (v.total + sign * v.margin) / 2;
  const scored = (v.scoredTotal + sign * v.scoredMargin) / 2;
  const sd = Math.hypot(v.totalSd, v.marginSd) / 2;
  const line = Math.max(roundToHalfPoint(expected), scored + 0.5);
  const [over, under] = twoWayBookPrices(coverProbability(expected, sd, line, true), margin);
  return [
    { side: 'over', teamId, odds: over, value: line, q: americanToImpliedProbability(over) },
    { side: 'under', teamId, odds: under, value: line, q: americanToImpliedProbability(under) },
  ];
}

/** Public betting on the home/over side of a pregame market at `t` (frozen at tip). */
export function publicSplit(seed: number, plan: GamePlan, type: MarketType, period: SimPeriod, t: number): { tickets: number; money: number } {
  const tt = Math.min(t, plan.tipMs);
  const r = new Rng(seed, 'public-drift', plan.game.id, type, period, Math.floor(tt / (3 * HOUR)));
  const shift = period === 'firsthalf' ? 3 : 0;
  return {
    tickets: clampInt(plan.tickets[type] + shift + r.normal(0, 1.5), 1, 99),
    money: clampInt(plan.money[type] + shift + r.normal(0, 2), 1, 99),
  };
}
