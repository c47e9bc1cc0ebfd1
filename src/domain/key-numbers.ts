/**
 * Moving a spread or total probability from one point to another ("buying" or "selling" points).
 *
 * Model: the final margin (spreads, team score minus opponent score) or final total is an integer drawn
 * from a normal distribution centred on the market line and discretised with a continuity correction:
 * P(Y = k) = Phi((k + 0.5 - mu)/sd) - Phi((k - 0.5 - mu)/sd). Moving a line therefore changes a bet's
 * probability only where the result can land on an integer between the two points: a half point
 * crosses no integer exactly, a whole point carries push probability.
 *
 * Probabilities here count a push as half a win (win-equivalent probability P(win) + P(push)/2), the
 * usual convention for comparing whole-point and half-point lines; with it, every half-point step moves
 * the probability by half the mass of the integer it touches, and a full step between two half points
 * moves it by the whole mass of the integer it crosses.
 *
 * Basketball margins have only weak key numbers (unlike the NFL's 3 and 7), so a smooth discretised
 * normal is an adequate model; its standard deviations are MARGIN_STD_DEV (published values combined
 * with a fit of the stored finals).
 */

import { MARKET_TYPE_TABLE, type PointMarket } from './market-types';
import { InvalidOddsError, assertProbability } from './odds-format';
import { normalCdf } from './normal';
import { shrinkStdDev } from './residual-fit';
import { FITTED_STD_DEV } from './std-dev-fit';

export type League = 'NBA' | 'WNBA';
export type { PointMarket } from './market-types';
/** `home`/`away` for spreads (the point is that team's handicap); `over`/`under` for totals. */
export type PointSide = 'home' | 'away' | 'over' | 'under';

/**
 * Published standard deviations, in points, of (final result - closing line): the prior of the fit and
 * the fallback while the service has too few finals. NBA spread residuals are commonly quoted at about
 * 11.5-12.5 points and totals at about 17-19 in public analyses of closing lines against results; WNBA
 * games score fewer points, so about 10.5 (spread) and 14 (total) are used.
 */
export const PUBLISHED_STD_DEV: Readonly<Record<League, Readonly<Record<PointMarket, number>>>> = {
  NBA: { spread: 12, total: 18 },
  WNBA: { spread: 10.5, total: 14 },
};

/**
 * The standard deviations the model uses, the one place every caller reads them from: per league and
 * market, the published value pooled with the fit of the stored finals (FITTED_STD_DEV, written by
 * `odds fit-std-dev` from the real captures) by `shrinkStdDev`, the published value counting as
 * PRIOR_WEIGHT residuals (docs/value-metrics.md, "Fitted standard deviations"). The simulator does
 * not read these: its world runs on the published values.
 */
export const MARGIN_STD_DEV: Readonly<Record<League, Readonly<Record<PointMarket, number>>>> = {
  NBA: {
    spread: shrinkStdDev(PUBLISHED_STD_DEV.NBA.spread, FITTED_STD_DEV.fits.NBA?.spread),
    total: shrinkStdDev(PUBLISHED_STD_DEV.NBA.total, FITTED_STD_DEV.fits.NBA?.total),
  },
  WNBA: {
    spread: shrinkStdDev(PUBLISHED_STD_DEV.WNBA.spread, FITTED_STD_DEV.fits.WNBA?.spread),
    total: shrinkStdDev(PUBLISHED_STD_DEV.WNBA.total, FITTED_STD_DEV.fits.WNBA?.total),
  },
};

/** Adjusted probabilities are kept this far inside (0, 1) so they stay valid for odds conversion. */
export const ADJUSTED_PROBABILITY_FLOOR = 1e-9;

export interface PointAdjustmentInput {
  league: League;
  market: PointMarket;
  side: PointSide;
  /** Win-equivalent probability of the bet at `fromPoint`, in (0, 1). */
  probability: number;
  /** The point the probability was measured at: the side's handicap (spread) or the total. */
  fromPoint: number;
  /** The point to translate the probability to, in the same convention as `fromPoint`. */
  toPoint: number;
  /**
   * Centre of the result distribution, in the same convention as the points (for spreads, the same
   * side's handicap, e.g. home -5.5 means home is expected to win by 5.5). Defaults to `fromPoint`,
   * i.e. the reference line is taken to be the market line.
   */
  marketLine?: number;
}

