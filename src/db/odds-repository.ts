import { Prisma } from './__generated__/prisma/client';
import type { Boxscore, Game, League, PrismaClient, PublicBetting, Quote, Sportsbook, Team } from './client';

// Every read the API makes, one function per query shape. Batch reads take a list of keys and
// return rows in no particular order: the DataLoaders in src/graphql/loaders.ts put them in key
// order. Each function is exactly one SQL statement (two for a counted page), which the query-count
// test relies on.

/** The filters of a games listing; absent fields do not filter. */
export interface GameFilter {
  /** start_time >= from (inclusive). */
  from?: Date | undefined;
  /** start_time < to (exclusive). */
  to?: Date | undefined;
  leagueId?: number | undefined;
  gameIds?: readonly number[] | undefined;
  /** Either team plays. */
  teamIds?: readonly number[] | undefined;
  /** Stored status values. */
  statuses?: readonly string[] | undefined;
}

function gameWhere(filter: GameFilter): Prisma.GameWhereInput {
  const where: Prisma.GameWhereInput = {};
  if (filter.from || filter.to) where.startTime = { ...(filter.from && { gte: filter.from }), ...(filter.to && { lt: filter.to }) };
  if (filter.leagueId !== undefined) where.leagueId = filter.leagueId;
  if (filter.gameIds) where.id = { in: [...filter.gameIds] };
  if (filter.statuses) where.status = { in: [...filter.statuses] };
  if (filter.teamIds) where.OR = [{ homeTeamId: { in: [...filter.teamIds] } }, { awayTeamId: { in: [...filter.teamIds] } }];
  return where;
}

/**
 * One page of games matching `filter`, ordered by start time then id (a total order, so pages are
 * stable), and the number of all matching games.
 */
export async function findGames(
  prisma: PrismaClient,
  filter: GameFilter,
  page: { limit: number; offset: number },
): Promise<{ total: number; items: Game[] }> {
  const where = gameWhere(filter);
  const [total, items] = await Promise.all([
    prisma.game.count({ where }),
    prisma.game.findMany({ where, orderBy: [{ startTime: 'asc' }, { id: 'asc' }], take: page.limit, skip: page.offset }),
  ]);
  return { total, items };
}

export function gamesByIds(prisma: PrismaClient, ids: readonly number[]): Promise<Game[]> {
  return prisma.game.findMany({ where: { id: { in: [...ids] } } });
}

export function teamsByIds(prisma: PrismaClient, ids: readonly number[]): Promise<Team[]> {
  return prisma.team.findMany({ where: { id: { in: [...ids] } } });
}

export function leaguesByIds(prisma: PrismaClient, ids: readonly number[]): Promise<League[]> {
  return prisma.league.findMany({ where: { id: { in: [...ids] } } });
}

export function sportsbooksByIds(prisma: PrismaClient, ids: readonly number[]): Promise<Sportsbook[]> {
  return prisma.sportsbook.findMany({ where: { id: { in: [...ids] } } });
}

export function boxscoresByGameIds(prisma: PrismaClient, gameIds: readonly number[]): Promise<Boxscore[]> {
  return prisma.boxscore.findMany({ where: { gameId: { in: [...gameIds] } } });
}

type RawQuote = Omit<Quote, 'id'> & { id: bigint | number | string };

/**
 * Quotes matching `where` (conditions on `q`, the quote, and `g`, its game), in `orderBy` order.
 * A quote row changes only when its price or availability does; the time an available quote was last
 * seen is the time the last document carrying its game was seen (Game.seenAt), which is later.
 */
export async function readQuotes(prisma: PrismaClient, where: Prisma.Sql, orderBy: Prisma.Sql): Promise<Quote[]> {
  const rows = await prisma.$queryRaw<RawQuote[]>`
    SELECT q."id", q."gameId", q."bookId", q."marketType", q."period", q."side", q."isLive", q."playerId", q."lineKey", q."outcomeId", q."teamId", q."point",
      q."american", q."decimal", q."fractional", q."isAvailable", q."lineStatus", q."changedAt", q."openPoint", q."openAmerican", q."openedAt",
      CASE WHEN q."isAvailable" AND g."seenAt" > q."seenAt" THEN g."seenAt" ELSE q."seenAt" END AS "seenAt"
    FROM "Quote" q JOIN "Game" g ON g."id" = q."gameId"
    WHERE ${where}
    ORDER BY ${orderBy}`;
  return rows.map((r) => ({
    ...r,
    id: BigInt(r.id),
    american: Number(r.american),
    openAmerican: Number(r.openAmerican),
    seenAt: new Date(r.seenAt),
    changedAt: new Date(r.changedAt),
    openedAt: new Date(r.openedAt),
  }));
}

