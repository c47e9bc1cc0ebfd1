import { DEFAULT_DEVIG_METHOD, DEFAULT_LIVE_FILTER, DEFAULT_REFERENCE, gameTiming, MARKET_TYPE_TABLE, SIDES_BY_MARKET, type MarketTypeDefinition } from '../../domain';
import { findListingRows } from '../../db/listing-repository';
import type { QueryResolvers } from '../__generated__/resolvers-types';
import { checkSomeOf, dayOrToday, invalidParameter, list } from '../arguments';
import { buildListing, type ListingBook } from '../../domain';
import { checkAsOf } from '../point-in-time';
import { chooseShown } from '../quotes';
import { presentEntry, type TeamBriefModel } from '../present-listing';

// Query.marketListing (schema/listing.graphql): the cross-game listings of spec 4.5-4.7. The closed
// sets are schema enums; the rules that tie arguments together are checked here, so GraphQL and
// every REST route reject the same bad values with the same message, which names the parameter.

/** The listing row of a market type (domain/market-types.ts): default order (spec 4.5-4.7) and filter. */
const listingOf = (marketType: keyof typeof MARKET_TYPE_TABLE) => (MARKET_TYPE_TABLE[marketType] as MarketTypeDefinition).listing!;

export const ListingQuery: Pick<QueryResolvers, 'marketListing'> = {
  marketListing: async (_root, args, ctx) => {
    const marketType = args.marketType;
    const sort = args.sort ?? listingOf(marketType).defaultSort;
    const devigMethod = args.devig ?? DEFAULT_DEVIG_METHOD;
    const period = args.period ?? 'full_game';
    // Sides of the other market (over on a spread) are refused, naming those that exist.
    checkSomeOf('side', args.side, SIDES_BY_MARKET[marketType]);
    const sides = list(args.side);
    const teamIds = list(args.teamId);
    if (listingOf(marketType).filter !== 'team' && teamIds) throw invalidParameter('team_id', `not allowed on the ${marketType} listing (it has no team filter)`);
    const gameIds = list(args.gameId);
    const asOf = args.asOf ?? null;
    if (asOf) checkAsOf(ctx, asOf, 'point-in-time listings (as_of)');
    // The clock of the listing: ages, staleness and the default day are those of asOf when given.
    const now = asOf ?? ctx.now;
    // Game ids already pick the games: without an explicit date they are not limited to today.
    const range = gameIds && !args.date ? {} : dayOrToday(args.date, now, ctx.timeZone);

    const rows = await findListingRows(ctx.db.prisma, { ...range, gameIds, teamIds, marketType, period }, asOf ?? undefined);
    const books = new Map<number, ListingBook>(rows.books.map((b) => [b.id, b]));
    // At an instant, each book's price is the one its game showed then (pregame before the start, live
    // from it on when the book had one), as Query.game with asOf shows it; and a game counts as being
    // played when it had started and had a live price by then (its status then is not kept).
    const quotes = asOf ? rows.games.flatMap((g) => chooseShown(rows.quotes.filter((q) => q.gameId === g.id), asOf >= g.startTime)) : rows.quotes;
    const timing = (g: (typeof rows.games)[number]) => gameTiming(g, asOf ? { at: asOf, hasLivePrice: quotes.some((q) => q.gameId === g.id && q.isLive) } : undefined);
    const entries = buildListing({
      marketType,
      games: rows.games.map((g) => ({
        id: g.id,
        league: g.leagueName.toLowerCase() === 'wnba' ? 'WNBA' : 'NBA',
        homeTeamId: g.homeTeamId,
        awayTeamId: g.awayTeamId,
        live: timing(g).inPlay,
        started: timing(g).started,
      })),
      quotes,
      books,
      devigMethod,
      reference: args.reference ?? DEFAULT_REFERENCE,
      sort,
      now,
      bookIds: list(args.bookId),
      teamIds,
      sides,
      live: args.live ?? DEFAULT_LIVE_FILTER,
    });

    const teamIdsUsed = [...new Set(entries.flatMap((e) => (e.quote.teamId === null ? [] : [e.quote.teamId])))];
    const teams = new Map<number, TeamBriefModel>();
    for (const [i, team] of (await ctx.loaders.teamById.loadMany(teamIdsUsed)).entries()) {
      const id = teamIdsUsed[i] as number;
      teams.set(id, team && !(team instanceof Error) ? { id, name: team.fullName, abbr: team.abbr } : { id, name: null, abbr: null });
    }
    const bookName = (id: number) => books.get(id)?.name ?? null;
    return entries.map((e) => presentEntry(e, e.quote.teamId === null ? null : (teams.get(e.quote.teamId) ?? null), bookName, now));
  },
};
