import type { Team as TeamModel } from '../mappers';
import type { BoxscoreResolvers, GameResolvers } from '../__generated__/resolvers-types';
import { inLiveScope } from '../live-scope';
import { displayedQuotes } from '../quotes';

export const Game: GameResolvers = {
  gameId: (g) => g.id,
  awayTeam: (g, _a, ctx) => ctx.loaders.teamById.load(g.awayTeamId),
  homeTeam: (g, _a, ctx) => ctx.loaders.teamById.load(g.homeTeamId),
  teams: async (g, _a, ctx) => {
    const teams = await ctx.loaders.teamById.loadMany([g.awayTeamId, g.homeTeamId]);
    return teams.filter((t): t is TeamModel => t !== null && !(t instanceof Error));
  },
  leagueName: async (g, _a, ctx) => (await ctx.loaders.leagueById.load(g.leagueId))?.name ?? null,
  boxscore: (g, _a, ctx) => ctx.loaders.boxscoreByGameId.load(g.id),
  broadcast: (g) => {
    if (!g.broadcast || typeof g.broadcast !== 'object') return null;
    const b = g.broadcast as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === 'string' ? v : null);
    return { network: text(b.network), internet: text(b.internet), networkShort: text(b.network_short) };
  },
  markets: async (g, args, ctx) => {
    const period = args.period ?? 'full_game';
    const books = args.bookId ? new Set(args.bookId) : null;
    const shown = g.quotesAsOf ?? displayedQuotes(g.status, await ctx.loaders.quotesByGameId.load(g.id));
    const quotes = shown.filter(
      (q) => q.period === period && (!books || books.has(q.bookId)) && inLiveScope(g, q),
    );
    return { game: g, quotes };
  },
};

export const Boxscore: BoxscoreResolvers = {
  periodScores: (b) => (Array.isArray(b.periodScores) ? (b.periodScores as Array<{ period: number; home: number | null; away: number | null }>) : []),
  totalPoints: (b) => b.totalPoints ?? (b.homeScore !== null && b.awayScore !== null ? b.homeScore + b.awayScore : null),
};
