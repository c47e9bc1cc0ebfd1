import { requirePlan } from '../../auth/viewer';
import { liveFeedOf, type LiveReason, type LiveScope } from '../../events/live-feed';
import { definitionOf, formatAmerican, impliedProbability, inLiveMarketFilter, isOneOf, MARKET_TYPES, pushTo, type LiveMarketType } from '../../domain';
import { invalidParameter } from '../../services/arguments';
import { snapshotPosition } from '../../services/change-feed';
import { GLOBAL_STREAM } from '../../services/live-streams';
import { withLiveScope } from '../live-scope';
import type { LiveOddsResolvers, OutcomeResolvers, QueryResolvers, ResolversTypes } from '../__generated__/resolvers-types';
import type { GraphQLContext } from '../context';
import { dataTime, liveSnapshot } from '../../services/live-odds';
import { displayedQuotes } from '../../services/quotes';
import { outcomeTeam } from './Market';

// Live odds (spec 4.8 and 6): the one read behind GET /odds/live, Query.liveGames and every push of
// Subscription.liveOdds and of the Socket.IO snapshots.

/** Checks the live filter arguments. @throws AppError BAD_REQUEST naming the bad argument */
export function parseLiveScope(args: { gameId?: number | null; marketType?: LiveMarketType | null; bookId?: number | null }): LiveScope {
  for (const [name, value] of [['game_id', args.gameId], ['book_id', args.bookId]] as const) {
    if (value != null && (!Number.isSafeInteger(value) || value < 1)) throw invalidParameter(name, 'must be a positive integer');
  }
  return { gameId: args.gameId ?? null, marketType: args.marketType ?? null, bookId: args.bookId ?? null };
}

/** Plan gate of live odds (every paid plan today); the admin key may read too. */
export function requireLiveOdds(ctx: GraphQLContext): void {
  if (ctx.viewer) requirePlan(ctx.viewer, 'liveOdds', 'live odds');
}

/** Memoises a value for one push (LiveTick.shared) or, outside a push, just makes it. */
export type Share = <T>(key: string, make: () => T) => T;
const unshared: Share = (_key, make) => make();

/**
 * The live snapshot for `scope`: games being played (narrowed to scope.gameId), and the time the
 * newest quote in scope was seen; when no game is being played, the data's time (the newest feed
 * document stored), so that an empty list still says how fresh it is. Quotes load through ctx.loaders, so the Markets fields reuse them.
 * `share` lets the subscribers of one push read the game list once.
 */
export async function loadLiveOdds(ctx: GraphQLContext, scope: LiveScope, reason: LiveReason, share: Share = unshared): Promise<ResolversTypes['LiveOdds']> {
  // On a live transport, the snapshot applies at the newest change-log entry read before the rows
  // (snapshotPosition): a delta committed during the reads is sent again after it (applying a delta
  // twice changes nothing). One read per push, shared by its subscribers, before theirs.
  const feed = liveFeedOf(ctx);
  const at = feed ? { stream: GLOBAL_STREAM, seq: await share('live-position', () => snapshotPosition(feed, ctx.db.prisma)) } : { stream: null, seq: null };
  // Games, scores and quotes from one database snapshot (services/live-odds.ts), handed to the
  // loaders so the fields below (Game.boxscore, the markets) show that same state.
  // Under player_props the props too, from the same snapshot (Markets.playerProps reads them primed).
  const props = scope.marketType === 'player_props';
  const rows = await share(`live-rows:${scope.gameId ?? '*'}${props ? ':props' : ''}`, () =>
    liveSnapshot(ctx, scope.gameId ?? null, props),
  );
  const games = rows.games;
  const byGame = (list: typeof rows.quotes) => {
    const out = new Map<number, typeof rows.quotes>();
    for (const q of list) {
      pushTo(out, q.gameId, q);
    }
    return out;
  };
  const quotesOf = byGame(rows.quotes);
  const propsOf = byGame(rows.props);
  for (const g of games) {
    ctx.loaders.quotesByGameId.clear(g.id).prime(g.id, quotesOf.get(g.id) ?? []);
    if (props) ctx.loaders.propQuotesByGameId.clear(g.id).prime(g.id, propsOf.get(g.id) ?? []);
    ctx.loaders.boxscoreByGameId.clear(g.id).prime(g.id, rows.boxscores.find((b) => b.gameId === g.id) ?? null);
  }
  let newest: Date | null = null;
  games.forEach((game) => {
    const list = (props ? propsOf : quotesOf).get(game.id) ?? [];
    for (const q of displayedQuotes(game.status, list)) {
      // updated_at is the newest quote the snapshot includes: the three markets, or the props under
      // player_props (LiveOdds.graphql).
      if (!isOneOf(MARKET_TYPES, q.marketType) && !props) continue;
      if (scope.marketType != null && !inLiveMarketFilter(scope.marketType, q.marketType)) continue;
      if (scope.bookId != null && q.bookId !== scope.bookId) continue;
      if (!newest || q.seenAt > newest) newest = q.seenAt;
    }
  });
  if (games.length === 0) newest = await share('feed-time', () => dataTime(ctx));
  return { updatedAt: newest, count: games.length, games: games.map((g) => withLiveScope(g, scope)), reason, ...at };
}

export const LiveQuery: QueryResolvers = {
  liveGames: async (_root, args, ctx) => {
    requireLiveOdds(ctx);
    return loadLiveOdds(ctx, parseLiveScope(args), 'snapshot');
  },
};

export const LiveOdds: LiveOddsResolvers = {};

export const LiveOddsFields: { Outcome: OutcomeResolvers } = {
  Outcome: {
    liveOdds: (q) => ({
      decimal: q.decimal,
      american: formatAmerican(q.american),
      fractional: q.fractional,
      original: q.american,
      impliedProbability: impliedProbability(q.decimal),
    }),
    label: async (q, _a, ctx) => {
      // Read off the market's row: a handicap is signed and follows the team, a total is over/under.
      const market = definitionOf(q.marketType);
      const handicap = market?.line === 'handicap';
      const point = q.point === null ? '' : ` ${q.point > 0 && handicap ? '+' : ''}${q.point}`;
      if (market?.counts === 'sum') return `${q.side === 'over' ? 'Over' : 'Under'}${point}`;
      const team = await outcomeTeam(q, ctx);
      const name = team?.abbr ?? (q.side === 'home' ? 'Home' : 'Away');
      return handicap ? `${name}${point}` : name;
    },
  },
};
