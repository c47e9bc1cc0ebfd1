import type { PrismaClient } from '../../db/client';
import { gameMetaById, identityCandidates, type StoredGameIdentity } from '../../db/ingest-repository';
import type { GameIdentity, GameRow, NormalizedDocument } from '../feed-rows';
import { linkKey, rememberLinks, sourceIdsOf, type State } from './feed-state';

/**
 * One game across sources, whatever the order they are read in. A game of a document is, in this order:
 * the game that already names its upstream id in `meta.source_ids` (remembered in memory once seen);
 * else the stored game of the same league, the same home team and the same away team (never the two
 * swapped) whose start time is within MATCH_WINDOW_MS of its own, the closest one, preferring a game
 * that is not cancelled or postponed, simulated only with simulated (the simulator's props attach to its own games), and none that another id of the same
 * source has claimed; else a game of its own under the id the source derives (Action Network: its
 * own id; The Odds API: from its string id, the next free id should that one be taken). A game's
 * id never changes once given (clients may hold it): a matched game keeps the id of the source that
 * created it, and only `meta.source_ids` grows. docs/sources.md.
 */

/**
 * Sources disagree on start times by minutes (Action Network 23:00, The Odds API 23:10) and Action
 * Network writes unscheduled "if necessary" games at 17:00 of their day; the same two teams never
 * meet twice, at the same home, within 12 hours.
 */
export const MATCH_WINDOW_MS = 12 * 3_600_000;

const UNPLAYED = new Set(['cancelled', 'postponed']);

/** A stored game compared with a source's games (db/ingest-repository.ts reads them). */
type Candidate = StoredGameIdentity;

/**
 * Renumbers the rows of `doc` from the ids its source derived to the games they are (see above), and
 * records the links in memory, so that a capture of known games costs no query, and one of new games
 * one. The rows of a game matched to another source's game are written by the diff as that game's.
 * Returns the ids of the games this read found not stored (new games, which loadGames need not read).
 */
export async function resolveIdentities(prisma: PrismaClient, state: State, doc: NormalizedDocument): Promise<Set<number>> {
  const absent = new Set<number>();
  const identities = doc.identities;
  if (!identities?.length) return absent;
  const source = doc.source;
  const resolved = new Map<GameIdentity, number>();
  let open = identities.filter((i) => {
    const id = state.links.get(linkKey(source, i.sourceId));
    if (id !== undefined) resolved.set(i, id);
    return id === undefined;
  });
  if (open.length) {
    const stored = await identityCandidates(prisma, source, open, MATCH_WINDOW_MS);
    // The derived ids were read with them: one of them not among the stored games is free.
    const read = new Set(open.map((i) => i.gameId));
    // Linked before by a process that did not keep it in memory (or before this process forgot it).
    const bySid = new Map<string, number>();
    for (const g of stored) {
      const sid = sourceIdsOf(g)[source];
      if (sid !== undefined) bySid.set(String(sid), g.id);
    }
    open = open.filter((i) => {
      const id = bySid.get(i.sourceId);
      if (id !== undefined) resolved.set(i, id);
      return id === undefined;
    });
    const byId = new Map<number, Candidate>(stored.map((g) => [g.id, g]));
    if (open.length) {
      // Games of captures not committed yet are in memory only; memory is newer than the database.
      for (const [id, game] of state.games) byId.set(id, game.row as GameRow);
      const candidates = [...byId.values()];
      const claimed = new Set(resolved.values());
      for (const identity of open) {
        const match = closest(identity, candidates, source, claimed);
        if (match) {
          resolved.set(identity, match.id);
          claimed.add(match.id);
        }
      }
      open = open.filter((i) => !resolved.has(i));
    }
    // A game of its own: the derived id, unless a game of another upstream id of this source holds it.
    for (const identity of open) {
      let id = identity.gameId;
      for (;;) {
        const held = state.games.get(id)?.row ?? byId.get(id) ?? (read.has(id) ? null : await gameMetaById(prisma, id));
        if (!held) absent.add(id);
        const sid = held ? sourceIdsOf(held)[source] : undefined;
        if (sid === undefined || String(sid) === identity.sourceId) break;
        id++;
      }
      resolved.set(identity, id);
    }
    for (const g of stored) rememberLinks(state, g);
  }
  const renumber = new Map<number, number>();
  for (const [identity, id] of resolved) {
    state.links.set(linkKey(source, identity.sourceId), id);
    if (id !== identity.gameId) renumber.set(identity.gameId, id);
  }
  if (!renumber.size) return absent;
  const to = (id: number) => renumber.get(id) ?? id;
  for (const g of doc.games) g.id = to(g.id);
  for (const b of doc.boxscores) b.gameId = to(b.gameId);
  for (const q of doc.quotes) q.gameId = to(q.gameId);
  for (const p of doc.publicBetting) p.gameId = to(p.gameId);
  for (const box of doc.playerBoxscores ?? []) {
    box.gameId = to(box.gameId);
    for (const line of box.lines) line.gameId = box.gameId;
  }
  return absent;
}

function closest(identity: GameIdentity, candidates: readonly Candidate[], source: string, claimed: ReadonlySet<number>): Candidate | undefined {
  let best: Candidate | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    if (c.leagueId !== identity.leagueId || c.homeTeamId !== identity.homeTeamId || c.awayTeamId !== identity.awayTeamId) continue;
    // A simulated game is not any source's real game, nor a real game the simulator's.
    if (c.simulated !== identity.simulated) continue;
    const distance = Math.abs(c.startTime.getTime() - identity.startTime.getTime());
    if (distance > MATCH_WINDOW_MS || claimed.has(c.id)) continue;
    const other = sourceIdsOf(c)[source];
    if (other !== undefined && String(other) !== identity.sourceId) continue;
    const score = distance + (UNPLAYED.has(c.status) ? MATCH_WINDOW_MS : 0);
    if (score < bestScore) [best, bestScore] = [c, score];
  }
  return best;
}
