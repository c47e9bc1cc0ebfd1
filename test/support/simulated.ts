import { createSimulator } from '../../src/ingest/simulator';

/** The simulator's scoreboard documents of an evening (seed 42, 2026-11-22, every 45 minutes from 17:00 UTC). */
export function simulatedEvening(): any[] {
  const sim = createSimulator({ seed: 42, startDate: '2026-11-22', days: 0 });
  const bodies: any[] = [];
  for (let m = 0; m <= 12 * 60; m += 45) bodies.push(...sim.documentsAt(new Date(Date.parse('2026-11-22T17:00:00Z') + m * 60_000)));
  return bodies;
}
