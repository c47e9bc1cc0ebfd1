import { localDateOf } from '../domain/local-day';
import type { SourceDocument } from './sources';
import { createSimulator } from './simulator';

export interface SimulationOptions {
  seed: number;
  timeZone: string;
  /** Further days after today in the slate (default 2). */
  days?: number;
}

/**
 * The simulated feed as at `now`: today's slate (league local day) and the next days, one document
 * per league, named so that logs and rejections say they are simulated.
 */
export function simulatedDocuments(now: Date, options: SimulationOptions): SourceDocument[] {
  const simulator = createSimulator({
    seed: options.seed,
    startDate: localDateOf(now, options.timeZone),
    days: options.days ?? 2,
    timeZone: options.timeZone,
  });
  return simulator.documentsAt(now).map((body, i) => ({
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
