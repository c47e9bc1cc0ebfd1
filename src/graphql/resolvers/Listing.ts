import {
  DEFAULT_DEVIG_METHOD,
  DEFAULT_LIVE_FILTER,
  DEFAULT_REFERENCE,
  gameTiming,
  MARKET_TYPE_TABLE,
  PROP_TYPES,
  propMarketOf,
  SIDES_BY_MARKET,
  type DevigMethod,
  type ListingSort,
  type LiveFilter,
  type MarketTypeDefinition,
  type ReferenceChoice,
} from '../../domain';
import { findListingRows } from '../../db/listing-repository';
import type { QueryResolvers } from '../__generated__/resolvers-types';
import { checkSomeOf, dayOrToday, invalidParameter, list, parsePage } from '../arguments';
import type { GraphQLContext } from '../context';
import { buildListing, listingGame, type ListingBook } from '../../domain';
import { checkAsOf } from '../point-in-time';
import { listingRowsBytes } from '../listing-memo';
import { chooseShown } from '../quotes';
import { presentEntry, type TeamBriefModel } from '../present-listing';

// Query.marketListing and Query.propListing (schema/listing.graphql): the cross-game listings of spec
// 4.5-4.7, and of player props (docs/player-props.md). The closed
// sets are schema enums; the rules that tie arguments together are checked here, so GraphQL and
// every REST route reject the same bad values with the same message, which names the parameter.

/** The listing row of a market type (domain/market-types.ts): default order (spec 4.5-4.7) and filter. */
const listingOf = (marketType: keyof typeof MARKET_TYPE_TABLE) => (MARKET_TYPE_TABLE[marketType] as MarketTypeDefinition).listing!;

/** What a listing computes over: one market type (or every prop), its period, filters and order. */
interface ListingRun {
  marketType: 'moneyline' | 'spread' | 'total' | 'player_props';
  period: 'full_game' | 'first_half';
  sort: ListingSort;
  devigMethod: DevigMethod;
  reference: ReferenceChoice;
  gameIds: readonly number[] | undefined;
  teamIds: readonly number[] | undefined;
  sides: readonly string[] | undefined;
  bookIds: readonly number[] | undefined;
  playerIds?: readonly number[] | undefined;
  propMarkets?: readonly string[] | undefined;
  /** Pregame prices only, live prices only, or all. */
  live: LiveFilter;
  date: string | null | undefined;
  asOf: Date | null;
  /** Entries presented: this slice of the sorted listing (all when absent). */
  page?: { limit: number; offset: number };
}

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

/** The listing of `run`, presented (ListingOutcome). */
async function runListing(ctx: GraphQLContext, run: ListingRun) {
  const { marketType, period, sort, devigMethod, gameIds, sides } = run;
  // Props: team_id picks the games (a prop's outcome has no team), not outcomes.
  const teamIds = marketType === 'player_props' ? undefined : run.teamIds;
  const asOf = run.asOf;
  const args = { date: run.date };
  if (asOf) checkAsOf(ctx, asOf, 'point-in-time listings (as_of)');
  // The clock of the listing: ages, staleness and the default day are those of asOf when given.
  const now = asOf ?? ctx.now;
  // Game ids already pick the games: without an explicit date they are not limited to today.
  const range = gameIds && !args.date ? {} : dayOrToday(args.date, now, ctx.timeZone);

  // The rows are read once per data version and scope (listing-memo.ts): they are a function of the
  // stored prices alone. The listing is built at each request's own clock (ages, staleness and
  // whether a game has started move with it between two ingests), and only the page is presented.
  const scope = { ...range, gameIds, teamIds: run.teamIds, marketType, period };
  const read = () => findListingRows(ctx.db.prisma, scope, asOf ?? undefined);
  const rows = ctx.listingMemo
    ? await ctx.listingMemo.get(JSON.stringify({ ...scope, asOf: asOf?.toISOString() ?? null }), read, listingRowsBytes)
    : await read();
  const books = new Map<number, ListingBook>(rows.books.map((b) => [b.id, b]));
  // At an instant, each book's price is the one its game showed then (pregame before the start, live
  // from it on when the book had one), as Query.game with asOf shows it; and a game counts as being
  // played when it had started and had a live price by then (its status then is not kept).
  const quotes = asOf ? rows.games.flatMap((g) => chooseShown(rows.quotes.filter((q) => q.gameId === g.id), asOf >= g.startTime)) : rows.quotes;
  const timing = (g: (typeof rows.games)[number]) => gameTiming(g, asOf ? { at: asOf, hasLivePrice: quotes.some((q) => q.gameId === g.id && q.isLive) } : undefined);
  // Only the page's entries are built (the order needs each price's value alone).
  const listing = buildListing({
    page: run.page,
    marketType,
    games: rows.games.map((g) => listingGame(g, timing(g))),
    quotes,
    books,
    devigMethod,
    reference: run.reference,
    sort,
    now,
    bookIds: run.bookIds,
    teamIds,
    sides,
    playerIds: run.playerIds,
    propMarkets: run.propMarkets,
    live: run.live,
  });
  const entries = listing;

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
