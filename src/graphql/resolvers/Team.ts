import type { LeagueResolvers, SportsbookResolvers, TeamResolvers } from '../__generated__/resolvers-types';

export const Team: TeamResolvers = {
  // Prisma's camelCase columns match the field names; only these differ from a column.
  name: (t) => t.fullName,
  standings: (t) => ({ win: t.win, loss: t.loss, ties: t.ties, overtimeLosses: t.overtimeLosses, draw: t.draw }),
};

// League and Sportsbook fields are their Prisma columns, read by the default resolver.
export const League: LeagueResolvers = {};

export const Sportsbook: SportsbookResolvers = {};
