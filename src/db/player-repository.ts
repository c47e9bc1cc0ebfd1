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
  playerIds?: readonly number[] | undefined;
  limit: number;
  offset: number;
}

/**
 * Players by name (an alias holding every word of the normalised text), team, league and id, ordered
 * by name then id, with the number of all matches. An empty id or team list matches nothing.
 */
export async function searchPlayers(prisma: PrismaClient, search: PlayerSearch): Promise<{ players: Player[]; total: number }> {
  const text = search.name === undefined ? undefined : normalizePlayerName(search.name);
  const byName = text ? await aliasMatches(prisma, text, search.leagueId) : undefined;
  const ids = search.playerIds && byName ? search.playerIds.filter((id) => byName.includes(id)) : (search.playerIds ?? byName);
  const where = {
    ...(search.leagueId !== undefined && { leagueId: search.leagueId }),
    ...(search.teamIds !== undefined && { teamId: { in: [...search.teamIds] } }),
    ...(ids !== undefined && { id: { in: [...ids] } }),
  };
  const [players, total] = await Promise.all([
    prisma.player.findMany({ where, orderBy: [{ name: 'asc' }, { id: 'asc' }], take: search.limit, skip: search.offset }),
    prisma.player.count({ where }),
  ]);
  return { players, total };
}

/**
 * Ids of the players with an alias holding every word of `text` (already normalised: its words are
 * sorted, so each is matched alone, and "wilson a" finds "aja wilson").
 */
async function aliasMatches(prisma: PrismaClient, text: string, leagueId: number | undefined): Promise<number[]> {
  const rows = await prisma.playerAlias.findMany({
    where: { AND: text.split(' ').map((word) => ({ alias: { contains: word } })), ...(leagueId !== undefined && { leagueId }) },
    select: { playerId: true },
  });
  return [...new Set(rows.map((r) => r.playerId))];
}
