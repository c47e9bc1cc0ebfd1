import { linkPlayerNames, normalizePlayerName, PLAYER_STATISTICS, type PlayerLine } from '../../domain';
import type { PrismaClient } from '../../db/client';
import { findPlayerAliases } from '../../db/ingest-repository';
import {
  addPlayerAliases,
  createAthletePlayer,
  lineOf,
  linkPlayers,
  playersOfAthletes,
  playersQuotedOn,
  readPlayerBoxscore,
  statsPairs,
  writePlayerBoxscore,
  type LinkablePlayer,
  type PlayerGameStatWrite,
} from '../../db/player-stats-repository';
import type { NormalizedDocument, SkippedPart } from '../feed-rows';

// Box scores of players (ESPN's summary), stored once the capture's statement has committed (the
// game's id is then the stored game's, game-identity.ts): the players of the box score linked to the
// players the odds sources named on the game (docs/player-props.md, "Players across sources"), their
// lines written, a corrected line keeping what it was.

/** What storing a document's box scores did: lines written, and the odds sources' names left unlinked (stated, never guessed). */
export interface PlayerStatsOutcome {
  lines: number;
  corrected: number;
  unlinked: SkippedPart[];
}

const sameLine = (a: PlayerLine, b: PlayerLine) => a.didNotPlay === b.didNotPlay && PLAYER_STATISTICS.every((s) => a[s] === b[s]);

/**
 * Stores each box score of players `doc` carries, as of `seenAt`: a box score older than the stored
 * one is ignored. Each odds-source player quoted on the game and not linked yet is linked to the box
 * score's player it names (linkPlayerNames: the two teams' players only); a box-score player no
 * player is linked to is linked by its exact name, else created. A line whose statistics differ from
 * the stored final line keeps the stored one as `previous` (a stat correction).
 */
