import { findPlayers } from '../../services/games';
import { playerGameLog, playerGameLogById, statsOf } from '../../services/player-stats';
import type { PlayerGameLineResolvers, PlayerResolvers, QueryResolvers } from '../__generated__/resolvers-types';

// Query.players (schema/player.graphql, GET /players): the players of player props; their box-score
// lines (schema/player-stats.graphql: Player.gameLog, Query.playerGameLog, GET /players/:id/games).

export const PlayerQuery: Pick<QueryResolvers, 'players' | 'playerGameLog'> = {
  players: (_root, args, ctx) => findPlayers(ctx, args),
  playerGameLog: (_root, args, ctx) => playerGameLogById(ctx, args.playerId, args.limit, args.offset),
};

export const Player: PlayerResolvers = {
  espnId: (p) => p.espnId ?? null,
  gameLog: (p, args, ctx) => playerGameLog(ctx, p, args.limit, args.offset),
};

export const PlayerGameLine: PlayerGameLineResolvers = {
  stats: (line) => statsOf(line),
  startTime: (line) => line.startTime ?? null,
};
