import type { LiveGameChangeResolvers, LiveOddsChangeResolvers, LiveQuoteChangeResolvers } from '../__generated__/resolvers-types';

// Live deltas are held in the spec's snake_case (src/services/live-deltas.ts: Socket.IO replays send
// them as they are); these name the camelCase fields after them.

export const LiveOddsChange: LiveOddsChangeResolvers = {
  baseSeq: (c) => c.base_seq,
};

export const LiveGameChange: LiveGameChangeResolvers = {
  gameId: (g) => g.game_id,
  statusDisplay: (g) => g.status_display,
  homeScore: (g) => g.home_score,
  awayScore: (g) => g.away_score,
};

export const LiveQuoteChange: LiveQuoteChangeResolvers = {
  gameId: (q) => q.game_id,
  bookId: (q) => q.book_id,
  marketType: (q) => q.market_type,
  playerId: (q) => q.player_id ?? null,
  propType: (q) => q.prop_type ?? null,
  isAlternate: (q) => q.is_alternate ?? null,
  isLive: (q) => q.is_live,
  isAvailable: (q) => q.is_available,
  lineStatus: (q) => q.line_status,
};