export interface PushProbabilityInput {
  league: League;
  market: PointMarket;
  /** The bet's point: a side's handicap (spread) or the total. */
  point: number;
  /** Market line in the same convention as `point` (for spreads, the same side's handicap). */
  marketLine: number;
}

/**
 * Translate a spread or total probability from `fromPoint` to `toPoint` under the discretised-normal
 * model: probability + (model(toPoint) - model(fromPoint)). Getting more points (a higher handicap, a
 * lower total for `over`, a higher total for `under`) raises the probability. The result is clamped to
 * [ADJUSTED_PROBABILITY_FLOOR, 1 - ADJUSTED_PROBABILITY_FLOOR].
 * Near the mean of an NBA spread (sd about 12) one point is worth about 3.3 percentage points.
 * @throws InvalidOddsError for a probability outside (0, 1), non-finite points, or a side that does not
 *   belong to the market.
 */
export function adjustProbabilityForPoint(input: PointAdjustmentInput): number {
  const { league, market, side, probability, fromPoint, toPoint } = input;
  assertProbability(probability);
  assertSide(market, side);
  const marketLine = input.marketLine ?? fromPoint;
  for (const value of [fromPoint, toPoint, marketLine]) assertPoint(value);
  const sd = MARGIN_STD_DEV[league][market];
  const shift = winEquivalent(market, side, toPoint, marketLine, sd) - winEquivalent(market, side, fromPoint, marketLine, sd);
  return Math.min(Math.max(probability + shift, ADJUSTED_PROBABILITY_FLOOR), 1 - ADJUSTED_PROBABILITY_FLOOR);
}

/**
 * Probability that a bet at `point` pushes: the model's mass on the integer result that ties the bet.
 * Zero for half points (and any non-integer landing point); both sides of a spread give the same value.
 * @throws InvalidOddsError for non-finite points.
 */
export function pushProbability(input: PushProbabilityInput): number {
  const { league, market, point, marketLine } = input;
  assertPoint(point);
  assertPoint(marketLine);
  const sd = MARGIN_STD_DEV[league][market];
  // For spreads the bet ties when the team's margin equals -handicap; the expected margin is -marketLine.
  const [tie, mean] = isHandicap(market) ? [-point, -marketLine] : [point, marketLine];
  return Number.isInteger(tie) ? integerMass(tie, mean, sd) : 0;
}

/** Model probability that a discretised-normal result equals the integer k. */
function integerMass(k: number, mean: number, sd: number): number {
  return normalCdf((k + 0.5 - mean) / sd) - normalCdf((k - 0.5 - mean) / sd);
}

/** P(Y > t) + P(Y = t)/2 for the integer-valued result Y. */
function aboveWithHalfTie(t: number, mean: number, sd: number): number {
  if (Number.isInteger(t)) {
    return 1 - (normalCdf((t + 0.5 - mean) / sd) + normalCdf((t - 0.5 - mean) / sd)) / 2;
  }
  return 1 - normalCdf((Math.ceil(t) - 0.5 - mean) / sd);
}

/** Model win-equivalent probability of `side` at `point`. */
function winEquivalent(market: PointMarket, side: PointSide, point: number, marketLine: number, sd: number): number {
  if (isHandicap(market)) return aboveWithHalfTie(-point, -marketLine, sd);
  const over = aboveWithHalfTie(point, marketLine, sd);
  return side === 'over' ? over : 1 - over;
}

function assertSide(market: PointMarket, side: PointSide): void {
  const valid = (MARKET_TYPE_TABLE[market].sides as readonly string[]).includes(side);
  if (!valid) throw new InvalidOddsError(`Side ${side} does not belong to a ${market} market`);
}

/** A handicap market (spread): the point is one team's, and the model's result is that team's margin. */
function isHandicap(market: PointMarket): boolean {
  return MARKET_TYPE_TABLE[market].line === 'handicap';
}

function assertPoint(point: number): void {
  if (!Number.isFinite(point)) throw new InvalidOddsError(`Invalid point ${String(point)}: must be a finite number`);
}
