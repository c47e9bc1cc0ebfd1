import type { LeagueResolvers, SportsbookResolvers, TeamResolvers } from '../__generated__/resolvers-types';

export const Team: TeamResolvers = {
  full_name: (t) => t.fullName,
  display_name: (t) => t.displayName,
  short_name: (t) => t.shortName,
  name: (t) => t.fullName,
  primary_color: (t) => t.primaryColor,
  secondary_color: (t) => t.secondaryColor,
  conference_type: (t) => t.conferenceType,
  division_type: (t) => t.divisionType,
  url_slug: (t) => t.urlSlug,
  standings: (t) => ({ win: t.win, loss: t.loss, ties: t.ties, overtime_losses: t.overtimeLosses, draw: t.draw }),
  core_id: (t) => t.coreId,
  league_id: (t) => t.leagueId,
};

export const League: LeagueResolvers = {
  current_season: (l) => l.currentSeason,
  current_season_type: (l) => l.currentSeasonType,
  is_active: (l) => l.isActive,
};

export const Sportsbook: SportsbookResolvers = {
  is_aggregate: (b) => b.isAggregate,
  is_sharp: (b) => b.isSharp,
};
