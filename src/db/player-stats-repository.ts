import { PLAYER_STATISTICS, type PlayerLine } from '../domain';
import type { Player, PlayerBoxscore, PlayerGameStat, Prisma, PrismaClient } from './client';

// Box scores of players (docs/player-props.md, "Player statistics"): the links of players to ESPN's
// athletes (Player.espnId), each game's PlayerBoxscore and its PlayerGameStat lines; written by
// src/ingest/store/player-stats.ts, read by the boxscore, the game log and prop grading.

/** A player as linking reads it. */
export interface LinkablePlayer {
  id: number;
  name: string;
  espnId: string | null;
  teamId: number | null;
}

/** The players the stored quotes of `gameId` name (the odds sources' spellings of its players). */
export function playersQuotedOn(prisma: PrismaClient, gameId: number): Promise<LinkablePlayer[]> {
  return prisma.$queryRawUnsafe<LinkablePlayer[]>(
    `SELECT p."id", p."name", p."espnId", p."teamId" FROM "Player" p WHERE p."id" IN (SELECT DISTINCT "playerId" FROM "Quote" WHERE "gameId" = $1 AND "playerId" > 0) ORDER BY p."id"`,
    gameId,
  );
}

/** The players linked to any of `athleteIds` in `leagueId`. */
export function playersOfAthletes(prisma: PrismaClient, leagueId: number, athleteIds: readonly string[]): Promise<LinkablePlayer[]> {
  return prisma.player.findMany({ where: { leagueId, espnId: { in: [...athleteIds] } }, select: { id: true, name: true, espnId: true, teamId: true }, orderBy: { id: 'asc' } });
}

/** The linked players (with an ESPN id) whose current team is one of `teamIds`: the rosters a new spelling is linked against. */
export function linkedPlayersOfTeams(prisma: PrismaClient, leagueId: number, teamIds: readonly number[]): Promise<LinkablePlayer[]> {
  return prisma.player.findMany({ where: { leagueId, teamId: { in: [...teamIds] }, espnId: { not: null } }, select: { id: true, name: true, espnId: true, teamId: true }, orderBy: { id: 'asc' } });
}

/** Links players to athletes and sets their team (player id -> ESPN id and team): one statement. */
export async function linkPlayers(prisma: PrismaClient, links: ReadonlyMap<number, { espnId: string; teamId: number }>): Promise<void> {
  if (!links.size) return;
  await prisma.$executeRawUnsafe(
    `UPDATE "Player" p SET "espnId" = l."espnId", "teamId" = l."teamId", "updatedAt" = now() FROM unnest($1::int[], $2::text[], $3::int[]) AS l("id", "espnId", "teamId")
     WHERE p."id" = l."id" AND (p."espnId" IS DISTINCT FROM l."espnId" OR p."teamId" IS DISTINCT FROM l."teamId")`,
    [...links.keys()],
    [...links.values()].map((l) => l.espnId),
    [...links.values()].map((l) => l.teamId),
  );
}

/** Adds aliases (normalised names) of players, keeping an alias another player holds. */
export async function addPlayerAliases(prisma: PrismaClient, aliases: ReadonlyArray<{ leagueId: number; alias: string; playerId: number }>): Promise<void> {
  if (!aliases.length) return;
  await prisma.$executeRawUnsafe(
    `INSERT INTO "PlayerAlias" ("leagueId", "alias", "playerId") SELECT * FROM unnest($1::int[], $2::text[], $3::int[]) ON CONFLICT DO NOTHING`,
    aliases.map((a) => a.leagueId),
    aliases.map((a) => a.alias),
    aliases.map((a) => a.playerId),
  );
}

/** A player of a box score no odds source named yet: created linked, with ESPN's spelling as alias. */
export async function createAthletePlayer(prisma: PrismaClient, p: { leagueId: number; name: string; alias: string; teamId: number; espnId: string }): Promise<number> {
  const row = await prisma.player.create({ data: { leagueId: p.leagueId, name: p.name, teamId: p.teamId, espnId: p.espnId }, select: { id: true } });
  await addPlayerAliases(prisma, [{ leagueId: p.leagueId, alias: p.alias, playerId: row.id }]);
  return row.id;
}

/** A game's stored box score of players and its lines. */
export async function readPlayerBoxscore(prisma: PrismaClient, gameId: number): Promise<{ box: PlayerBoxscore | null; lines: PlayerGameStat[] }> {
  const [box, lines] = await Promise.all([prisma.playerBoxscore.findUnique({ where: { gameId } }), prisma.playerGameStat.findMany({ where: { gameId } })]);
  return { box, lines };
}

/** One line to write: the parsed line, its written form and its correction. */
export interface PlayerGameStatWrite {
  gameId: number;
  athleteId: string;
  playerId: number;
  teamId: number;
  name: string;
  line: PlayerLine;
  stats: Record<string, string>;
  previous: PlayerLine | null;
  correctedAt: Date | null;
}

