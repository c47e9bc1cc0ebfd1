// A player's statistics in one game (a box-score line) and grading a player prop from them
// (docs/closing-and-grading.md, "Player props"). Pure.

import type { BetResult } from './vocabulary';

/** One player's line in one game, as stored; a statistic the box score does not give is null. */
export interface PlayerLine {
  minutes: number | null;
  points: number | null;
  rebounds: number | null;
  offensiveRebounds: number | null;
  defensiveRebounds: number | null;
  assists: number | null;
  threesMade: number | null;
  threesAttempted: number | null;
  fieldGoalsMade: number | null;
  fieldGoalsAttempted: number | null;
  freeThrowsMade: number | null;
  freeThrowsAttempted: number | null;
  steals: number | null;
  blocks: number | null;
  turnovers: number | null;
  fouls: number | null;
  plusMinus: number | null;
  starter: boolean;
  didNotPlay: boolean;
}

/** The statistics of a line, in storage order (the columns of PlayerGameStat). */
export const PLAYER_STATISTICS = [
  'minutes', 'points', 'rebounds', 'offensiveRebounds', 'defensiveRebounds', 'assists', 'threesMade', 'threesAttempted', 'fieldGoalsMade',
  'fieldGoalsAttempted', 'freeThrowsMade', 'freeThrowsAttempted', 'steals', 'blocks', 'turnovers', 'fouls', 'plusMinus',
] as const satisfies ReadonlyArray<keyof PlayerLine>;
export type PlayerStatistic = (typeof PLAYER_STATISTICS)[number];

/** The statistics each over/under prop counts (summed), by stored market type. */
export const PROP_STATISTICS: Readonly<Record<string, readonly PlayerStatistic[]>> = {
  player_points: ['points'],
  player_rebounds: ['rebounds'],
  player_assists: ['assists'],
  player_threes: ['threesMade'],
  player_points_rebounds_assists: ['points', 'rebounds', 'assists'],
  player_points_rebounds: ['points', 'rebounds'],
  player_points_assists: ['points', 'assists'],
  player_rebounds_assists: ['rebounds', 'assists'],
  player_blocks: ['blocks'],
  player_steals: ['steals'],
  player_turnovers: ['turnovers'],
  player_blocks_steals: ['blocks', 'steals'],
};

/** The five categories of a double- or triple-double. */
const DOUBLE_CATEGORIES: readonly PlayerStatistic[] = ['points', 'rebounds', 'assists', 'steals', 'blocks'];

/** The value of an over/under prop on `line`, or null when a statistic it counts is missing. */
export function propValue(marketType: string, line: PlayerLine): number | null {
  const stats = PROP_STATISTICS[marketType];
  if (!stats) return null;
  let sum = 0;
  for (const s of stats) {
    const v = line[s];
    if (v === null) return null;
    sum += v;
  }
  return sum;
}

/** How many of the five categories reach ten, or null when one of them is missing. */
function categoriesInDoubleFigures(line: PlayerLine): number | null {
  let n = 0;
  for (const s of DOUBLE_CATEGORIES) {
    const v = line[s];
    if (v === null) return null;
    if (v >= 10) n++;
  }
  return n;
}

/**
 * The result of a prop bet on a final line: void when the player did not play; over/under at the
 * line (a whole-number line landing exactly pushes); yes/no on a double-double (10+ in two of points,
 * rebounds, assists, steals, blocks) or triple-double (three); null when a statistic it needs is missing.
 */
export function gradeProp(bet: { marketType: string; side: string; point: number | null }, line: PlayerLine): { result: BetResult; value: number | null } | null {
  if (line.didNotPlay) return { result: 'void', value: null };
  if (bet.marketType === 'player_double_double' || bet.marketType === 'player_triple_double') {
    const n = categoriesInDoubleFigures(line);
    if (n === null) return null;
    const made = n >= (bet.marketType === 'player_double_double' ? 2 : 3);
    return { result: (bet.side === 'yes') === made ? 'won' : 'lost', value: n };
  }
  const value = propValue(bet.marketType, line);
  if (value === null || bet.point === null) return null;
  const diff = bet.side === 'over' ? value - bet.point : bet.side === 'under' ? bet.point - value : NaN;
  if (Number.isNaN(diff)) return null;
  return { result: diff > 0 ? 'won' : diff < 0 ? 'lost' : 'push', value };
}
