import { AppError } from '../errors';
import type { Player, PlayerGameStat } from '../db/client';
import { gameLogOf, linesOfGames, playerBoxscoresOf } from '../db/player-stats-repository';
import type { ReadContext } from './read-context';

export { statsOf } from '../db/player-stats-repository';

// Player statistics as served (docs/player-props.md, "Player statistics"): a game's box score of
// players by team (Game.playerStats, `players` of GET /games/:id/boxscore) and a player's game log
// (Player.gameLog, GET /players/:id/games).

/** One team's players in a game's box score (GraphQL TeamPlayerStats). */
export interface TeamPlayerStats {
  teamId: number;
  final: boolean;
  columns: string[];
  players: Array<PlayerGameStat & { startTime?: Date | null }>;
}

/** Each team's players of a game with their line, away team first; empty until the game's box score of players is stored. */
export async function teamPlayerStats(ctx: Pick<ReadContext, 'db'>, game: { id: number; homeTeamId: number; awayTeamId: number; startTime: Date }): Promise<TeamPlayerStats[]> {
  const [boxes, lines] = await Promise.all([playerBoxscoresOf(ctx.db.prisma, [game.id]), linesOfGames(ctx.db.prisma, [game.id])]);
  const box = boxes[0];
  if (!box) return [];
  const columns = (box.columns ?? []) as Array<{ teamId: number; labels: string[] }>;
  return [game.awayTeamId, game.homeTeamId].map((teamId) => ({
    teamId,
    final: box.final,
    columns: columns.find((c) => c.teamId === teamId)?.labels ?? [],
    players: lines.filter((l) => l.teamId === teamId).map((l) => ({ ...l, startTime: game.startTime })),
  }));
}

/** Page bounds of a game log: 1 to 1000 lines (default 100) from offset 0 up. @throws AppError BAD_REQUEST */
function pageOf(limit: number | null | undefined, offset: number | null | undefined): { limit: number; offset: number } {
  const l = limit ?? 100;
  const o = offset ?? 0;
  if (!Number.isInteger(l) || l < 1 || l > 1000) throw new AppError('BAD_REQUEST', 'invalid limit: must be an integer from 1 to 1000');
  if (!Number.isInteger(o) || o < 0) throw new AppError('BAD_REQUEST', 'invalid offset: must be an integer from 0');
  return { limit: l, offset: o };
}

/** A player's lines, newest game first. */
export function playerGameLog(ctx: Pick<ReadContext, 'db'>, player: Player, limit?: number | null, offset?: number | null) {
  return gameLogOf(ctx.db.prisma, player, pageOf(limit, offset));
}

/** The game log of the player `playerId`. @throws AppError NOT_FOUND for an unknown player */
export async function playerGameLogById(ctx: Pick<ReadContext, 'db' | 'loaders'>, playerId: number, limit?: number | null, offset?: number | null) {
  const player = await ctx.loaders.playerById.load(playerId);
  if (!player) throw new AppError('NOT_FOUND', `player not found: no player ${playerId}`);
  return playerGameLog(ctx, player, limit, offset);
}
