import type { Team as TeamModel } from '../mappers';
import type { BoxscoreResolvers, GameResolvers } from '../__generated__/resolvers-types';
import { inLiveScope } from '../live-scope';
import { displayedQuotes, type QuoteRow } from '../../services/quotes';
import { teamPlayerStats } from '../../services/player-stats';

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
  playerStats: (g, _a, ctx) => teamPlayerStats(ctx, g),
  broadcast: (g) => {
    if (!g.broadcast || typeof g.broadcast !== 'object') return null;
    const b = g.broadcast as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === 'string' ? v : null);
    return { network: text(b.network), internet: text(b.internet), networkShort: text(b.network_short) };
  },
  markets: async (g, args, ctx) => {
    const period = args.period ?? 'full_game';
    const books = args.bookId ? new Set(args.bookId) : null;
    const keep = (q: QuoteRow) => q.period === period && (!books || books.has(q.bookId)) && inLiveScope(g, q);
    const shown = g.quotesAsOf ?? displayedQuotes(g.status, await ctx.loaders.quotesByGameId.load(g.id));
    // At an instant the history's prices hold the props too; now they are a read of their own.
    const props = async () => (g.quotesAsOf ? g.quotesAsOf.filter((q) => q.playerId !== 0) : displayedQuotes(g.status, await ctx.loaders.propQuotesByGameId.load(g.id))).filter(keep);
    return { game: g, quotes: shown.filter(keep), props };
  },
};

export const Boxscore: BoxscoreResolvers = {
  periodScores: (b) => (Array.isArray(b.periodScores) ? (b.periodScores as Array<{ period: number; home: number | null; away: number | null }>) : []),
  totalPoints: (b) => b.totalPoints ?? (b.homeScore !== null && b.awayScore !== null ? b.homeScore + b.awayScore : null),
};
