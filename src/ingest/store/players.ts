import { normalizePlayerName } from '../../domain';
import type { PrismaClient } from '../../db/client';
import { createPlayer, findPlayerAliases, updatePlayerTeams } from '../../db/ingest-repository';
import type { NormalizedDocument } from '../feed-rows';
import type { State } from './feed-state';

// Players of player props: the quotes of a document name players by the source's spelling; each is
// matched to a stored player by league + normalised name through PlayerAlias (a player's own name is
// one of its aliases), or created. Never by team: a player who changes teams stays one player, whose
// current team is updated when a source names it (playerTeamId; The Odds API's props never do).

const aliasKey = (leagueId: number, alias: string) => `${leagueId}|${alias}`;

/**
 * Sets `playerId` on every quote of `doc` that names a player (`playerName`), creating the players
 * not stored yet. Runs before the capture's statement, like the game identities: a player created for
 * a statement that is then refused stays, harmlessly (it is found by its alias next time).
 */
export async function resolvePlayers(prisma: PrismaClient, state: State, doc: NormalizedDocument): Promise<void> {
  const named = doc.quotes.filter((q) => q.playerName);
  if (!named.length) return;
  const leagueOf = new Map(doc.games.map((g) => [g.id, g.leagueId]));
  const wanted = new Map<string, { leagueId: number; alias: string; name: string; teamId: number | null }>();
  for (const q of named) {
    const leagueId = leagueOf.get(q.gameId);
    const alias = normalizePlayerName(q.playerName!);
    if (leagueId === undefined || !alias) continue;
    const key = aliasKey(leagueId, alias);
    if (!state.players.has(key) && !wanted.has(key)) wanted.set(key, { leagueId, alias, name: q.playerName!.trim(), teamId: q.playerTeamId ?? null });
  }
  if (wanted.size) {
    const open = [...wanted.values()];
    const found = await findPlayerAliases(prisma, open);
    for (const f of found) state.players.set(aliasKey(f.leagueId, f.alias), Number(f.playerId));
    for (const w of open) {
      const key = aliasKey(w.leagueId, w.alias);
      if (state.players.has(key)) continue;
      state.players.set(key, await createPlayer(prisma, w));
    }
  }
  for (const q of named) {
    const leagueId = leagueOf.get(q.gameId);
    const id = leagueId === undefined ? undefined : state.players.get(aliasKey(leagueId, normalizePlayerName(q.playerName!)));
    q.playerId = id ?? 0;
  }
  // A quote whose player could not be matched (no league, an empty name) is not stored as a player's.
  doc.quotes = doc.quotes.filter((q) => !q.playerName || (q.playerId ?? 0) > 0);
  await updateTeams(prisma, doc);
}

/**
 * Sets the current team of every player whose quotes name one, where it differs from the stored one
 * (one statement; no write when nothing changed). A team named by no quote leaves the stored one.
 */
async function updateTeams(prisma: PrismaClient, doc: NormalizedDocument): Promise<void> {
  const teams = new Map<number, number>();
  for (const q of doc.quotes) if (q.playerId && q.playerTeamId) teams.set(q.playerId, q.playerTeamId);
  if (!teams.size) return;
  await updatePlayerTeams(prisma, teams);
}
