import {
  DEFAULT_DEVIG_METHOD,
  DEFAULT_LIVE_FILTER,
  DEFAULT_REFERENCE,
  MARKET_TYPE_TABLE,
  PROP_TYPES,
  propMarketOf,
  SIDES_BY_MARKET,
  type MarketTypeDefinition,
} from '../../domain';
import { checkSomeOf, invalidParameter, list, parsePage } from '../../services/arguments';
import { buildListingOf, type ListingRun } from '../../services/listings';
import type { QueryResolvers } from '../__generated__/resolvers-types';
import type { GraphQLContext } from '../context';
import { checkAsOf } from '../check-as-of';
import { presentEntry, type TeamBriefModel } from '../present-listing';

// Query.marketListing and Query.propListing (schema/listing.graphql): the cross-game listings of spec
// 4.5-4.7, and of player props (docs/player-props.md), built by src/services/listings.ts. The closed
// sets are schema enums; the rules that tie arguments together are checked here, so GraphQL and
// every REST route reject the same bad values with the same message, which names the parameter.

/** The listing row of a market type (domain/market-types.ts): default order (spec 4.5-4.7) and filter. */
const listingOf = (marketType: keyof typeof MARKET_TYPE_TABLE) => (MARKET_TYPE_TABLE[marketType] as MarketTypeDefinition).listing!;

export const ListingQuery: Pick<QueryResolvers, 'marketListing' | 'propListing'> = {
  marketListing: async (_root, args, ctx) => {
    const marketType = args.marketType;
    // Sides of the other market (over on a spread) are refused, naming those that exist.
    checkSomeOf('side', args.side, SIDES_BY_MARKET[marketType]);
    const teamIds = list(args.teamId);
    if (listingOf(marketType).filter !== 'team' && teamIds) throw invalidParameter('team_id', `not allowed on the ${marketType} listing (it has no team filter)`);
    const entries = await runListing(ctx, {
      marketType,
      period: args.period ?? 'full_game',
      sort: args.sort ?? listingOf(marketType).defaultSort,
      devigMethod: args.devig ?? DEFAULT_DEVIG_METHOD,
      reference: args.reference ?? DEFAULT_REFERENCE,
      gameIds: list(args.gameId),
      teamIds,
      sides: list(args.side),
      bookIds: list(args.bookId),
      live: args.live ?? DEFAULT_LIVE_FILTER,
      date: args.date,
      asOf: args.asOf ?? null,
    });
    return entries;
  },
  propListing: async (_root, args, ctx) => {
    checkSomeOf('side', args.side, ['over', 'under', 'yes', 'no']);
    checkSomeOf('prop_type', args.propType, PROP_TYPES);
    const page = parsePage(args.limit, args.offset);
    const entries = await runListing(ctx, {
      marketType: 'player_props',
      period: 'full_game',
      sort: args.sort ?? 'value',
      devigMethod: args.devig ?? DEFAULT_DEVIG_METHOD,
      reference: args.reference ?? DEFAULT_REFERENCE,
      gameIds: list(args.gameId),
      teamIds: list(args.teamId),
      sides: list(args.side),
      bookIds: list(args.bookId),
      playerIds: list(args.playerId),
      propMarkets: list(args.propType)?.map((t) => propMarketOf(t)!),
      live: args.live ?? DEFAULT_LIVE_FILTER,
      date: args.date,
      asOf: args.asOf ?? null,
      page,
    });
    return entries;
  },
};

/** The listing of `run` (src/services/listings.ts), presented (ListingOutcome). */
async function runListing(ctx: GraphQLContext, run: ListingRun) {
  if (run.asOf) checkAsOf(ctx, run.asOf, 'point-in-time listings (as_of)');
  const { entries, books, now } = await buildListingOf(ctx, run);

  const teamIdsUsed = [...new Set(entries.flatMap((e) => (e.quote.teamId === null ? [] : [e.quote.teamId])))];
  const teams = new Map<number, TeamBriefModel>();
  for (const [i, team] of (await ctx.loaders.teamById.loadMany(teamIdsUsed)).entries()) {
    const id = teamIdsUsed[i] as number;
    teams.set(id, team && !(team instanceof Error) ? { id, name: team.fullName, abbr: team.abbr } : { id, name: null, abbr: null });
  }
  const bookName = (id: number) => books.get(id)?.name ?? null;
  return Promise.all(
    entries.map(async (e) => {
      const shown = presentEntry(e, e.quote.teamId === null ? null : (teams.get(e.quote.teamId) ?? null), bookName, now);
      if (!e.quote.playerId) return { ...shown, player: null, propType: null, isAlternate: null };
      const player = await ctx.loaders.playerById.load(e.quote.playerId);
      return {
        ...shown,
        player: { id: e.quote.playerId, name: player?.name ?? `Player ${e.quote.playerId}`, teamId: player?.teamId ?? null },
        propType: (MARKET_TYPE_TABLE[e.quote.marketType as keyof typeof MARKET_TYPE_TABLE] as MarketTypeDefinition).propType ?? null,
        isAlternate: (e.quote.lineKey ?? '') !== '',
      };
    }),
  );
}