/**
 * Current quotes of the games, every book, market, period and live flag; player props apart
 * (`propQuotesByGameIds`): a game carries 10-30x more prop prices than game prices, and a page that
 * does not ask for props does not read them.
 */
export function quotesByGameIds(prisma: PrismaClient, gameIds: readonly number[]): Promise<Quote[]> {
  if (!gameIds.length) return Promise.resolve([]);
  return readQuotes(prisma, Prisma.sql`q."gameId" IN (${Prisma.join([...gameIds])}) AND q."playerId" = 0`, Prisma.sql`q."gameId", q."bookId", q."id"`);
}

/** Current player-prop quotes of the games. */
export function propQuotesByGameIds(prisma: PrismaClient, gameIds: readonly number[]): Promise<Quote[]> {
  if (!gameIds.length) return Promise.resolve([]);
  return readQuotes(prisma, Prisma.sql`q."gameId" IN (${Prisma.join([...gameIds])}) AND q."playerId" <> 0`, Prisma.sql`q."gameId", q."bookId", q."id"`);
}

/**
 * Public betting rows of the games. `numBets` is the game's current bet count (the ingest does not
 * rewrite every betting row when only that count moves).
 */
export async function publicBettingByGameIds(prisma: PrismaClient, gameIds: readonly number[]): Promise<PublicBetting[]> {
  if (!gameIds.length) return [];
  const rows = await prisma.$queryRaw<Array<Omit<PublicBetting, 'id'> & { id: bigint | number | string }>>`
    SELECT b."id", b."gameId", b."bookId", b."marketType", b."period", b."side", b."ticketsPercent", b."moneyPercent",
      COALESCE(g."numBets", b."numBets") AS "numBets", b."updatedAt"
    FROM "PublicBetting" b JOIN "Game" g ON g."id" = b."gameId"
    WHERE b."gameId" IN (${Prisma.join([...gameIds])})
    ORDER BY b."gameId", b."bookId", b."id"`;
  return rows.map((r) => ({ ...r, id: BigInt(r.id), numBets: r.numBets == null ? null : Number(r.numBets), updatedAt: new Date(r.updatedAt) }));
}

/**
 * `text` as a literal inside a LIKE pattern. Prisma turns a case-insensitive `startsWith` or `equals`
 * into ILIKE without escaping, so `%` would match everything and a trailing `\` is a PostgreSQL error;
 * backslash is PostgreSQL's default LIKE escape character.
 */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Teams ordered by id; conference and division match case-insensitively by prefix ('east' finds EASTERN). */
export function findTeams(
  prisma: PrismaClient,
  filter: { leagueId?: number | undefined; teamIds?: readonly number[] | undefined; conference?: string | undefined; division?: string | undefined },
): Promise<Team[]> {
  const where: Prisma.TeamWhereInput = {};
  if (filter.leagueId !== undefined) where.leagueId = filter.leagueId;
  if (filter.teamIds) where.id = { in: [...filter.teamIds] };
  if (filter.conference !== undefined) where.conferenceType = { startsWith: likeLiteral(filter.conference), mode: 'insensitive' };
  if (filter.division !== undefined) where.divisionType = { startsWith: likeLiteral(filter.division), mode: 'insensitive' };
  return prisma.team.findMany({ where, orderBy: { id: 'asc' } });
}

/** Leagues ordered by id; sport compares case-insensitively. */
export function findLeagues(
  prisma: PrismaClient,
  filter: { leagueId?: number | undefined; sport?: string | undefined; isActive?: boolean | undefined },
): Promise<League[]> {
  const where: Prisma.LeagueWhereInput = {};
  if (filter.leagueId !== undefined) where.id = filter.leagueId;
  if (filter.sport !== undefined) where.sport = { equals: likeLiteral(filter.sport), mode: 'insensitive' };
  if (filter.isActive !== undefined) where.isActive = filter.isActive;
  return prisma.league.findMany({ where, orderBy: { id: 'asc' } });
}

export function listSportsbooks(prisma: PrismaClient): Promise<Sportsbook[]> {
  return prisma.sportsbook.findMany({ orderBy: { id: 'asc' } });
}

export type { Boxscore as BoxscoreRow, Game as GameRow, League as LeagueRow, PublicBetting as PublicBettingRow, Quote as QuoteRow, Sportsbook as SportsbookRow, Team as TeamRow };

/** The ids of the games starting in [from, to), narrowed to `gameIds` when given (in no order). */
export async function gameIdsStarting(prisma: PrismaClient, range: { from: Date; to: Date }, gameIds?: readonly number[]): Promise<number[]> {
  const games = await prisma.game.findMany({
    where: { startTime: { gte: range.from, lt: range.to }, ...(gameIds && { id: { in: [...gameIds] } }) },
    select: { id: true },
  });
  return games.map((g) => g.id);
}
