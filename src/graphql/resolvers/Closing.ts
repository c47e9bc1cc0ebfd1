import { findGames, listSportsbooks, type BoxscoreRow, type GameRow } from '../../db/odds-repository';
import {
  americanToDecimal,
  clvAgainstFair,
  clvCents,
  clvImpliedProbability,
  closingGap,
  decimalToAmerican,
  DEFAULT_REFERENCE,
  FINAL_STATUSES,
  gradeBet,
  isPropMarket,
  storedMarketTypesOf,
  pointsOfPeriod,
  type DevigMethod,
  type GameScore,
  type Grade,
  type MarketType,
  type PeriodPoints,
  VOID_STATUSES,
} from '../../domain';
import type { BetClv, BetGrade, ClosingLine, ClvAgainstClose, FairClose, OutcomeResolvers, QueryResolvers } from '../__generated__/resolvers-types';
import { dayOrToday, invalidParameter, list } from '../arguments';
import { checkBet, checkBetCount, checkPrice } from '../bets';
import { closingMarket, leagueOf, loadClosing, priceOf, type ClosingSet } from '../closing';
import type { GraphQLContext } from '../context';
import type { MarketView } from '../../domain';
import type { Outcome as OutcomeModel } from '../mappers';

// Query.closingLines, Query.betClv, Query.gradeBets and Outcome.result (schema/closing.graphql,
// docs/closing-and-grading.md). Enum values arrive and leave as the domain's words (src/graphql/enums.ts).


/** Most games one closingLines request reads (a league day has at most about 15). */
const MAX_CLOSING_GAMES = 1000;

/** The stored score of a game as the grading functions read it. */
function scoreOf(box: BoxscoreRow | null): GameScore | null {
  if (!box) return null;
  const periodScores = Array.isArray(box.periodScores) ? (box.periodScores as unknown as PeriodPoints[]) : [];
  return { ...box, periodScores };
}

/** The grade of a bet on `game`, and the time of the score it came from. */
function gradeOf(bet: { marketType: string; side: string; point: number | null; period: string }, game: GameRow, box: BoxscoreRow | null) {
  const grade: Grade | null = gradeBet(bet, game.status, scoreOf(box));
  // A void for a game not played rests on its status, every other grade on the score.
  const gradedAt = !grade ? null : grade.voidReason === 'not_played' || !box ? game.updatedAt : box.updatedAt;
  return { grade, gradedAt };
}

/** The games of the bets, by id. @throws AppError BAD_REQUEST naming the first bet of an unknown game */
async function gamesOf(ctx: GraphQLContext, bets: readonly { gameId: number }[]): Promise<Map<number, GameRow>> {
  const ids = [...new Set(bets.map((b) => b.gameId))];
  const rows = await ctx.loaders.gameById.loadMany(ids);
  const games = new Map<number, GameRow>();
  rows.forEach((g, i) => {
    if (g && !(g instanceof Error)) games.set(ids[i]!, g);
  });
  bets.forEach((b, i) => {
    if (!games.has(b.gameId)) throw invalidParameter(`bets[${i}].game_id`, `no game ${b.gameId}`);
  });
  return games;
}

/** The bet's line in the market's pairing convention (home handicap, total, 0). */
function marketLine(marketType: MarketType, side: string, line: number | null): number {
  if (marketType === 'moneyline' || line === null) return 0;
  return marketType === 'spread' && side === 'away' ? -line + 0 : line;
}

function againstClose(close: ClosingLine, marketType: MarketType, line: number | null, price: number): ClvAgainstClose | null {
  if (!close.price) return null;
  const sameLine = marketType === 'moneyline' || close.point === line;
  return {
    close,
    sameLine,
    cents: sameLine ? clvCents(price, close.price.american) : null,
    impliedProbability: sameLine ? clvImpliedProbability(price, close.price.american) : null,
  };
}

