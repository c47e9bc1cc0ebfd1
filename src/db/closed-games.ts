import { closingCutoff, FINAL_STATUSES, medianLine, type ClosedGame } from '../domain';
import type { PrismaClient } from './client';
import { findClosingRows, findGameCaptureFacts } from './closing-repository';

// The sample of the key-number model's fit (docs/value-metrics.md, "Fitted standard deviations"):
// final games with their final score and their full-game closing lines, read from the stored
// boxscores and odds history with the same closing rule as GET /closing.

/** A final game of the sample, with its league's name upper-cased (NBA, WNBA) and its start time. */
export interface StoredClosedGame extends ClosedGame {
  gameId: number;
  startTime: Date;
}

/** Games per closing-line read: keeps each statement's parameter list short. */
const CHUNK = 500;

/**
 * Every real (not simulated) final game (finished or closed, with both scores) and the median of the real books' (not
 * aggregates') closing full-game lines: the home handicap and the total. A game the service never
 * captured before it went live has no closing line (null), as on GET /closing. Ordered by start time.
 */
export async function findClosedGames(prisma: PrismaClient): Promise<StoredClosedGame[]> {
  const games = await prisma.game.findMany({
    // Simulated games are the simulator's own model, not evidence about it.
    where: { simulated: false, status: { in: [...FINAL_STATUSES] }, boxscore: { homeScore: { not: null }, awayScore: { not: null } } },
    include: { boxscore: true, league: true },
    orderBy: [{ startTime: 'asc' }, { id: 'asc' }],
  });
  const aggregates = new Set((await prisma.sportsbook.findMany({ where: { isAggregate: true }, select: { id: true } })).map((b) => b.id));
  const out: StoredClosedGame[] = [];
  for (let i = 0; i < games.length; i += CHUNK) {
    const chunk = games.slice(i, i + CHUNK);
    const facts = await findGameCaptureFacts(prisma, chunk.map((g) => g.id));
    const cutoffs = new Map(facts.map((f) => [f.gameId, closingCutoff(f.startTime, f.firstLiveAt).at]));
    const rows = await findClosingRows(prisma, cutoffs, { marketTypes: ['spread', 'total'], periods: ['full_game'], sides: ['home', 'over'] });
    const points = new Map<string, number[]>();
    for (const r of rows) {
      if (!r.close || r.close.point === null || aggregates.has(r.bookId)) continue;
      const key = `${r.gameId}|${r.marketType}`;
      points.set(key, [...(points.get(key) ?? []), r.close.point]);
    }
    const close = (gameId: number, market: string) => {
      const p = points.get(`${gameId}|${market}`);
      return p?.length ? medianLine(p) : null;
    };
    for (const g of chunk) {
      out.push({
        gameId: g.id,
        startTime: g.startTime,
        league: g.league.name.toUpperCase(),
        homeScore: g.boxscore!.homeScore!,
        awayScore: g.boxscore!.awayScore!,
        closingSpread: close(g.id, 'spread'),
        closingTotal: close(g.id, 'total'),
      });
    }
  }
  return out;
}
