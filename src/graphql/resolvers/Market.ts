import {
  averageOddsDecimal,
  CORE_BET_TYPES,
  decimalToAmerican,
  formatAmerican,
  gameTiming,
  isOneOf,
  isPropMarket,
  MARKET_TYPE_TABLE,
  MARKET_TYPES,
  medianLine,
  notBettableReason,
  pushTo,
  type MarketTypeDefinition,
  type StoredMarketType,
} from '../../domain';
import type { CoreBetTypesResolvers, MarketResolvers, MarketsResolvers, OutcomeResolvers } from '../__generated__/resolvers-types';
import type { GraphQLContext } from '../context';
import type { Outcome as OutcomeModel, Team } from '../mappers';
import { booksOf, isRealBook, type QuoteRow } from '../../services/quotes';

// Markets of one game (spec 2.3) and their outcomes (2.4). Best odds and consensus use only real
// books' available prices: aggregates (Consensus, Open) restate other books and are no place to bet.

const SIDE_ORDER = ['away', 'home', 'over', 'under', 'yes', 'no'];

/** The `player_props` market: every prop of the game, by book, player, prop, main line first, point, side. */
async function propsMarket(parent: import('../mappers').Markets) {
  const quotes: OutcomeModel[] = (parent.props ? await parent.props() : parent.quotes)
    .filter((q) => isPropMarket(q.marketType))
    .sort(
      (a, b) =>
        a.bookId - b.bookId ||
        a.playerId - b.playerId ||
        (a.marketType < b.marketType ? -1 : a.marketType > b.marketType ? 1 : 0) ||
        Number(a.lineKey !== '') - Number(b.lineKey !== '') ||
        (a.point ?? 0) - (b.point ?? 0) ||
        SIDE_ORDER.indexOf(a.side) - SIDE_ORDER.indexOf(b.side),
    )
    .map((q) => ({ ...q, gameRow: parent.game }));
  return quotes.length ? { game: parent.game, marketType: 'player_props', quotes } : null;
}

async function market(parent: { game: import('../mappers').Game; quotes: QuoteRow[] }, marketType: string, ctx: GraphQLContext) {
  const { homeTeamId, awayTeamId } = parent.game;
  const [home, away] = await Promise.all([ctx.loaders.teamById.load(homeTeamId), ctx.loaders.teamById.load(awayTeamId)]);
  const teamRow = (teamId: number | null) => (teamId === homeTeamId ? home : teamId === awayTeamId ? away : undefined);
  const quotes: OutcomeModel[] = parent.quotes
    .filter((q) => q.marketType === marketType)
    .sort((a, b) => a.bookId - b.bookId || SIDE_ORDER.indexOf(a.side) - SIDE_ORDER.indexOf(b.side))
    .map((q) => ({ ...q, teamRow: teamRow(q.teamId), gameRow: parent.game }));
  return { game: parent.game, marketType, quotes };
}

/** The outcome's team: preloaded by its market when it is one of the game's two, else loaded. */
export function outcomeTeam(q: OutcomeModel, ctx: GraphQLContext): Team | null | undefined | Promise<Team | null | undefined> {
  if (q.teamId === null) return null;
  return q.teamRow !== undefined ? q.teamRow : ctx.loaders.teamById.load(q.teamId);
}

/** One resolver per market type, under the field the market-type table names. */
const fieldsOf = (types: readonly StoredMarketType[]) =>
  Object.fromEntries(types.map((t) => [MARKET_TYPE_TABLE[t].field, (m: Parameters<typeof market>[0], _a: unknown, ctx: GraphQLContext) => market(m, t, ctx)]));

export const Markets = {
  ...fieldsOf(MARKET_TYPES),
  // Null, not two empty markets, when no book quotes a team total: the spec's "or null".
  playerProps: (m: import('../mappers').Markets) => propsMarket(m),
  coreBetTypes: (m: Parameters<typeof market>[0]) => (m.quotes.some((q) => isOneOf(CORE_BET_TYPES, q.marketType)) ? m : null),
} as MarketsResolvers;

export const CoreBetTypes = fieldsOf(CORE_BET_TYPES) as CoreBetTypesResolvers;

/** Available prices of real books, grouped by side in a stable order. */
async function pricedSides(quotes: readonly QuoteRow[], ctx: GraphQLContext): Promise<Map<string, QuoteRow[]>> {
  const books = await booksOf(ctx, quotes);
  const sides = new Map<string, QuoteRow[]>();
  for (const q of quotes) {
    if (!q.isAvailable || !isRealBook(books, q.bookId)) continue;
    pushTo(sides, q.side, q);
  }
  return new Map([...sides].sort(([a], [b]) => SIDE_ORDER.indexOf(a) - SIDE_ORDER.indexOf(b)));
}

