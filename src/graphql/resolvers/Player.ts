import { searchPlayers } from '../../db/player-repository';
import { playerSearchProblem } from '../../domain';
import type { QueryResolvers } from '../__generated__/resolvers-types';
import { invalidParameter, list, parsePage } from '../../services/arguments';

// Query.players (schema/player.graphql, GET /players): the players of player props.

export const PlayerQuery: Pick<QueryResolvers, 'players'> = {
  players: async (_root, args, ctx) => {
    const page = parsePage(args.limit, args.offset);
    const name = args.name ?? undefined;
    if (name !== undefined) {
      const problem = playerSearchProblem(name.trim());
      if (problem) throw invalidParameter('name', problem);
    }
    const { players, total } = await searchPlayers(ctx.db.prisma, {
      name: name?.trim(),
      teamIds: list(args.teamId),
      leagueId: args.leagueId ?? undefined,
      playerIds: list(args.playerId),
      ...page,
    });
    return { total, items: players };
  },
};
