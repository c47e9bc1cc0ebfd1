import { dayRange, list, parsePage } from '../../services/arguments';
import { findLeagues, findTeams, gamesOfDay, gamesPage, listSportsbooks } from '../../services/games';
import { gamesAsOf } from '../../services/point-in-time';
import type { QueryResolvers } from '../__generated__/resolvers-types';
import { checkAsOf } from '../check-as-of';

// The read roots of schema/game.graphql, team.graphql and market.graphql (src/services/games.ts).

export const Query: QueryResolvers = {
  ok: () => true,

  games: async (_root, args, ctx) => {
    const page = parsePage(args.limit, args.offset);
    if (args.asOf) checkAsOf(ctx, args.asOf, 'point-in-time markets (as_of)');
    return gamesPage(ctx, args, page);
  },

  game: async (_root, args, ctx) => {
    const game = await ctx.loaders.gameById.load(args.gameId);
    if (!game) return null;
    if (args.date) {
      const { from, to } = dayRange({ date: args.date }, ctx.timeZone);
      if (game.startTime < from! || game.startTime >= to!) return null;
    }
    if (args.asOf) {
      checkAsOf(ctx, args.asOf, 'point-in-time markets (as_of)');
      return (await gamesAsOf(ctx, [game], args.asOf))[0]!;
    }
    return game;
  },

  teams: (_root, args, ctx) => findTeams(ctx, args),

  leagues: (_root, args, ctx) => findLeagues(ctx, args),

  sportsbooks: (_root, _args, ctx) => listSportsbooks(ctx),

  consensus: async (_root, args, ctx) => (await gamesOfDay(ctx, args.date, args.gameId)).map((game) => ({ game })),

  bettingInfo: async (_root, args, ctx) => {
    const items = await gamesOfDay(ctx, args.date, args.gameId);
    const marketTypes = list(args.marketType);
    const bookIds = list(args.bookId);
    return items.map((game) => ({ game, marketTypes, bookIds }));
  },
};
