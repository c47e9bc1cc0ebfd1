import { linkPlayerNames, normalizePlayerName } from '../../domain';
import { addPlayerAliases, linkedPlayersOfTeams } from '../../db/player-stats-repository';
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
  const gameOf = new Map(doc.games.map((g) => [g.id, g]));
  const wanted = new Map<string, { leagueId: number; alias: string; name: string; teamId: number | null; gameId: number }>();
  for (const q of named) {
    const leagueId = leagueOf.get(q.gameId);
    const alias = normalizePlayerName(q.playerName!);
    if (leagueId === undefined || !alias) continue;
    const key = aliasKey(leagueId, alias);
    if (!state.players.has(key) && !wanted.has(key)) wanted.set(key, { leagueId, alias, name: q.playerName!.trim(), teamId: q.playerTeamId ?? null, gameId: q.gameId });
  }
  if (wanted.size) {
    const open = [...wanted.values()];
    const found = await findPlayerAliases(prisma, open);
    for (const f of found) state.players.set(aliasKey(f.leagueId, f.alias), Number(f.playerId));
    for (const w of open) {
      const key = aliasKey(w.leagueId, w.alias);
      if (state.players.has(key)) continue;
      const linked = await linkToRoster(prisma, w, gameOf.get(w.gameId));
      state.players.set(key, linked ?? (await createPlayer(prisma, w)));
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
 * A name no alias finds, linked to a box-score player of its game's two teams (players linked to
 * ESPN's athletes, by their current team) when exactly one fits (linkPlayerNames): the name becomes
 * that player's alias. Null when none or several fit: the name is then a player of its own, linked
 * when the game's box score comes (src/ingest/store/player-stats.ts).
 */
async function linkToRoster(prisma: PrismaClient, w: { leagueId: number; alias: string; name: string }, game: { homeTeamId: number; awayTeamId: number } | undefined): Promise<number | null> {
  if (!game) return null;
  const roster = await linkedPlayersOfTeams(prisma, w.leagueId, [game.homeTeamId, game.awayTeamId]);
  const athletes = new Map<string, { id: string; name: string }>();
  for (const p of roster) if (!athletes.has(p.espnId!)) athletes.set(p.espnId!, { id: String(p.id), name: p.name });
  const [link] = linkPlayerNames([w.name], [...athletes.values()]);
  if (!link?.playerId) return null;
  const id = Number(link.playerId);
  await addPlayerAliases(prisma, [{ leagueId: w.leagueId, alias: w.alias, playerId: id }]);
  return id;
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
