import { findListingRows } from '../db/listing-repository';
import {
  buildListing,
  DEFAULT_DEVIG_METHOD,
  DEFAULT_LIVE_FILTER,
  gameTiming,
  listingGame,
  marketViews,
  MIDDLE_MARKET_TYPES,
  type DevigMethod,
  type ListingBook,
  type ListingEntry,
  type ListingMarketType,
  type ListingPeriod,
  type ListingSort,
  type LiveFilter,
  type MiddleEntry,
  type MiddleMarketType,
  type ReferenceChoice,
} from '../domain';
import { dayOrToday, list } from './arguments';
import { listingRowsBytes } from './listing-memo';
import { chooseShown } from './quotes';
import type { ReadContext } from './read-context';

// The cross-game listings of spec 4.5-4.7 and of player props (docs/player-props.md), and the middles
// of the spread and total markets (docs/signals.md), from the same rows and the same MarketView
// (src/domain/market-view.ts), so a middle's legs are exactly the listings' bettable prices. A point in
// time (`asOf`) is checked by the caller first (plan, src/services/point-in-time.ts checkAsOfInstant).

/** What a listing computes over: one market type (or every prop), its period, filters and order. */
export interface ListingRun {
  marketType: ListingMarketType;
  period: ListingPeriod;
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
  /** Entries built: this slice of the sorted listing (all when absent). */
  page?: { limit: number; offset: number };
}

/** A listing's entries (the page's only), the books they quote and the clock they were built at. */
export interface Listing {
  entries: ListingEntry[];
  books: Map<number, ListingBook>;
  /** asOf when given, else the request's clock: ages and staleness are those of this instant. */
  now: Date;
}

/** The listing of `run`: its entries, sorted and paged, exact (rounding is the presentation's). */
export async function buildListingOf(ctx: ReadContext, run: ListingRun): Promise<Listing> {
  const { marketType, period, sort, devigMethod, gameIds, sides } = run;
  // Props: team_id picks the games (a prop's outcome has no team), not outcomes.
  const teamIds = marketType === 'player_props' ? undefined : run.teamIds;
  const asOf = run.asOf;
  const args = { date: run.date };
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
  const entries = buildListing({
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
  return { entries, books, now };
}

/** What middles are asked for (Query.middles, GET /odds/middles). */
export interface MiddlesQuery {
  date?: string | null | undefined;
  gameId?: readonly number[] | null | undefined;
  marketType?: readonly MiddleMarketType[] | null | undefined;
  period?: ListingPeriod | null | undefined;
  live?: LiveFilter | null | undefined;
  bookId?: readonly number[] | null | undefined;
  minEvPer100?: number | null | undefined;
  asOf?: Date | null | undefined;
}

/** The middles found, best first, with the names of the books they were found among and their clock. */
export interface Middles {
  middles: MiddleEntry[];
  bookNames: Map<number, string | null>;
  now: Date;
}

/** The middles of the spread and total markets, best expected value first. */
export async function findMiddles(ctx: ReadContext, args: MiddlesQuery): Promise<Middles> {
  const asOf = args.asOf ?? null;
  const now = asOf ?? ctx.now;
  const gameIds = list(args.gameId);
  const range = gameIds && !args.date ? {} : dayOrToday(args.date, now, ctx.timeZone);
  const period = args.period ?? 'full_game';
  const live = args.live ?? DEFAULT_LIVE_FILTER;
  const bookIds = args.bookId ? new Set(args.bookId) : null;
  const out: MiddleEntry[] = [];
  let names = new Map<number, string | null>();
  for (const marketType of list(args.marketType) ?? MIDDLE_MARKET_TYPES) {
    const rows = await findListingRows(ctx.db.prisma, { ...range, gameIds, marketType, period }, asOf ?? undefined);
    const books = new Map<number, ListingBook>(rows.books.map((b) => [b.id, b]));
    names = new Map(rows.books.map((b) => [b.id, b.name]));
    // As the listings read them (buildListingOf above): at an instant, the prices shown then.
    const quotes = asOf ? rows.games.flatMap((g) => chooseShown(rows.quotes.filter((q) => q.gameId === g.id), asOf >= g.startTime)) : rows.quotes;
    const games = rows.games.map((g) => listingGame(g, gameTiming(g, asOf ? { at: asOf, hasLivePrice: quotes.some((q) => q.gameId === g.id && q.isLive) } : undefined)));
    for (const view of marketViews({ marketType, games, quotes, books, devigMethod: DEFAULT_DEVIG_METHOD })) {
      for (const m of view.middles(now)) {
        if ((live === 'pregame' && m.isLive) || (live === 'live' && !m.isLive)) continue;
        if (bookIds && !bookIds.has(m.low.bookId) && !bookIds.has(m.high.bookId)) continue;
        if (args.minEvPer100 != null && m.middle.ev_per_100 < args.minEvPer100) continue;
        out.push(m);
      }
    }
  }
  out.sort((a, b) => b.middle.ev_per_100 - a.middle.ev_per_100 || a.game.id - b.game.id || a.middle.window.low - b.middle.window.low);
  return { middles: out, bookNames: names, now };
}
