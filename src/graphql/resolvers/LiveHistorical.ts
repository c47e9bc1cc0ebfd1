import { requirePlan } from '../../auth/viewer';
import type { Quote } from '../../db/client';
import { findHistoricalGamePage, findHistoricalQuotes, type SnapshotMoment } from '../../db/history-repository';
import { addDays, localDateOf, localDayRange } from '../../domain';
import type { QueryResolvers, ResolversTypes } from '../__generated__/resolvers-types';
import { invalidParameter, list, parsePage } from '../arguments';

// Historical odds (spec 2.9, 4.10): one snapshot per game from the append-only odds history.

/** Widest start_date..end_date range, in days, both ends included (README: Historical odds). */
export const HISTORICAL_MAX_DAYS = 31;

/** Checks the required, ordered and bounded day range. @throws AppError BAD_REQUEST naming the problem */
export function parseHistoricalRange(startDate: string | null | undefined, endDate: string | null | undefined): { startDate: string; endDate: string } {
  if (!startDate) throw invalidParameter('start_date', 'is required, a day written YYYY-MM-DD');
  if (!endDate) throw invalidParameter('end_date', 'is required, a day written YYYY-MM-DD');
  if (endDate < startDate) throw invalidParameter('end_date', 'must not be before start_date');
  if (addDays(startDate, HISTORICAL_MAX_DAYS - 1) < endDate) {
    throw invalidParameter('end_date', `must be at most ${HISTORICAL_MAX_DAYS} days from start_date to end_date, both included`);
  }
  return { startDate, endDate };
}

/**
 * One price per book, market, period and side: the live one when the moment falls after the game's
 * start and the book had one, the pregame one otherwise (as the Game markets show current quotes).
 */
function chooseShown(quotes: readonly Quote[], preferLive: boolean): Quote[] {
  const chosen = new Map<string, Quote>();
  for (const q of quotes) {
    const key = `${q.bookId}|${q.marketType}|${q.period}|${q.side}`;
    const current = chosen.get(key);
    if (!current || (current.isLive !== q.isLive && q.isLive === preferLive)) chosen.set(key, q);
  }
  return [...chosen.values()];
}

export const LiveHistoricalQuery: QueryResolvers = {
  historicalOdds: async (_root, args, ctx) => {
    if (ctx.viewer) requirePlan(ctx.viewer, 'historical', 'historical odds (/odds/historical)');
    const { startDate, endDate } = parseHistoricalRange(args.startDate, args.endDate);
    const page = parsePage(args.limit, args.offset);
    const marketTypes = list(args.marketType);
    const scope = { marketTypes, bookIds: list(args.bookId) };
    const moment: SnapshotMoment = args.at ? { kind: 'at', at: args.at } : { kind: 'closing' };
    const { start, end } = localDayRange(startDate, endDate, ctx.timeZone);

    const { games, total } = await findHistoricalGamePage(ctx.db.prisma, { start, end, gameIds: list(args.gameId), scope, moment, ...page });
    const quotes = await findHistoricalQuotes(
      ctx.db.prisma,
      games.map((g) => g.id),
      moment,
      scope,
    );
    const byGame = new Map<number, Quote[]>(games.map((g) => [g.id, []]));
    for (const q of quotes) byGame.get(q.gameId)?.push(q);

    const items: ResolversTypes['HistoricalSnapshot'][] = games.map((game) => {
      const preferLive = moment.kind === 'at' && moment.at >= game.startTime;
      const shown = chooseShown(byGame.get(game.id) ?? [], preferLive);
      // The Game's markets read quotes through this request's loader: it is given the historical
      // prices of the game instead (the REST operation selects nothing else that reads quotes).
      ctx.loaders.quotesByGameId.clear(game.id).prime(game.id, shown);
      const newest = shown.reduce<Date | null>((acc, q) => (!acc || q.seenAt > acc ? q.seenAt : acc), null);
      return {
        date: localDateOf(game.startTime, ctx.timeZone).replaceAll('-', ''),
        fetchedAt: moment.kind === 'at' ? moment.at : newest,
        game,
      };
    });
    return { total, limit: page.limit, offset: page.offset, items };
  },
};
