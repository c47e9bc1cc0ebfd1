import type { PrismaClient } from './client';
import type { GameIdentity, GameRow, NormalizedDocument } from './feed-rows';
import { linkKey, rememberLinks, sourceIdsOf, type State } from './feed-state';

/**
 * One game across sources. A game of a source with string ids (The Odds API) is the stored game
 * that already names its id in `meta.source_ids`; else the stored game of the same league, the same
 * home team and the same away team (never the two swapped) whose start time is within
 * MATCH_WINDOW_MS of its own, the closest one, preferring a game that is not cancelled or postponed
 * and that no other id of that source has claimed; else a game of its own under the id the source
 * derives from its string id (the next free id should that one be taken). docs/sources.md.
 */

/**
 * Sources disagree on start times by minutes (Action Network 23:00, The Odds API 23:10) and Action
 * Network writes unscheduled "if necessary" games at 17:00 of their day; the same two teams never
 * meet twice, at the same home, within 12 hours.
 */
export const MATCH_WINDOW_MS = 12 * 3_600_000;

const UNPLAYED = new Set(['cancelled', 'postponed']);

interface Candidate {
  id: number;
  leagueId: number;
  homeTeamId: number;
  awayTeamId: number;
  startTime: Date;
  status: string;
  meta: unknown;
}

/**
 * Renumbers the rows of `doc` from the ids its source derived to the games they are (see above), and
 * records the links in memory. The rows of a game matched to another source's game are written by
 * the diff as that game's (only `meta.source_ids` grows).
 */
export async function resolveIdentities(prisma: PrismaClient, state: State, doc: NormalizedDocument): Promise<void> {
  const identities = doc.identities;
  if (!identities?.length) return;
  const source = doc.source;
  const resolved = new Map<GameIdentity, number>();
  let open = identities.filter((i) => {
    const id = state.links.get(linkKey(source, i.sourceId));
    if (id !== undefined) resolved.set(i, id);
    return id === undefined;
  });
  if (open.length) {
    // Linked before by a process that did not keep it in memory.
    const linked = await prisma.$queryRawUnsafe<Array<{ id: number; sid: string }>>(
      `SELECT "id", "meta"->'source_ids'->>$1 AS sid FROM "Game" WHERE "meta"->'source_ids'->>$1 = ANY($2::text[])`,
      source,
      open.map((i) => i.sourceId),
    );
    const bySid = new Map(linked.map((r) => [r.sid, Number(r.id)]));
    open = open.filter((i) => {
      const id = bySid.get(i.sourceId);
      if (id !== undefined) resolved.set(i, id);
      return id === undefined;
    });
  }
  if (open.length) {
    const candidates = await candidatesOf(prisma, state, open);
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
  if (open.length) {
    // A game of its own: the derived id, unless a game of another upstream id holds it.
    for (const identity of open) {
      let id = identity.gameId;
      for (;;) {
        const held = state.games.get(id)?.row ?? (await prisma.game.findUnique({ where: { id }, select: { id: true, meta: true } }));
        if (!held || sourceIdsOf(held)[source] === identity.sourceId) break;
        id++;
      }
      resolved.set(identity, id);
    }
  }
  const renumber = new Map<number, number>();
  for (const [identity, id] of resolved) {
    state.links.set(linkKey(source, identity.sourceId), id);
    if (id !== identity.gameId) renumber.set(identity.gameId, id);
  }
  if (!renumber.size) return;
  const to = (id: number) => renumber.get(id) ?? id;
  for (const g of doc.games) g.id = to(g.id);
  for (const b of doc.boxscores) b.gameId = to(b.gameId);
  for (const q of doc.quotes) q.gameId = to(q.gameId);
  for (const p of doc.publicBetting) p.gameId = to(p.gameId);
}

/** Stored and in-memory games that could be the open identities' (same league and teams, within the window). */
async function candidatesOf(prisma: PrismaClient, state: State, open: readonly GameIdentity[]): Promise<Candidate[]> {
  const stored = await prisma.game.findMany({
    where: {
      OR: open.map((i) => ({
        leagueId: i.leagueId,
        homeTeamId: i.homeTeamId,
        awayTeamId: i.awayTeamId,
        startTime: { gte: new Date(i.startTime.getTime() - MATCH_WINDOW_MS), lte: new Date(i.startTime.getTime() + MATCH_WINDOW_MS) },
      })),
    },
    select: { id: true, leagueId: true, homeTeamId: true, awayTeamId: true, startTime: true, status: true, meta: true },
  });
  const byId = new Map<number, Candidate>(stored.map((g) => [g.id, g]));
  // Games of captures not committed yet are in memory only; memory is newer than the database.
  for (const [id, game] of state.games) byId.set(id, game.row as GameRow);
  for (const g of stored) rememberLinks(state, g);
  return [...byId.values()];
}

function closest(identity: GameIdentity, candidates: readonly Candidate[], source: string, claimed: ReadonlySet<number>): Candidate | undefined {
  let best: Candidate | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    if (c.leagueId !== identity.leagueId || c.homeTeamId !== identity.homeTeamId || c.awayTeamId !== identity.awayTeamId) continue;
    const distance = Math.abs(c.startTime.getTime() - identity.startTime.getTime());
    if (distance > MATCH_WINDOW_MS || claimed.has(c.id)) continue;
    const other = sourceIdsOf(c)[source];
    if (other !== undefined && other !== identity.sourceId) continue;
    const score = distance + (UNPLAYED.has(c.status) ? MATCH_WINDOW_MS : 0);
    if (score < bestScore) [best, bestScore] = [c, score];
  }
  return best;
}
