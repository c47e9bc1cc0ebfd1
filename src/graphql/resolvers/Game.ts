import type { Team as TeamModel } from '../mappers';
import type { BoxscoreResolvers, GameResolvers } from '../__generated__/resolvers-types';
import { parsePeriod } from '../arguments';
import { inLiveScope } from '../live-scope';
import { displayedQuotes } from '../quotes';

export const Game: GameResolvers = {
  game_id: (g) => g.id,
  league_id: (g) => g.leagueId,
  core_id: (g) => g.coreId,
  real_status: (g) => g.realStatus,
  status_display: (g) => g.statusDisplay,
  start_time: (g) => g.startTime,
  away_team_id: (g) => g.awayTeamId,
  home_team_id: (g) => g.homeTeamId,
  winning_team_id: (g) => g.winningTeamId,
  away_team: (g, _a, ctx) => ctx.loaders.teamById.load(g.awayTeamId),
  home_team: (g, _a, ctx) => ctx.loaders.teamById.load(g.homeTeamId),
  teams: async (g, _a, ctx) => {
    const teams = await ctx.loaders.teamById.loadMany([g.awayTeamId, g.homeTeamId]);
    return teams.filter((t): t is TeamModel => t !== null && !(t instanceof Error));
  },
  league_name: async (g, _a, ctx) => (await ctx.loaders.leagueById.load(g.leagueId))?.name ?? null,
  is_free: (g) => g.isFree,
  away_rotation_number: (g) => g.awayRotationNumber,
  home_rotation_number: (g) => g.homeRotationNumber,
  num_bets: (g) => g.numBets,
  boxscore: (g, _a, ctx) => ctx.loaders.boxscoreByGameId.load(g.id),
  broadcast: (g) => {
    if (!g.broadcast || typeof g.broadcast !== 'object') return null;
    const b = g.broadcast as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === 'string' ? v : null);
    return { network: text(b.network), internet: text(b.internet), network_short: text(b.network_short) };
  },
  markets: async (g, args, ctx) => {
    const period = parsePeriod(args.period);
    const books = args.book_id ? new Set(args.book_id) : null;
    const quotes = displayedQuotes(g.status, await ctx.loaders.quotesByGameId.load(g.id)).filter(
      (q) => q.period === period && (!books || books.has(q.bookId)) && inLiveScope(g, q),
    );
    return { game: g, quotes };
  },
  updated_at: (g) => g.updatedAt,
};

export const Boxscore: BoxscoreResolvers = {
  home_score: (b) => b.homeScore,
  away_score: (b) => b.awayScore,
  period_scores: (b) => (Array.isArray(b.periodScores) ? (b.periodScores as Array<{ period: number; home: number | null; away: number | null }>) : []),
  total_points: (b) => b.totalPoints ?? (b.homeScore !== null && b.awayScore !== null ? b.homeScore + b.awayScore : null),
  home_first_half: (b) => b.homeFirstHalf,
  away_first_half: (b) => b.awayFirstHalf,
  home_second_half: (b) => b.homeSecondHalf,
  away_second_half: (b) => b.awaySecondHalf,
};
