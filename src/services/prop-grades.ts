import type { Player, PlayerBoxscore, PlayerGameStat } from '../db/client';
import type { GameRow } from '../db/odds-repository';
import { lineOf, linesOfAthletes, playerBoxscoresOf } from '../db/player-stats-repository';
import { FINAL_STATUSES, gradeProp, VOID_STATUSES, type BetResult, type GradeGap } from '../domain';
import type { ReadContext } from './read-context';

// Prop bets graded from the players' box-score lines (docs/closing-and-grading.md, "Player props"):
// the reads every prop bet of a request shares, and the grade of one. gradeBets (bets.ts) calls them.

/** What a prop bet's grade adds to its echo (the fields of GraphQL BetGrade a prop fills). */
export interface PropGrade {
  result: BetResult | null;
  resultMissingReason: GradeGap | null;
  gradedAt: Date | null;
  playerValue: number | null;
  statisticsCorrectedAt: Date | null;
  previousResult: BetResult | null;
}

/** The box scores of players and the lines the prop bets need: one read of each for every bet. */
export async function propLinesOf(
  ctx: Pick<ReadContext, 'db'>,
  bets: ReadonlyArray<{ gameId: number; playerId?: number | null | undefined; prop: boolean }>,
  players: ReadonlyMap<number, Player>,
): Promise<{ boxes: Map<number, PlayerBoxscore>; lines: Map<string, PlayerGameStat> }> {
  const props = bets.filter((b) => b.prop);
  if (!props.length) return { boxes: new Map(), lines: new Map() };
  const gameIds = [...new Set(props.map((b) => b.gameId))];
  const pairs = new Map<string, { gameId: number; athleteId: string }>();
  for (const b of props) {
    const athleteId = players.get(b.playerId!)?.espnId;
    if (athleteId) pairs.set(`${b.gameId}|${athleteId}`, { gameId: b.gameId, athleteId });
  }
  const [boxes, lines] = await Promise.all([playerBoxscoresOf(ctx.db.prisma, gameIds), linesOfAthletes(ctx.db.prisma, [...pairs.values()])]);
  return { boxes: new Map(boxes.map((b) => [b.gameId, b])), lines: new Map(lines.map((l) => [`${l.gameId}|${l.athleteId}`, l])) };
}

/**
 * The grade of a prop bet from its player's line (docs/closing-and-grading.md, "Player props"):
 * void when the game was not played or the player did not play; pending (`not_final`) until the
 * game's box score is final; else won, lost or push at the bet's line, graded again on a corrected
 * line (the previous result is given when the correction changed it).
 */
export function propGrade(
  bet: { marketType: string; side: string; line: number | null },
  game: GameRow,
  box: PlayerBoxscore | undefined,
  line: PlayerGameStat | undefined,
): PropGrade {
  const none = { playerValue: null, statisticsCorrectedAt: null, previousResult: null };
  if (VOID_STATUSES.includes(game.status)) return { result: 'void', resultMissingReason: null, gradedAt: game.updatedAt, ...none };
  if (!box) return { result: null, resultMissingReason: FINAL_STATUSES.includes(game.status) ? 'no_player_statistics' : 'not_final', gradedAt: null, ...none };
  if (!box.final) return { result: null, resultMissingReason: 'not_final', gradedAt: null, ...none };
  if (!line) return { result: null, resultMissingReason: 'player_not_in_boxscore', gradedAt: null, ...none };
  const selection = { marketType: bet.marketType, side: bet.side, point: bet.line };
  const grade = gradeProp(selection, lineOf(line));
  if (!grade) return { result: null, resultMissingReason: 'statistic_missing', gradedAt: null, ...none };
  const before = line.previous ? gradeProp(selection, line.previous as never) : null;
  return {
    result: grade.result,
    resultMissingReason: null,
    gradedAt: line.correctedAt ?? box.fetchedAt,
    playerValue: grade.value,
    statisticsCorrectedAt: line.correctedAt,
    previousResult: before && before.result !== grade.result ? before.result : null,
  };
}
