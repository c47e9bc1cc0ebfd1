import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { ingestDocuments } from '../ingest/ingest';
import { simulatedDocuments } from '../ingest/simulator/simulated-feed';
import { loadConfig } from '../config';
import { withDatabase } from './database';
import { integer, isoDate } from './options';

export function registerSimulateCommand(program: Command): void {
  program
    .command('simulate')
    .description('generate simulated feed documents (demo data: today and the next days, NBA and WNBA as the season allows)')
    .option('--seed <n>', 'seed: the same seed gives the same data (default SIMULATOR_SEED)', integer)
    .option('--days <n>', 'further days after today in the slate', integer, 2)
    .option('--at <time>', 'the instant to simulate (default now)', isoDate)
    .option('--every <minutes>', 'with --until: one snapshot every this many minutes', integer, 30)
    .option('--until <time>', 'replay from --at to this instant', isoDate)
    .option('--stdout', 'print the documents as a recorded series (JSON lines) instead of storing them')
    .option('--quiet', 'print only the summary line (no progress bar)')
    .action(async (options: { seed?: number; days: number; at?: Date; every: number; until?: Date; stdout?: boolean; quiet?: boolean }) => {
      const config = loadConfig();
      const seed = options.seed ?? config.simulatorSeed;
      const from = options.at ?? new Date();
      const until = options.until ?? from;
      if (until < from) throw new Error('--until must not be before --at');
      const instants: Date[] = [];
      for (let t = from.getTime(); t <= until.getTime(); t += Math.max(1, options.every) * 60_000) instants.push(new Date(t));
      const documents = instants.flatMap((at) => simulatedDocuments(at, { seed, timeZone: config.leagueTimeZone, days: options.days }));
      if (options.stdout) {
        for (const doc of documents) {
          process.stdout.write(`${JSON.stringify({ fetched_at: doc.fetchedAt?.toISOString(), source: 'simulator', body: doc.body })}\n`);
        }
        return;
      }
      await withDatabase('odds simulate', async (db) => {
        // A replay (--until) stores one document per league and snapshot: a bar shows how far it is,
        // only where someone watches (a terminal, never pipes or CI logs).
        const bar = process.stderr.isTTY && !options.quiet
          ? new SingleBar({ format: 'simulate [{bar}] {value}/{total} documents | {games} games | at {at}', stream: process.stderr })
          : undefined;
        const payload = { games: 0, at: documents[0]?.fetchedAt?.toISOString() ?? '' };
        bar?.start(documents.length, 0, payload);
        let done = 0;
        const summary = await ingestDocuments(documents, {
          db,
          // Generated ahead, as a recorded series is read: written in groups, as `odds ingest` writes one.
          grouped: true,
          onDocument: (s) => {
            Object.assign(payload, { games: s.games, at: documents[done]?.fetchedAt?.toISOString() ?? payload.at });
            done++;
            bar?.update(done, payload);
          },
        }).finally(() => bar?.stop());
        process.stdout.write(
          `simulated (seed ${seed}) ${summary.documents} documents: ${summary.games} games, ${summary.quotesChanged} quotes changed, ${summary.historyRows} history rows\n`,
        );
      });
    });
}
