import type { ClosingRow } from '../db/closing-repository';
import type { Player } from '../db/client';
import { listSportsbooks, type BoxscoreRow, type GameRow } from '../db/odds-repository';
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
  hasLine,
  isPropMarket,
  marketTypeDefinition,
  propTypeOf,
  pushTo,
  pointsOfPeriod,
  VOID_STATUSES,
  type BetResult,
  type ClosingGap,
  type DevigMethod,
  type FairGap,
  type FairSource,
  type GameScore,
  type Grade,
  type GradeGap,
  type LiveMarketType,
  type MarketView,
  type Period,
  type PeriodPoints,
  type ReferenceChoice,
  type Side,
  type StoredMarketType,
} from '../domain';
import { invalidParameter } from './arguments';
import { checkBet, checkBetCount, checkPrice, MAX_GRADED_BETS } from './bet-rules';
import { closingMarket, leagueOf, loadClosing, priceOf, type ClosingLine, type ClosingPrice, type ClosingSet, type PlayerBrief } from './closing';
import { propGrade, propLinesOf } from './prop-grades';
import type { ReadContext } from './read-context';

// Bets (docs/closing-and-grading.md): the CLV of bets against the close (betClv) and their grades from
// the stored scores (gradeBets, and Outcome.result's outcomeGrade). The rules of one bet: bet-rules.ts.

/** A bet given to gradeBets (GraphQL GradeBetInput): market/period/side in lower case. */
export interface GradeBetInput {
  gameId: number;
  marketType: LiveMarketType;
  propType?: string | null | undefined;
  playerId?: number | null | undefined;
  period?: Period | null | undefined;
  side: Side;
  line?: number | null | undefined;
}

/** A bet given to betClv (GraphQL ClvBetInput): a graded bet plus its book, price and time. */
export interface ClvBetInput extends GradeBetInput {
  bookId: number;
  price: number;
  placedAt?: Date | null | undefined;
}

/** The CLV of a bet against one close (GraphQL ClvAgainstClose). */
export interface ClvAgainstClose {
  close: ClosingLine;
  sameLine: boolean;
  cents: number | null;
  impliedProbability: number | null;
}

/** The CLV of a bet against the fair close (GraphQL FairClose). */
export interface FairClose {
  devigMethod: DevigMethod;
  source: FairSource;
  bookCount: number;
  referenceLine: number | null;
  pointAdjusted: boolean;
  probability: number;
  fairAmerican: number;
  clvProbability: number;
  clvEvPercent: number;
}

/** What one bet echoes back in both answers. */
interface BetEcho {
  index: number;
  gameId: number;
  marketType: LiveMarketType;
  propType: string | null;
  player: PlayerBrief | null;
  period: Period;
  side: Side;
  line: number | null;
}

/** One bet's CLV (GraphQL BetClv). */
export interface BetClv extends BetEcho {
  bookId: number;
  price: ClosingPrice;
  placedAt: Date | null;
  book: ClvAgainstClose | null;
  sharp: ClvAgainstClose | null;
  fair: FairClose | null;
  fairMissingReason: FairGap | null;
  bookMissingReason: ClosingGap | null;
  sharpBookId: number | null;
  sharpMissingReason: ClosingGap | null;
}

/** One bet's grade (GraphQL BetGrade). */
export interface BetGrade extends BetEcho {
  gameStatus: string;
  result: BetResult | null;
  resultMissingReason: GradeGap | null;
  homePoints: number | null;
  awayPoints: number | null;
  gradedAt: Date | null;
  /** A prop bet: the statistic it counted on the player's line (the sum; on a double-double the categories in double figures). */
  playerValue: number | null;
  /** A prop bet whose line a corrected box score changed: when, else null. */
  statisticsCorrectedAt: Date | null;
  /** The result before that correction when the correction changed it (the bet was graded again), else null. */
  previousResult: BetResult | null;
}