export async function storePlayerBoxscores(prisma: PrismaClient, doc: NormalizedDocument, seenAt: Date): Promise<PlayerStatsOutcome> {
  const outcome: PlayerStatsOutcome = { lines: 0, corrected: 0, unlinked: [] };
  for (const box of doc.playerBoxscores ?? []) {
    const game = doc.games.find((g) => g.id === box.gameId);
    if (!game) continue;
    const leagueId = game.leagueId;
    const stored = await readPlayerBoxscore(prisma, box.gameId);
    if (stored.box && stored.box.fetchedAt > seenAt) continue;
    const athleteIds = box.lines.map((l) => l.athleteId);
    const linked = await playersOfAthletes(prisma, leagueId, athleteIds);
    const byAthlete = new Map<string, LinkablePlayer[]>();
    for (const p of linked) byAthlete.set(p.espnId!, [...(byAthlete.get(p.espnId!) ?? []), p]);
    const teamOf = new Map(box.lines.map((l) => [l.athleteId, l.teamId]));
    const links = new Map<number, { espnId: string; teamId: number }>();
    const link = (p: LinkablePlayer, athleteId: string) => {
      links.set(p.id, { espnId: athleteId, teamId: teamOf.get(athleteId)! });
      const list = byAthlete.get(athleteId) ?? [];
      if (!list.some((q) => q.id === p.id)) byAthlete.set(athleteId, [...list, { ...p, espnId: athleteId }]);
    };
    // The odds sources' spellings of this game's players, linked to the two teams' box-score players.
    const quoted = (await playersQuotedOn(prisma, box.gameId)).filter((p) => !p.espnId || !teamOf.has(p.espnId));
    const open = quoted.filter((p) => !p.espnId);
    // Players linked in other games whose athlete is not on these lines (did not play, or left out).
    for (const p of quoted) {
      if (p.espnId) outcome.unlinked.push({ path: `game ${box.gameId}`, reason: `player ${JSON.stringify(p.name)} (player ${p.id}, ESPN athlete ${p.espnId}) not in the box score of game ${box.gameId}: did not play, or left out of it` });
    }
    const results = linkPlayerNames(open.map((p) => p.name), box.lines.map((l) => ({ id: l.athleteId, name: l.name })));
    results.forEach((r, i) => {
      if (r.playerId !== null) link(open[i]!, r.playerId);
      else {
        const why = r.reason === 'ambiguous' ? `ambiguous between ${r.candidates.join(' and ')}` : 'not in the box score (did not play, or a spelling no rule links)';
        outcome.unlinked.push({ path: `game ${box.gameId}`, reason: `player ${JSON.stringify(r.name)} (player ${open[i]!.id}) not linked in game ${box.gameId}: ${why}` });
      }
    });
    // Box-score players no player is linked to: an unlinked player of the exact name, else a new one.
    const missing = box.lines.filter((l) => !byAthlete.has(l.athleteId));
    if (missing.length) {
      const aliases = await findPlayerAliases(prisma, missing.map((l) => ({ leagueId, alias: normalizePlayerName(l.name) })));
      const byAlias = new Map(aliases.map((a) => [a.alias, Number(a.playerId)]));
      const holders = await prisma.player.findMany({ where: { id: { in: [...byAlias.values()] } }, select: { id: true, name: true, espnId: true, teamId: true } });
      const holder = new Map(holders.map((h) => [h.id, h]));
      for (const l of missing) {
        const id = byAlias.get(normalizePlayerName(l.name));
        const p = id === undefined ? undefined : holder.get(id);
        if (p && (!p.espnId || p.espnId === l.athleteId)) link(p, l.athleteId);
        else {
          const created = await createAthletePlayer(prisma, { leagueId, name: l.name, alias: normalizePlayerName(l.name), teamId: l.teamId, espnId: l.athleteId });
          byAthlete.set(l.athleteId, [{ id: created, name: l.name, espnId: l.athleteId, teamId: l.teamId }]);
        }
      }
    }
    // The box score's team is the player's current team.
    for (const l of box.lines) for (const p of byAthlete.get(l.athleteId) ?? []) if (p.teamId !== l.teamId || !links.has(p.id)) links.set(p.id, { espnId: l.athleteId, teamId: l.teamId });
    await linkPlayers(prisma, links);
    // ESPN's spelling finds the player next time (an alias another player holds is kept).
    await addPlayerAliases(prisma, box.lines.map((l) => ({ leagueId, alias: normalizePlayerName(l.name), playerId: shownPlayer(byAthlete.get(l.athleteId)!, l.name) })));

    const before = new Map(stored.lines.map((s) => [s.athleteId, s]));
    const writes: PlayerGameStatWrite[] = [];
    for (const l of box.lines) {
      const old = before.get(l.athleteId);
      const playerId = shownPlayer(byAthlete.get(l.athleteId)!, l.name);
      const oldLine = old ? lineOf(old) : null;
      const unchanged = old && oldLine && sameLine(oldLine, l.line) && old.starter === l.line.starter && old.playerId === playerId && old.teamId === l.teamId && old.name === l.name && JSON.stringify(old.stats) === JSON.stringify(statsPairs(l.stats));
      if (unchanged) continue;
      // A statistic of a final line changed: a correction (the grade of a prop on it may change).
      const corrected = !!(old && oldLine && stored.box?.final && !sameLine(oldLine, l.line));
      if (corrected) outcome.corrected++;
      writes.push({ gameId: box.gameId, athleteId: l.athleteId, playerId, teamId: l.teamId, name: l.name, line: l.line, stats: l.stats, previous: corrected ? oldLine : null, correctedAt: corrected ? seenAt : null });
    }
    // A final box score stays final: a later document that is not (a replay's stale capture) changes nothing of it.
    if (stored.box?.final && !box.final) continue;
    await writePlayerBoxscore(prisma, { gameId: box.gameId, source: box.source, eventId: box.eventId, final: box.final, columns: box.columns, fetchedAt: seenAt }, writes);
    outcome.lines += writes.length;
  }
  return outcome;
}

/** The player a line is shown as: the one of the box score's spelling, else the first linked. */
function shownPlayer(players: readonly LinkablePlayer[], name: string): number {
  const alias = normalizePlayerName(name);
  return (players.find((p) => normalizePlayerName(p.name) === alias) ?? players[0]!).id;
}