/** Writes a game's box score of players and the lines that changed, in one transaction. */
export async function writePlayerBoxscore(
  prisma: PrismaClient,
  box: { gameId: number; source: string; eventId: string; final: boolean; columns: unknown; fetchedAt: Date },
  lines: readonly PlayerGameStatWrite[],
): Promise<void> {
  const now = new Date();
  const boxData = { source: box.source, eventId: box.eventId, final: box.final, columns: box.columns as Prisma.InputJsonValue, fetchedAt: box.fetchedAt, updatedAt: now };
  await prisma.$transaction([
    prisma.playerBoxscore.upsert({ where: { gameId: box.gameId }, create: { gameId: box.gameId, ...boxData }, update: boxData }),
    ...lines.map((l) => {
      const data = {
        // As [column, text] pairs: a JSON object's keys would come back in jsonb's order, not the box score's.
        playerId: l.playerId, teamId: l.teamId, name: l.name, ...l.line, stats: statsPairs(l.stats), updatedAt: now,
        ...(l.previous && { previous: l.previous as unknown as Prisma.InputJsonValue, correctedAt: l.correctedAt }),
      };
      return prisma.playerGameStat.upsert({ where: { gameId_athleteId: { gameId: l.gameId, athleteId: l.athleteId } }, create: { gameId: l.gameId, athleteId: l.athleteId, ...data }, update: data });
    }),
  ]);
}

/** A line's stats as stored: [column, text] pairs in the box score's order. */
export const statsPairs = (stats: Record<string, string>): Array<[string, string]> => Object.entries(stats);

/** A stored line's stats as the box score writes them: its columns in order, each with its text. */
export function statsOf(row: Pick<PlayerGameStat, 'stats'>): Record<string, string> {
  return Array.isArray(row.stats) ? Object.fromEntries(row.stats as Array<[string, string]>) : ((row.stats ?? {}) as Record<string, string>);
}

/** The parsed line of a stored row. */
export function lineOf(row: PlayerGameStat): PlayerLine {
  const line = { starter: row.starter, didNotPlay: row.didNotPlay } as PlayerLine;
  for (const s of PLAYER_STATISTICS) line[s] = row[s];
  return line;
}

/** The box scores of players of `gameIds`. */
export function playerBoxscoresOf(prisma: PrismaClient, gameIds: readonly number[]): Promise<PlayerBoxscore[]> {
  return prisma.playerBoxscore.findMany({ where: { gameId: { in: [...gameIds] } } });
}

/** The lines of `gameIds`, by team then starters first then minutes played (as a box score lists them). */
export function linesOfGames(prisma: PrismaClient, gameIds: readonly number[]): Promise<PlayerGameStat[]> {
  return prisma.playerGameStat.findMany({ where: { gameId: { in: [...gameIds] } }, orderBy: [{ gameId: 'asc' }, { teamId: 'asc' }, { starter: 'desc' }, { minutes: { sort: 'desc', nulls: 'last' } }, { athleteId: 'asc' }] });
}

/** The lines of the athletes `athleteIds` in the games `gameIds` (prop grading: one read for every bet). */
export function linesOfAthletes(prisma: PrismaClient, pairs: ReadonlyArray<{ gameId: number; athleteId: string }>): Promise<PlayerGameStat[]> {
  if (!pairs.length) return Promise.resolve([]);
  return prisma.$queryRawUnsafe<PlayerGameStat[]>(
    `SELECT s.* FROM "PlayerGameStat" s JOIN unnest($1::int[], $2::text[]) AS w("gameId", "athleteId") USING ("gameId", "athleteId")`,
    pairs.map((p) => p.gameId),
    pairs.map((p) => p.athleteId),
  );
}

/** A player's game log: the lines of the athlete the player is linked to, newest game first, with the games' start times. */
export async function gameLogOf(prisma: PrismaClient, player: Player, page: { limit: number; offset: number }): Promise<{ items: Array<PlayerGameStat & { startTime: Date }>; total: number }> {
  if (!player.espnId) return { items: [], total: 0 };
  const [items, count] = await Promise.all([
    prisma.$queryRawUnsafe<Array<PlayerGameStat & { startTime: Date }>>(
      `SELECT s.*, g."startTime" FROM "PlayerGameStat" s JOIN "Game" g ON g."id" = s."gameId" WHERE s."athleteId" = $1 ORDER BY g."startTime" DESC, s."gameId" DESC LIMIT $2 OFFSET $3`,
      player.espnId,
      page.limit,
      page.offset,
    ),
    prisma.playerGameStat.count({ where: { athleteId: player.espnId } }),
  ]);
  return { items, total: count };
}