/** A quote as outcomeGrade reads it; `gameRow` is its game when its market preloaded it. */
export interface GradedQuote {
  gameId: number;
  marketType: string;
  side: string;
  point: number | null;
  period: string;
  gameRow?: GameRow | undefined;
}

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
async function gamesOf(ctx: Pick<ReadContext, 'loaders'>, bets: readonly { gameId: number }[]): Promise<Map<number, GameRow>> {
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

/**
 * The players of the prop bets, by id.
 * @throws AppError BAD_REQUEST naming the first bet of an unknown player, or of a player of another
 *   league than its game's (no book quotes a WNBA player's prop on an NBA game: a mistaken id)
 */
async function playersOf(ctx: Pick<ReadContext, 'loaders'>, bets: readonly { gameId: number; playerId?: number | null | undefined }[], games: ReadonlyMap<number, GameRow>): Promise<Map<number, Player>> {
  const ids = [...new Set(bets.flatMap((b) => (b.playerId ? [b.playerId] : [])))];
  const players = new Map<number, Player>();
  (await ctx.loaders.playerById.loadMany(ids)).forEach((p, i) => {
    if (p && !(p instanceof Error)) players.set(ids[i]!, p);
  });
  bets.forEach((b, i) => {
    if (!b.playerId) return;
    const player = players.get(b.playerId);
    if (!player) throw invalidParameter(`bets[${i}].player_id`, `no player ${b.playerId}`);
    if (player.leagueId !== games.get(b.gameId)!.leagueId) throw invalidParameter(`bets[${i}].player_id`, `player ${b.playerId} plays in another league than game ${b.gameId}`);
  });
  return players;
}

/** The player of a prop bet as answers show it; null on a game bet. */
function playerBrief(players: ReadonlyMap<number, Player>, playerId: number | null | undefined): PlayerBrief | null {
  const p = playerId ? players.get(playerId) : undefined;
  return p ? { id: p.id, name: p.name, teamId: p.teamId } : null;
}

/** The bet's line in the market's pairing convention (home handicap, total or player's line, 0). */
function marketLine(marketType: StoredMarketType, side: string, line: number | null): number {
  if (!hasLine(marketType) || line === null) return 0;
  return marketTypeDefinition(marketType).line === 'handicap' && side === 'away' ? -line + 0 : line;
}

/**
 * The close a bet is measured against among one book's closes of its outcome: a game market has one;
 * a prop may have its main line and alternates, and the close at the bet's line is taken (main or
 * alternate), else the main line's, as a game market's close at another line (sameLine false), else
 * the alternate closed nearest the bet's line.
 */
function closeFor(candidates: readonly { row: ClosingRow; line: ClosingLine }[] | undefined, line: number | null): ClosingLine | undefined {
  if (!candidates?.length) return undefined;
  if (candidates.length === 1) return candidates[0]!.line;
  const priced = candidates.filter((c) => c.line.price);
  const at = priced.find((c) => c.line.point === line);
  if (at) return at.line;
  const main = candidates.find((c) => c.row.lineKey === '');
  if (main?.line.price || !priced.length) return (main ?? candidates[0]!).line;
  const distance = (c: { line: ClosingLine }) => Math.abs((c.line.point ?? 0) - (line ?? 0));
  return [...priced].sort((a, b) => distance(a) - distance(b) || (a.line.point ?? 0) - (b.line.point ?? 0))[0]!.line;
}

/** The CLV of a bet at `price` against one close (cents and implied probability at the same line only). */
function againstClose(close: ClosingLine, marketType: StoredMarketType, line: number | null, price: number): ClvAgainstClose | null {
  if (!close.price) return null;
  const sameLine = !hasLine(marketType) || close.point === line;
  return {
    close,
    sameLine,
    cents: sameLine ? clvCents(price, close.price.american) : null,
    impliedProbability: sameLine ? clvImpliedProbability(price, close.price.american) : null,
  };
}

/**
 * The CLV of each bet against the close (docs/closing-and-grading.md): at its own book, at the sharp
 * book, and against the fair close of the market (de-vigged with `options.devigMethod`, power by
 * default). @throws AppError BAD_REQUEST naming the first bad bet (its rules, an unknown game, book or
 * player, placed after its game went live)
 */
export async function betClv(
  ctx: ReadContext,
  input: readonly ClvBetInput[],
  options: { devigMethod?: DevigMethod | null | undefined; reference?: ReferenceChoice | null | undefined } = {},
): Promise<BetClv[]> {
  checkBetCount(input.length);
  const method: DevigMethod = options.devigMethod ?? 'power';
  const bets = input.map((b, i) => {
    const bet = { ...b, period: b.period ?? 'full_game', line: b.line ?? null };
    const stored = checkBet(i, bet);
    checkPrice(i, bet.price);
    return { ...bet, stored, playerId: isPropMarket(stored) ? bet.playerId! : 0 };
  });
  const games = await gamesOf(ctx, bets);
  const allBooks = await listSportsbooks(ctx.db.prisma);
  const known = new Set(allBooks.map((b) => b.id));
  bets.forEach((b, i) => {
    if (!known.has(b.bookId)) throw invalidParameter(`bets[${i}].book_id`, `no sportsbook ${b.bookId}`);
  });
  const players = await playersOf(ctx, bets, games);
  const sharpId = allBooks.find((b) => b.isSharp)?.id ?? null;

  const set: ClosingSet = await loadClosing(ctx, [...games.values()], { marketTypes: [...new Set(bets.map((b) => b.stored))] });
  bets.forEach((b, i) => {
    const cutoff = set.games.get(b.gameId)!.cutoffAt;
    if (b.placedAt && b.placedAt >= cutoff) {
      throw invalidParameter(`bets[${i}].placed_at`, `must be before game ${b.gameId} went live (${cutoff.toISOString()}): CLV compares a pregame bet with the close`);
    }
  });
  // One book's closes of one outcome: a single row on a game market, the main line and any
  // alternates on a prop (rows and lines are parallel: ClosingSet).
  const outcomeKey = (gameId: number, bookId: number, marketType: string, period: string, side: string, playerId: number) =>
    `${gameId}|${bookId}|${marketType}|${period}|${side}|${playerId}`;
  const closes = new Map<string, Array<{ row: ClosingRow; line: ClosingLine }>>();
  set.rows.forEach((row, i) => {
    const k = outcomeKey(row.gameId, row.bookId, row.marketType, row.period, row.side, row.playerId);
    pushTo(closes, k, { row, line: set.lines[i]! });
  });
  const views = new Map<string, MarketView>();
  const out: BetClv[] = [];
  for (const [index, b] of bets.entries()) {
    const game = games.get(b.gameId)!;
    const info = set.games.get(b.gameId)!;
    const find = (bookId: number) => closeFor(closes.get(outcomeKey(b.gameId, bookId, b.stored, b.period, b.side, b.playerId)), b.line);
    // An outcome the book never quoted has no row: its gap follows from the game's captures alone.
    const gapOf = (line: ClosingLine | undefined) => (line ? line.missingReason : closingGap(false, info.firstSeenAt, info.cutoffAt));
    const bookLine = find(b.bookId);
    const sharpLine = sharpId === null ? undefined : find(sharpId);

    const viewKey = `${b.gameId}|${b.stored}|${b.period}|${b.playerId}`;
    let view = views.get(viewKey);
    if (!view) {
      view = closingMarket(set, game, await leagueOf(ctx, game), b.stored, b.period, method, b.playerId);
      views.set(viewKey, view);
    }
    const ref = view.reference(b.side, marketLine(b.stored, b.side, b.line), options.reference ?? DEFAULT_REFERENCE);
    // Props have no key-number model: books that closed the prop at other lines only leave no fair close at the bet's.
    const fairMissingReason: FairGap | null = ref ? null : isPropMarket(b.stored) && view.hasPairs() ? 'no_closing_pair_at_line' : 'no_closing_pair';
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
      propType: propTypeOf(b.stored),
      player: playerBrief(players, b.playerId),
      period: b.period,
      side: b.side,
      line: b.line,
      price: priceOf(b.price),
      placedAt: b.placedAt ?? null,
      book: bookLine ? againstClose(bookLine, b.stored, b.line, b.price) : null,
      sharp: sharpLine ? againstClose(sharpLine, b.stored, b.line, b.price) : null,
      fair,
      fairMissingReason,
      bookMissingReason: bookLine?.price ? null : gapOf(bookLine),
      sharpBookId: sharpId,
      sharpMissingReason: sharpId === null || sharpLine?.price ? null : gapOf(sharpLine),
    });
  }
  return out;
}