/**
 * Whether a shown price of `m` can still be bet for its timing (domain/bettable.ts): a game being
 * played shows a book's pregame price when the book has no live one, and the feed keeps both after
 * the game; neither can be the best odds. Freshness is the listings' business (they mark stale prices
 * with the market's consensus at hand): here the check is the game's clock. A closing snapshot (prices
 * without an instant) is a record of the close, not an offer, and is not filtered.
 */
function bettableTiming(m: { game: import('../mappers').Game }): (q: QuoteRow) => boolean {
  const g = m.game;
  if (g.quotesAsOf && !g.quotesAt) return () => true;
  const timing = gameTiming(g, g.quotesAt ? { at: g.quotesAt, hasLivePrice: (g.quotesAsOf ?? []).some((q) => q.isLive) } : undefined);
  return (q) => notBettableReason({ isAvailable: q.isAvailable, isLive: q.isLive, gameStarted: timing.started, gameInPlay: timing.inPlay, stale: false }) === null;
}

async function best(quotes: readonly QuoteRow[], ctx: GraphQLContext, bettable: (q: QuoteRow) => boolean) {
  const top = quotes.filter(bettable).reduce<QuoteRow | null>((acc, q) => (!acc || q.decimal > acc.decimal ? q : acc), null);
  if (!top) return null;
  const book = await ctx.loaders.sportsbookById.load(top.bookId);
  return { decimal: top.decimal, american: formatAmerican(top.american), bookId: top.bookId, bookName: book?.name ?? null, side: top.side, point: top.point };
}

export const Market: MarketResolvers = {
  count: (m) => m.quotes.length,
  availableCount: (m) => m.quotes.filter((q) => q.isAvailable).length,
  outcomes: (m) => m.quotes,
  bestOdds: async (m, _a, ctx) => best([...(await pricedSides(m.quotes, ctx)).values()].flat(), ctx, bettableTiming(m)),
  bestOddsBySide: async (m, _a, ctx) => {
    const results = await Promise.all([...(await pricedSides(m.quotes, ctx)).values()].map((qs) => best(qs, ctx, bettableTiming(m))));
    return results.filter((r) => r !== null);
  },
  consensus: async (m, _a, ctx) => {
    const books = await booksOf(ctx, m.quotes);
    const real = m.quotes.filter((q) => isRealBook(books, q.bookId));
    if (real.length === 0) return null;
    const sides = await pricedSides(m.quotes, ctx);
    const available = [...sides.values()].flat();
    const points = (qs: QuoteRow[]) => qs.flatMap((q) => (q.point === null ? [] : [q.point]));
    return {
      averageOdds: { decimal: available.length ? averageOddsDecimal(available.map((q) => q.decimal)) : null },
      bookCount: new Set(real.map((q) => q.bookId)).size,
      availableCount: new Set(available.map((q) => q.bookId)).size,
      sides: [...sides].map(([side, qs]) => {
        const decimal = averageOddsDecimal(qs.map((q) => q.decimal));
        const linePoints = points(qs);
        return { side, decimal, american: formatAmerican(decimalToAmerican(decimal)), point: linePoints.length ? medianLine(linePoints) : null };
      }),
    };
  },
};

export const Outcome: OutcomeResolvers = {
  // The feed's outcome ids are integers; a missing or non-numeric one falls back to our row id.
  outcomeId: (q) => (q.outcomeId !== null && /^\d{1,15}$/.test(q.outcomeId) ? Number(q.outcomeId) : Number(q.id)),
  team: (q, _a, ctx) => {
    if (q.teamId === null) return null;
    const brief = (team: Team | null | undefined) => (team ? { id: team.id, name: team.fullName, abbr: team.abbr } : { id: q.teamId!, name: null, abbr: null });
    const team = outcomeTeam(q, ctx);
    return team instanceof Promise ? team.then(brief) : brief(team);
  },
  odds: (q) => ({ decimal: q.decimal, american: formatAmerican(q.american), fractional: q.fractional, original: q.american }),
  player: async (q, _a, ctx) => {
    if (!q.playerId) return null;
    const player = await ctx.loaders.playerById.load(q.playerId);
    return { id: q.playerId, name: player?.name ?? `Player ${q.playerId}`, teamId: player?.teamId ?? null };
  },
  propType: (q) => (isPropMarket(q.marketType) ? (MARKET_TYPE_TABLE[q.marketType as StoredMarketType] as MarketTypeDefinition).propType! : null),
  isAlternate: (q) => (isPropMarket(q.marketType) ? q.lineKey !== '' : null),
};
