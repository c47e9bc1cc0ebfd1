import { DEFAULT_DEVIG_METHOD, DEVIG_METHODS, isDevigMethod, type DevigMethod } from '../../domain';
import { findListingRows } from '../../db/listing-repository';
import { AppError } from '../../errors';
import type { QueryResolvers } from '../__generated__/resolvers-types';
import { dayOrToday, list, parsePeriod } from '../arguments';
import { buildListing, type ListingBook, type ListingMarketType, type ListingSort } from '../listings/build-listing';
import { presentEntry, type TeamBriefModel } from '../listings/present-listing';

// Query.market_listing (schema/listing.graphql): the cross-game listings of spec 4.5-4.7. Arguments
// are checked here, so GraphQL and every REST route reject the same bad values with the same
// message, which names the parameter.

const MARKET_TYPES: readonly ListingMarketType[] = ['moneyline', 'spread', 'total'];
const LISTING_PERIODS = ['full_game', 'first_half'];
const SIDES: Readonly<Record<ListingMarketType, readonly string[]>> = {
  moneyline: ['home', 'away'],
  spread: ['home', 'away'],
  total: ['over', 'under'],
};
/** Spec 4.5-4.7: moneylines sort by price by default, spreads and totals by value. */
const DEFAULT_SORT: Readonly<Record<ListingMarketType, ListingSort>> = { moneyline: 'odds', spread: 'value', total: 'value' };

function parseMarketType(value: string): ListingMarketType {
  if ((MARKET_TYPES as readonly string[]).includes(value)) return value as ListingMarketType;
  throw new AppError('BAD_REQUEST', `invalid market_type: must be one of ${MARKET_TYPES.join(', ')}`);
}

function parseSort(value: string | null | undefined, marketType: ListingMarketType): ListingSort {
  if (value === null || value === undefined) return DEFAULT_SORT[marketType];
  if (value === 'odds' || value === 'value') return value;
  throw new AppError('BAD_REQUEST', 'invalid sort: must be odds or value');
}

function parseDevig(value: string | null | undefined): DevigMethod {
  if (value === null || value === undefined) return DEFAULT_DEVIG_METHOD;
  if (isDevigMethod(value)) return value;
  throw new AppError('BAD_REQUEST', `invalid devig: must be one of ${DEVIG_METHODS.join(', ')}`);
}

function parseListingPeriod(value: string | null | undefined): string {
  let period: string | undefined;
  try {
    period = parsePeriod(value);
  } catch {
    period = undefined;
  }
  if (period && LISTING_PERIODS.includes(period)) return period;
  throw new AppError('BAD_REQUEST', `invalid period: must be one of ${LISTING_PERIODS.join(', ')}`);
}

function parseSides(values: readonly string[] | null | undefined, marketType: ListingMarketType): readonly string[] | undefined {
  if (!values) return undefined;
  const allowed = SIDES[marketType];
  for (const side of values) {
    if (!allowed.includes(side)) throw new AppError('BAD_REQUEST', `invalid side: must be ${allowed.join(' or ')} for ${marketType}`);
  }
  return values;
}

export const ListingQuery: Pick<QueryResolvers, 'market_listing'> = {
  market_listing: async (_root, args, ctx) => {
    const marketType = parseMarketType(args.market_type);
    const sort = parseSort(args.sort, marketType);
    const devigMethod = parseDevig(args.devig);
    const period = parseListingPeriod(args.period);
    const sides = parseSides(args.side, marketType);
    const teamIds = list(args.team_id);
    if (marketType === 'total' && teamIds) throw new AppError('BAD_REQUEST', 'invalid team_id: the total listing has no team filter');
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
    return entries.map((e) => presentEntry(e, e.quote.teamId === null ? null : (teams.get(e.quote.teamId) ?? null), bookName));
  },
};
