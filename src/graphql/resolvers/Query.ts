import * as repo from '../../db/odds-repository';
import { STATUS_FILTERS } from '../../domain';
import type { QueryResolvers } from '../__generated__/resolvers-types';
import { dayOrToday, dayRange, list, parsePage, parseText } from '../../services/arguments';
import { gamesAsOf } from '../../services/point-in-time';
import { checkAsOf } from '../gates';

// The read roots of schema/game.graphql, team.graphql and market.graphql.

export const Query: QueryResolvers = {
  ok: () => true,

  games: async (_root, args, ctx) => {
    const page = parsePage(args.limit, args.offset);
    if (args.asOf) checkAsOf(ctx, args.asOf, 'point-in-time markets (as_of)');
    const found = await repo.findGames(
      ctx.db.prisma,
      {
        ...dayRange(args, ctx.timeZone),
        leagueId: args.leagueId ?? undefined,
        gameIds: list(args.gameId),
        teamIds: list(args.teamId),
        statuses: args.status ? STATUS_FILTERS.get(args.status) : undefined,
      },
      page,
    );
    // Point in time: the page's games show the prices of then (one read for the page).
    return args.asOf ? { ...found, items: await gamesAsOf(ctx, found.items, args.asOf) } : found;
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

  teams: async (_root, args, ctx) =>
    repo.findTeams(ctx.db.prisma, {
      leagueId: args.leagueId ?? undefined,
      teamIds: list(args.teamId),
      conference: parseText('conference', args.conference),
      division: parseText('division', args.division),
    }),

  leagues: async (_root, args, ctx) =>
    repo.findLeagues(ctx.db.prisma, { leagueId: args.leagueId ?? undefined, sport: parseText('sport', args.sport), isActive: args.isActive ?? undefined }),

  sportsbooks: (_root, _args, ctx) => repo.listSportsbooks(ctx.db.prisma),

  consensus: async (_root, args, ctx) => {
    const { items } = await repo.findGames(ctx.db.prisma, { ...dayOrToday(args.date, ctx.now, ctx.timeZone), gameIds: list(args.gameId) }, { limit: 1000, offset: 0 });
    return items.map((game) => ({ game }));
  },

  bettingInfo: async (_root, args, ctx) => {
    const { items } = await repo.findGames(ctx.db.prisma, { ...dayOrToday(args.date, ctx.now, ctx.timeZone), gameIds: list(args.gameId) }, { limit: 1000, offset: 0 });
    const marketTypes = list(args.marketType);
    const bookIds = list(args.bookId);
    return items.map((game) => ({ game, marketTypes, bookIds }));
  },
};
