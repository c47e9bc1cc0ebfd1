// Line movement of one outcome between two prices (open and current): the numbers of the spec's
// line_movement block (2.8). The definitions are docs/live.md's ("line movement"):
//
// - line: the point for spread and total outcomes; the American price for moneyline outcomes.
// - absolute_change: |current line - open line| in points; for moneyline in cents, the bettor's
//   unit that skips the gap between -100 and +100 (-105 -> +105 is 10 cents, not 210).
// - direction, from the record's own side:
//   spread     towards_favorite  the side's point fell (-3 -> -4.5, +3 -> +1.5): it is more favoured
//              towards_underdog  the side's point rose
//   moneyline  towards_favorite  the price's implied probability rose (+150 -> +130, -110 -> -125)
//              towards_underdog  it fell
//   total      towards_over      the total rose (a total has no favourite: the same word on both sides)
//              towards_under     the total fell
//   With the point unchanged, a price move still says where the market went: for spread the side's
//   implied probability (up = towards_favorite), for total the side's implied probability (over up or
//   under down = towards_over). `none` when neither point nor price moved.
//   Player props follow their row of the market-type table: an over/under prop moves like a total
//   (its line is the player's number), a yes/no prop (double-double) like a moneyline (by price).
import { MARKET_TYPE_TABLE, type MarketTypeDefinition } from './market-types';
import { americanToImpliedProbability } from './odds-format';

export const MOVEMENT_DIRECTIONS = ['towards_favorite', 'towards_underdog', 'towards_over', 'towards_under', 'none'] as const;
export type MovementDirection = (typeof MOVEMENT_DIRECTIONS)[number];

/** One price of an outcome: its point (null on moneyline) and American odds. */
export interface PricePoint {
  point: number | null;
  american: number;
}

/** The spec's line_movement block, unrounded. */
export interface LineMovement {
  openLine: number;
  currentLine: number;
  absoluteChange: number;
  direction: MovementDirection;
  openPrice: number;
  currentPrice: number;
}

// Points come in halves and prices are integers, but the stored floats may carry noise.
const EPSILON = 1e-9;

/** American odds on a continuous scale of cents: +105 -> 5, -105 -> -5, +100 and -100 -> 0. */
export function americanToCents(american: number): number {
  return american >= 100 ? american - 100 : american + 100;
}

function sign(delta: number): -1 | 0 | 1 {
  if (delta > EPSILON) return 1;
  if (delta < -EPSILON) return -1;
  return 0;
}

/**
 * Movement of one outcome from `open` to `current`. `marketType` is a stored market type (moneyline,
 * spread, total, a team total or a player prop); `side` is one of its sides. A price of a market
 * with a line but without a point is compared by price alone.
 * @throws InvalidOddsError when a price is not valid American odds.
 */
export function lineMovement(marketType: string, side: string, open: PricePoint, current: PricePoint): LineMovement {
  const probabilityMove = sign(americanToImpliedProbability(current.american) - americanToImpliedProbability(open.american));
  const line = (MARKET_TYPE_TABLE as Record<string, MarketTypeDefinition>)[marketType]?.line ?? 'handicap';
  const byLine = line !== 'none' && open.point !== null && current.point !== null;
  const openLine = byLine ? open.point! : open.american;
  const currentLine = byLine ? current.point! : current.american;
  const absoluteChange = byLine ? Math.abs(currentLine - openLine) : Math.abs(americanToCents(current.american) - americanToCents(open.american));
  const pointMove = byLine ? sign(currentLine - openLine) : 0;

  let direction: MovementDirection = 'none';
  if (line === 'over_under') {
    // A price move on the under at an unchanged total says the opposite of the same move on the over.
    const priceTowardsOver = side === 'under' ? -probabilityMove : probabilityMove;
    const move = pointMove !== 0 ? pointMove : priceTowardsOver;
    direction = move > 0 ? 'towards_over' : move < 0 ? 'towards_under' : 'none';
  } else {
    // A lower spread point makes the side more favoured, as a higher implied probability does.
    const move = pointMove !== 0 ? -pointMove : probabilityMove;
    direction = move > 0 ? 'towards_favorite' : move < 0 ? 'towards_underdog' : 'none';
  }
  return { openLine, currentLine, absoluteChange, direction, openPrice: open.american, currentPrice: current.american };
}
