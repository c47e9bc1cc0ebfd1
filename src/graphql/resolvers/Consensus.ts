import { bettingMarkets, consensusMarkets } from '../../services/consensus';
import type { BettingInfoResolvers, ConsensusRecordResolvers } from '../__generated__/resolvers-types';
import type { GraphQLContext } from '../context';

// Consensus per game (spec 2.10) and public betting (4.15): src/services/consensus.ts computes them.

const teamAbbr = async (id: number, ctx: GraphQLContext) => ({ id, abbr: (await ctx.loaders.teamById.load(id))?.abbr ?? null });

export const ConsensusRecord: ConsensusRecordResolvers = {
  gameId: (r) => r.game.id,
  awayTeam: (r, _a, ctx) => teamAbbr(r.game.awayTeamId, ctx),
  homeTeam: (r, _a, ctx) => teamAbbr(r.game.homeTeamId, ctx),
  startTime: (r) => r.game.startTime,
  status: (r) => r.game.status,
  markets: ({ game }, _a, ctx) => consensusMarkets(ctx, game),
};

export const BettingInfo: BettingInfoResolvers = {
  gameId: (r) => r.game.id,
  startTime: (r) => r.game.startTime,
  status: (r) => r.game.status,
  awayTeam: (r, _a, ctx) => teamAbbr(r.game.awayTeamId, ctx),
  homeTeam: (r, _a, ctx) => teamAbbr(r.game.homeTeamId, ctx),
  numBets: (r) => r.game.numBets,
  markets: ({ game, marketTypes, bookIds }, _a, ctx) => bettingMarkets(ctx, game, marketTypes, bookIds),
};
