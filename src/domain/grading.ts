import { definitionOf, isPropMarket } from './market-types';
import { FINAL_STATUSES, VOID_STATUSES, type BetResult } from './vocabulary';

// Grading a bet from a game's final score (docs/closing-and-grading.md). Pure: callers pass the
// game's status and its boxscore as stored.

/** One period's points as the boxscore lists them (1-4 quarters, 5+ overtimes). */
export interface PeriodPoints {
  period: number;
  home: number;
  away: number;
}

/** The scores a grade may need: the final score, period scores, and the feed's half totals. */
export interface GameScore {
  homeScore: number | null;
  awayScore: number | null;
  periodScores: readonly PeriodPoints[];
  homeFirstHalf?: number | null;
  awayFirstHalf?: number | null;
  homeSecondHalf?: number | null;
  awaySecondHalf?: number | null;
}

export interface Points {
  home: number;
  away: number;
}

const QUARTERS: Readonly<Record<string, number>> = { first_quarter: 1, second_quarter: 2, third_quarter: 3, fourth_quarter: 4 };

const isInt = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;

function quarter(score: GameScore, n: number): Points | null {
  const p = score.periodScores.find((s) => s.period === n);
  return p && isInt(p.home) && isInt(p.away) ? { home: p.home, away: p.away } : null;
}

function pair(home: number | null | undefined, away: number | null | undefined): Points | null {
  return isInt(home) && isInt(away) ? { home, away } : null;
}

/**
 * The points of one period, or null when the score needed is missing. Rules (the usual house rules
 * of US books): quarters are their own points, overtime excluded from the fourth quarter; the first
 * half is quarters 1 and 2; the second half is everything after the first half, overtime included;
 * the full game includes overtime. Period scores win over the feed's half totals when both exist.
 */
export function pointsOfPeriod(score: GameScore, period: string): Points | null {
  const full = pair(score.homeScore, score.awayScore);
  if (period === 'full_game') return full;
  const q = QUARTERS[period];
  if (q !== undefined) return quarter(score, q);
  const q1 = quarter(score, 1);
  const q2 = quarter(score, 2);
  const firstHalf = q1 && q2 ? { home: q1.home + q2.home, away: q1.away + q2.away } : pair(score.homeFirstHalf, score.awayFirstHalf);
  if (period === 'first_half') return firstHalf;
  if (period === 'second_half') {
    if (full && firstHalf && full.home >= firstHalf.home && full.away >= firstHalf.away) {
      return { home: full.home - firstHalf.home, away: full.away - firstHalf.away };
    }
    return pair(score.homeSecondHalf, score.awaySecondHalf);
  }
  return null;
}

/** A bet's market, side and line. `point` is the side's handicap (spread) or the total (also a team's total); null on moneylines. */
export interface BetSelection {
  marketType: string;
  side: string;
  point: number | null;
}

/**
 * Result of a bet given the points of its period: won, lost or push (a tied moneyline period, a
 * whole-number spread or total landing exactly). A half-point line can never push.
 * @throws Error for a market/side/point combination that is not a bet (a caller's bug)
 */
export function settle(bet: BetSelection, points: Points): Exclude<BetResult, 'void'> {
  const compare = (x: number): Exclude<BetResult, 'void'> => (x > 0 ? 'won' : x < 0 ? 'lost' : 'push');
  const market = definitionOf(bet.marketType);
  const ofMarket = !!market && (market.sides as readonly string[]).includes(bet.side);
  // A market without a line ignores a point given with it; one with a line needs it.
  const withLine = !!market && (market.line === 'none' || bet.point !== null);
  if (market && ofMarket && withLine && market.counts === 'margin') {
    // Moneyline and spread: the side's points minus the other's, plus its handicap if it has one.
    const own = bet.side === 'home' ? points.home : points.away;
    const other = bet.side === 'home' ? points.away : points.home;
    return compare(own + (market.line === 'handicap' ? bet.point! : 0) - other);
  }
  if (market && ofMarket && withLine && bet.point !== null && market.counts !== 'player') {
    // Totals count both teams' points, a team total one team's (overtime included on the full game).
    const counted = market.counts === 'sum' ? points.home + points.away : market.counts === 'home' ? points.home : points.away;
    return compare(bet.side === 'over' ? counted - bet.point : bet.point - counted);
  }
  throw new Error(`not a gradable bet: ${bet.marketType} ${bet.side} ${String(bet.point)}`);
}

export interface Grade {
  result: BetResult;
  /** Why a bet is void: `not_played` (postponed, cancelled), `score_missing`, or `did_not_play` (a prop's player, by the box score). */
  voidReason: 'not_played' | 'score_missing' | 'did_not_play' | null;
}

/**
 * The grade of a bet on a game in `status`, or null while the game has no final result yet (not
 * started, being played, or an unknown status). Postponed and cancelled games void every bet; a
 * final game whose needed score is missing voids the bet too. A player prop (its stored market type:
 * player_points, ...) is graded only when that voids it: it settles on the player's statistics,
 * never guessed from the score: gradeProp (player-stats.ts) grades it from the player's line.
 */
export function gradeBet(bet: BetSelection & { period: string }, status: string, score: GameScore | null): Grade | null {
  if (VOID_STATUSES.includes(status)) return { result: 'void', voidReason: 'not_played' };
  if (!FINAL_STATUSES.includes(status) || isPropMarket(bet.marketType)) return null;
  const points = score ? pointsOfPeriod(score, bet.period) : null;
  if (!points) return { result: 'void', voidReason: 'score_missing' };
  return { result: settle(bet, points), voidReason: null };
}
