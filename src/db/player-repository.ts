import { normalizePlayerName } from '../domain';
import type { Player, PrismaClient } from './client';

// Reads of players (player props): by id for the outcomes that name them, and the /players search.

export function playersByIds(prisma: PrismaClient, ids: readonly number[]): Promise<Player[]> {
  return prisma.player.findMany({ where: { id: { in: [...ids] } } });
}

export interface PlayerSearch {
  /** Part of a name, matched against the normalised names and aliases. */
  name?: string | undefined;
  teamIds?: readonly number[] | undefined;
  leagueId?: number | undefined;
  limit: number;
  offset: number;
}

/** Players by name (any alias containing the normalised text), team and league, by name then id. */
export async function searchPlayers(prisma: PrismaClient, search: PlayerSearch): Promise<{ players: Player[]; total: number }> {
  const text = search.name === undefined ? undefined : normalizePlayerName(search.name);
  const where = {
    ...(search.leagueId !== undefined && { leagueId: search.leagueId }),
    ...(search.teamIds?.length && { teamId: { in: [...search.teamIds] } }),
    ...(text && { id: { in: await aliasMatches(prisma, text, search.leagueId) } }),
  };
  const [players, total] = await Promise.all([
    prisma.player.findMany({ where, orderBy: [{ name: 'asc' }, { id: 'asc' }], take: search.limit, skip: search.offset }),
    prisma.player.count({ where }),
  ]);
  return { players, total };
}

async function aliasMatches(prisma: PrismaClient, text: string, leagueId: number | undefined): Promise<number[]> {
  const rows = await prisma.playerAlias.findMany({
    where: { alias: { contains: text }, ...(leagueId !== undefined && { leagueId }) },
    select: { playerId: true },
  });
  return [...new Set(rows.map((r) => r.playerId))];
}