/**
 * The grade of each bet: a game bet from its game's stored score, a prop bet from its player's line
 * in the game's box score (propGrade). @throws AppError BAD_REQUEST naming the first bad bet (its
 * rules, an unknown game or player)
 */
export async function gradeBets(ctx: Pick<ReadContext, 'loaders' | 'db'>, input: readonly GradeBetInput[]): Promise<BetGrade[]> {
  checkBetCount(input.length, MAX_GRADED_BETS);
  const bets = input.map((b, i) => {
    const bet = { ...b, period: b.period ?? 'full_game', line: b.line ?? null };
    const stored = checkBet(i, bet);
    return { ...bet, stored, prop: isPropMarket(stored) };
  });
  const games = await gamesOf(ctx, bets);
  const players = await playersOf(ctx, bets, games);
  const { boxes, lines } = await propLinesOf(ctx, bets, players);
  const scores = new Map<number, BoxscoreRow | null>();
  const gameBetIds = [...new Set(bets.filter((b) => !b.prop).map((b) => b.gameId))];
  (await ctx.loaders.boxscoreByGameId.loadMany(gameBetIds)).forEach((box, i) => scores.set(gameBetIds[i]!, box instanceof Error ? null : box));
  return bets.map((b, index): BetGrade => {
    const game = games.get(b.gameId)!;
    const echo = {
      index,
      gameId: b.gameId,
      marketType: b.marketType,
      propType: propTypeOf(b.stored),
      player: playerBrief(players, b.playerId),
      period: b.period,
      side: b.side,
      line: b.line,
      gameStatus: game.status,
    };
    if (b.prop) {
      const athleteId = players.get(b.playerId!)?.espnId;
      const line = athleteId ? lines.get(`${b.gameId}|${athleteId}`) : undefined;
      // A prop is not settled on the score: the period's points would read as its grade.
      return { ...echo, ...propGrade({ marketType: b.stored, side: b.side, line: b.line }, game, boxes.get(b.gameId), line), homePoints: null, awayPoints: null };
    }
    const box = scores.get(b.gameId) ?? null;
    const { grade, gradedAt } = gradeOf({ ...b, marketType: b.stored, point: b.line }, game, box);
    const score = scoreOf(box);
    const points = score ? pointsOfPeriod(score, b.period) : null;
    return {
      ...echo,
      result: grade?.result ?? null,
      resultMissingReason: grade ? null : 'not_final',
      homePoints: points?.home ?? null,
      awayPoints: points?.away ?? null,
      gradedAt,
      playerValue: null,
      statisticsCorrectedAt: null,
      previousResult: null,
    };
  });
}

/**
 * The grade of a quoted outcome at its own point (Outcome.result). The game comes preloaded from its market; the boxscore
 * is read only for games that can have a grade (final, postponed, cancelled), so live and scheduled
 * pages cost no extra statement.
 */
export async function outcomeGrade(ctx: Pick<ReadContext, 'loaders'>, q: GradedQuote) {
  const game = q.gameRow ?? (await ctx.loaders.gameById.load(q.gameId));
  if (!game || !(FINAL_STATUSES.includes(game.status) || VOID_STATUSES.includes(game.status))) return null;
  // A prop outcome is graded here only when the game was not played (void): its grade from the
  // player's box-score line is POST /grade's (gradeBets), not a listing's (docs/player-props.md).
  if (isPropMarket(q.marketType) && !VOID_STATUSES.includes(game.status)) return null;
  return gradeOf(q, game, await ctx.loaders.boxscoreByGameId.load(q.gameId));
}