export const ClosingQuery: Pick<QueryResolvers, 'closingLines' | 'betClv' | 'gradeBets'> = {
  closingLines: async (_root, args, ctx) => {
    const gameIds = list(args.gameId);
    // Game ids pick the games: without an explicit date they are not limited to today.
    const range = gameIds && !args.date ? {} : dayOrToday(args.date, ctx.now, ctx.timeZone);
    const { items } = await findGames(ctx.db.prisma, { ...range, gameIds }, { limit: MAX_CLOSING_GAMES, offset: 0 });
    const scope = { bookIds: list(args.bookId), marketTypes: storedMarketTypesOf(list(args.marketType)), periods: list(args.period), sides: list(args.side) };
    return (await loadClosing(ctx, items, scope)).lines;
  },

  betClv: async (_root, args, ctx) => {
    checkBetCount(args.bets.length);
    const method: DevigMethod = args.devigMethod ?? 'power';
    const bets = args.bets.map((b, i) => {
      const bet = { ...b, period: b.period ?? 'full_game', line: b.line ?? null };
      checkBet(i, bet);
      checkPrice(i, bet.price);
      return bet;
    });
    const games = await gamesOf(ctx, bets);
    const allBooks = await listSportsbooks(ctx.db.prisma);
    const known = new Set(allBooks.map((b) => b.id));
    bets.forEach((b, i) => {
      if (!known.has(b.bookId)) throw invalidParameter(`bets[${i}].book_id`, `no sportsbook ${b.bookId}`);
    });
    const sharpId = allBooks.find((b) => b.isSharp)?.id ?? null;

    const set: ClosingSet = await loadClosing(ctx, [...games.values()], { marketTypes: [...new Set(bets.map((b) => b.marketType))] });
    bets.forEach((b, i) => {
      const cutoff = set.games.get(b.gameId)!.cutoffAt;
      if (b.placedAt && b.placedAt >= cutoff) {
        throw invalidParameter(`bets[${i}].placed_at`, `must be before game ${b.gameId} went live (${cutoff.toISOString()}): CLV compares a pregame bet with the close`);
      }
    });
    const lines = new Map(set.lines.map((l) => [`${l.gameId}|${l.bookId}|${l.marketType}|${l.period}|${l.side}`, l]));
    const views = new Map<string, MarketView>();
    const out: BetClv[] = [];
    for (const [index, b] of bets.entries()) {
      const game = games.get(b.gameId)!;
      const info = set.games.get(b.gameId)!;
      const find = (bookId: number) => lines.get(`${b.gameId}|${bookId}|${b.marketType}|${b.period}|${b.side}`);
      // An outcome the book never quoted has no row: its gap follows from the game's captures alone.
      const gapOf = (line: ClosingLine | undefined) => (line ? line.missingReason : closingGap(false, info.firstSeenAt, info.cutoffAt));
      const bookLine = find(b.bookId);
      const sharpLine = sharpId === null ? undefined : find(sharpId);

      const viewKey = `${b.gameId}|${b.marketType}|${b.period}`;
      let view = views.get(viewKey);
      if (!view) {
        view = closingMarket(set, game, await leagueOf(ctx, game), b.marketType, b.period, method);
        views.set(viewKey, view);
      }
      const ref = view.reference(b.side, marketLine(b.marketType, b.side, b.line), args.reference ?? DEFAULT_REFERENCE);
      const betDecimal = americanToDecimal(b.price);
      let fair: FairClose | null = null;
      if (ref) {
        const clv = clvAgainstFair(betDecimal, ref.probability);
        fair = {
          devigMethod: method,
          source: ref.reference,
          bookCount: ref.reference_book_count,
          referenceLine: ref.reference_point,
          pointAdjusted: ref.point_adjusted,
          probability: ref.probability,
          fairAmerican: decimalToAmerican(1 / ref.probability),
          clvProbability: clv.probability,
          clvEvPercent: clv.evPercent,
        };
      }
      out.push({
        index,
        gameId: b.gameId,
        bookId: b.bookId,
        marketType: b.marketType,
        period: b.period,
        side: b.side,
        line: b.line,
        price: priceOf(b.price),
        placedAt: b.placedAt ?? null,
        book: bookLine ? againstClose(bookLine, b.marketType, b.line, b.price) : null,
        sharp: sharpLine ? againstClose(sharpLine, b.marketType, b.line, b.price) : null,
        fair,
        bookMissingReason: bookLine?.price ? null : gapOf(bookLine),
        sharpBookId: sharpId,
        sharpMissingReason: sharpId === null || sharpLine?.price ? null : gapOf(sharpLine),
      });
    }
    return out;
  },

  gradeBets: async (_root, args, ctx) => {
    checkBetCount(args.bets.length);
    const bets = args.bets.map((b, i) => {
      const bet = { ...b, period: b.period ?? 'full_game', line: b.line ?? null };
      checkBet(i, bet);
      return bet;
    });
    const games = await gamesOf(ctx, bets);
    return Promise.all(
      bets.map(async (b, index): Promise<BetGrade> => {
        const game = games.get(b.gameId)!;
        const box = await ctx.loaders.boxscoreByGameId.load(b.gameId);
        const { grade, gradedAt } = gradeOf({ ...b, point: b.line }, game, box);
        const score = scoreOf(box);
        const points = score ? pointsOfPeriod(score, b.period) : null;
        return {
          index,
          gameId: b.gameId,
          marketType: b.marketType,
          period: b.period,
          side: b.side,
          line: b.line,
          gameStatus: game.status,
          result: grade?.result ?? null,
          homePoints: points?.home ?? null,
          awayPoints: points?.away ?? null,
          gradedAt,
        };
      }),
    );
  },
};

/**
 * The grade of an outcome at its own point. The game comes preloaded from its market; the boxscore
 * is read only for games that can have a grade (final, postponed, cancelled), so live and scheduled
 * pages cost no extra statement.
 */
async function outcomeGrade(q: OutcomeModel, ctx: GraphQLContext) {
  // A prop is settled on the player's statistics, which no source of this service carries: no grade,
  // never a guess (docs/player-props.md).
  if (isPropMarket(q.marketType)) return null;
  const game = q.gameRow ?? (await ctx.loaders.gameById.load(q.gameId));
  if (!game || !(FINAL_STATUSES.includes(game.status) || VOID_STATUSES.includes(game.status))) return null;
  return gradeOf(q, game, await ctx.loaders.boxscoreByGameId.load(q.gameId));
}

/** Outcome.result / gradedAt: the quote graded at its own point. */
export const OutcomeGrade: Pick<OutcomeResolvers, 'result' | 'gradedAt'> = {
  result: async (q, _a, ctx) => {
    const grade = (await outcomeGrade(q, ctx))?.grade;
    return grade?.result ?? null;
  },
  gradedAt: async (q, _a, ctx) => (await outcomeGrade(q, ctx))?.gradedAt ?? null,
};
