import { DEFAULT_DEVIG_METHOD, DEVIG_METHODS, isDevigMethod, isOneOf, LIVE_STATUSES, MARKET_TYPES, SIDES_BY_MARKET, type DevigMethod } from '../../domain';
import { findListingRows } from '../../db/listing-repository';
import type { QueryResolvers } from '../__generated__/resolvers-types';
import { checkOneOf, checkSomeOf, dayOrToday, invalidParameter, list } from '../arguments';
import { buildListing, type ListingBook, type ListingMarketType, type ListingSort } from '../listings/build-listing';
import { presentEntry, type TeamBriefModel } from '../listings/present-listing';

// Query.market_listing (schema/listing.graphql): the cross-game listings of spec 4.5-4.7. Arguments
// are checked here, so GraphQL and every REST route reject the same bad values with the same
// message, which names the parameter.

const LISTING_PERIODS = ['full_game', 'first_half'];
/** Spec 4.5-4.7: moneylines sort by price by default, spreads and totals by value. */
const DEFAULT_SORT: Readonly<Record<ListingMarketType, ListingSort>> = { moneyline: 'odds', spread: 'value', total: 'value' };

function parseMarketType(value: string): ListingMarketType {
  if (isOneOf(MARKET_TYPES, value)) return value;
  throw invalidParameter('market_type', `must be one of ${MARKET_TYPES.join(', ')}`);
}

function parseSort(value: string | null | undefined, marketType: ListingMarketType): ListingSort {
  if (value === null || value === undefined) return DEFAULT_SORT[marketType];
  if (value === 'odds' || value === 'value') return value;
  throw invalidParameter('sort', 'must be one of odds, value');
}

function parseDevig(value: string | null | undefined): DevigMethod {
  if (value === null || value === undefined) return DEFAULT_DEVIG_METHOD;
  if (isDevigMethod(value)) return value;
  throw invalidParameter('devig', `must be one of ${DEVIG_METHODS.join(', ')}`);
}

function parseListingPeriod(value: string | null | undefined): string {
  const period = value === 'full' ? 'full_game' : (value ?? 'full_game');
  checkOneOf('period', period, LISTING_PERIODS);
  return period;
}

function parseSides(values: readonly string[] | null | undefined, marketType: ListingMarketType): readonly string[] | undefined {
  checkSomeOf('side', values, SIDES_BY_MARKET[marketType]);
  return values ?? undefined;
}

export const ListingQuery: Pick<QueryResolvers, 'market_listing'> = {
  market_listing: async (_root, args, ctx) => {
    const marketType = parseMarketType(args.market_type);
    const sort = parseSort(args.sort, marketType);
    const devigMethod = parseDevig(args.devig);
    const period = parseListingPeriod(args.period);
    const sides = parseSides(args.side, marketType);
    const teamIds = list(args.team_id);
    if (marketType === 'total' && teamIds) throw invalidParameter('team_id', 'not allowed on the total listing (it has no team filter)');
    const gameIds = list(args.game_id);
    // Game ids already pick the games: without an explicit date they are not limited to today.
    const range = gameIds && !args.date ? {} : dayOrToday(args.date, ctx.now, ctx.timeZone);

    const rows = await findListingRows(ctx.db.prisma, { ...range, gameIds, teamIds, marketType, period });
    const books = new Map<number, ListingBook>(rows.books.map((b) => [b.id, b]));
    const entries = buildListing({
      marketType,
      games: rows.games.map((g) => ({
        id: g.id,
        league: g.leagueName.toLowerCase() === 'wnba' ? 'WNBA' : 'NBA',
        homeTeamId: g.homeTeamId,
        awayTeamId: g.awayTeamId,
        live: LIVE_STATUSES.includes(g.status),
      })),
      quotes: rows.quotes,
      books,
      devigMethod,
      sort,
      now: ctx.now,
      bookIds: list(args.book_id),
      teamIds,
      sides,
    });

    const teamIdsUsed = [...new Set(entries.flatMap((e) => (e.quote.teamId === null ? [] : [e.quote.teamId])))];
    const teams = new Map<number, TeamBriefModel>();
    for (const [i, team] of (await ctx.loaders.teamById.loadMany(teamIdsUsed)).entries()) {
      const id = teamIdsUsed[i] as number;
      teams.set(id, team && !(team instanceof Error) ? { id, name: team.fullName, abbr: team.abbr } : { id, name: null, abbr: null });
    }
    const bookName = (id: number) => books.get(id)?.name ?? null;
    return entries.map((e) => presentEntry(e, e.quote.teamId === null ? null : (teams.get(e.quote.teamId) ?? null), bookName, ctx.now));
  },
};
