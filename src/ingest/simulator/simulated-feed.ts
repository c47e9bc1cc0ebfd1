import { addDays, localDateOf } from '../../domain/local-day';
import type { SourceDocument } from '../sources';
import { createSimulator } from './index';

export interface SimulationOptions {
  seed: number;
  timeZone: string;
  /** Further days after today in the slate (default 2). */
  days?: number;
}

/**
 * The simulated feed as at `now`: today's slate (league local day) and the next days, one document
 * per league, named so that logs and rejections say they are simulated. While a game of yesterday's
 * slate is still being played (late tips run past local midnight), yesterday's slate comes first,
 * as a poller following that day to its end would fetch it: no game is left "in progress".
 */
export function simulatedDocuments(now: Date, options: SimulationOptions): SourceDocument[] {
  const today = localDateOf(now, options.timeZone);
  const simulator = createSimulator({ seed: options.seed, startDate: today, days: options.days ?? 2, timeZone: options.timeZone });
  const yesterday = createSimulator({ seed: options.seed, startDate: addDays(today, -1), days: 0, timeZone: options.timeZone });
  // Until every game is official (closed), so that the final score of the last one is seen too.
  const unfinished = yesterday.scheduleGames().some((g) => Date.parse(g.closed_at) > now.getTime());
  const bodies = [...(unfinished ? yesterday.documentsAt(now) : []), ...simulator.documentsAt(now)];
  return bodies.map((body, i) => ({
    name: `simulator(seed ${options.seed})@${now.toISOString()}#${i}`,
    fetchedAt: now,
    body,
  }));
}

/**
 * Instants to replay before `now` when a simulated store starts empty, so that opening lines, line
 * movement and history have something to show: every `stepMinutes` over the last `hours`.
 */
export function backfillInstants(now: Date, hours = 6, stepMinutes = 60): Date[] {
  const out: Date[] = [];
  for (let t = now.getTime() - hours * 3_600_000; t < now.getTime(); t += stepMinutes * 60_000) out.push(new Date(t));
  return out;
}
