import { findPlayers } from '../../services/games';
import type { QueryResolvers } from '../__generated__/resolvers-types';

// Query.players (schema/player.graphql, GET /players): the players of player props.

export const PlayerQuery: Pick<QueryResolvers, 'players'> = {
  players: (_root, args, ctx) => findPlayers(ctx, args),
};
