import type { PrismaClient } from './client';

// The ingest's reads, and the writes it makes before a capture's statement (players): what the feed
// store (src/ingest/store/) reads to fill its memory, to match a source's games to stored ones, and to
// match player names to players. The capture's own statement is built with capture-statement.ts.

/**
 * What the feed store's memory starts from: the ingest counter, the leagues and the sportsbook ids.
 * The counter is read first: a write after this read makes the next statement's check fail.
 */
export async function readIngestStart(prisma: PrismaClient) {
  const counter = await prisma.ingestState.findUnique({ where: { id: 1 } });
  const leagues = await prisma.league.findMany({ select: { id: true, currentSeason: true, currentSeasonType: true, isActive: true } });
  const books = await prisma.sportsbook.findMany({ select: { id: true } });
  return { counter, leagues, books };
}

/** The stored rows of the teams `teamIds` and of the games `gameIds` (game, boxscore, quotes, public betting), read at once. */
export async function readFeedRows(prisma: PrismaClient, teamIds: readonly number[], gameIds: readonly number[]) {
  const newTeams = [...teamIds];
  const ids = [...gameIds];
  return Promise.all([
    newTeams.length ? prisma.team.findMany({ where: { id: { in: newTeams } } }) : [],
    ids.length ? prisma.game.findMany({ where: { id: { in: ids } } }) : [],
    ids.length ? prisma.boxscore.findMany({ where: { gameId: { in: ids } } }) : [],
    ids.length ? prisma.quote.findMany({ where: { gameId: { in: ids } } }) : [],
    ids.length ? prisma.publicBetting.findMany({ where: { gameId: { in: ids } } }) : [],
  ]);
}

/** A stored game as game identity compares it with a source's games. */
export interface StoredGameIdentity {
  id: number;
  leagueId: number;
  homeTeamId: number;
  awayTeamId: number;
  startTime: Date;
  status: string;
  meta: unknown;
  simulated: boolean;
}

/** One game of a source to be matched: its upstream id, derived id, league, teams and start. */
export interface IdentityQuery {
  sourceId: string;
  gameId: number;
  leagueId: number;
  homeTeamId: number;
  awayTeamId: number;
  startTime: Date;
}

/**
 * In one query, the stored games that may be the open identities': those naming one of their upstream
 * ids (under `source` in meta.source_ids), those holding one of their derived ids, and those of the
 * same league and teams within `windowMs` of their start.
 */
export async function identityCandidates(prisma: PrismaClient, source: string, open: readonly IdentityQuery[], windowMs: number): Promise<StoredGameIdentity[]> {
  const rows = await prisma.$queryRawUnsafe<StoredGameIdentity[]>(
    `SELECT g."id", g."leagueId", g."homeTeamId", g."awayTeamId", g."startTime", g."status", g."meta", g."simulated" FROM "Game" g
      WHERE g."meta"->'source_ids'->>$1 = ANY($2::text[]) OR g."id" = ANY($3::int[])
        OR EXISTS (SELECT 1 FROM unnest($4::int[], $5::int[], $6::int[], $7::timestamp(3)[]) AS i("leagueId", "homeTeamId", "awayTeamId", "startTime")
          WHERE g."leagueId" = i."leagueId" AND g."homeTeamId" = i."homeTeamId" AND g."awayTeamId" = i."awayTeamId"
            AND g."startTime" BETWEEN i."startTime" - $8::interval AND i."startTime" + $8::interval)`,
    source,
    open.map((i) => i.sourceId),
    open.map((i) => i.gameId),
    open.map((i) => i.leagueId),
    open.map((i) => i.homeTeamId),
    open.map((i) => i.awayTeamId),
    open.map((i) => i.startTime.toISOString()),
    `${windowMs / 1000} seconds`,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), startTime: new Date(r.startTime) }));
}

/** The stored game `id`'s id and meta (whose source ids say which upstream game holds it), or null. */
export async function gameMetaById(prisma: PrismaClient, id: number) {
  return prisma.game.findUnique({ where: { id }, select: { id: true, meta: true } });
}

/** The players found under the (league, normalised name) aliases `wanted`. */
export async function findPlayerAliases(prisma: PrismaClient, wanted: ReadonlyArray<{ leagueId: number; alias: string }>) {
  return prisma.$queryRawUnsafe<Array<{ leagueId: number; alias: string; playerId: number }>>(
    `SELECT a."leagueId", a."alias", a."playerId" FROM "PlayerAlias" a JOIN unnest($1::int[], $2::text[]) AS w("leagueId", "alias") USING ("leagueId", "alias")`,
    wanted.map((w) => w.leagueId),
    wanted.map((w) => w.alias),
  );
}

/** A new player and its own name as alias; if another process created the alias meanwhile, that player. */
export async function createPlayer(prisma: PrismaClient, w: { leagueId: number; alias: string; name: string; teamId: number | null }): Promise<number> {
  const [row] = await prisma.$queryRawUnsafe<Array<{ id: number }>>(
    `WITH p AS (INSERT INTO "Player" ("leagueId", "name", "teamId", "updatedAt") VALUES ($1, $2, $4, now()) RETURNING "id"),
      a AS (INSERT INTO "PlayerAlias" ("leagueId", "alias", "playerId") SELECT $1, $3, "id" FROM p ON CONFLICT DO NOTHING RETURNING "playerId")
     SELECT COALESCE((SELECT "playerId" FROM a), (SELECT "playerId" FROM "PlayerAlias" WHERE "leagueId" = $1 AND "alias" = $3)) AS "id"`,
    w.leagueId,
    w.name,
    w.alias,
    w.teamId,
  );
  return Number(row!.id);
}

/** Sets each player's team (player id -> team id) where it differs from the stored one: one statement, no write when nothing changed. */
export async function updatePlayerTeams(prisma: PrismaClient, teams: ReadonlyMap<number, number>): Promise<void> {
  await prisma.$executeRawUnsafe(
    `UPDATE "Player" p SET "teamId" = t."teamId", "updatedAt" = now() FROM unnest($1::int[], $2::int[]) AS t("id", "teamId")
     WHERE p."id" = t."id" AND p."teamId" IS DISTINCT FROM t."teamId"`,
    [...teams.keys()],
    [...teams.values()],
  );
}
