import { SingleBar } from 'cli-progress';
import { Option, type Command } from 'commander';
import { FEED_FORMAT_NAMES, feedFormatNamed } from '../ingest/feeds';
import { ingestDocuments, type IngestSummary } from '../ingest/ingest';
import { tellSkippedOnce } from '../ingest/skipped';
import { DamagedFileError, listFeedFiles, readSources } from '../ingest/sources';
import { createRedisBus, type EventBus } from '../events/bus';
import { storeDeltas } from '../services/change-deltas';
import { withDatabase } from './database';

/** What a run stopped by a damaged file left stored. */
function committed(summary: IngestSummary | undefined): string {
  const stored = (summary?.documents ?? 0) - (summary?.rejected ?? 0);
  const rejected = summary?.rejected ? ` (${summary.rejected} more rejected)` : '';
  return stored > 0 ? `${stored} documents before it were ingested${rejected}` : `nothing was ingested${rejected}`;
}

export function registerIngestCommand(program: Command): void {
  program
    .command('ingest')
    .argument('<path>', 'a feed document (.json), a recorded series (.jsonl, .jsonl.gz), a folder of them, or - for standard input')
    .description('normalise upstream feed documents and store them; each document is one transaction')
    .option('--quiet', 'print only the summary line')
    .addOption(new Option('--format <name>', "read every document as this feed format instead of recognising each line's").choices(FEED_FORMAT_NAMES))
    .action(async (target: string, options: { quiet?: boolean; format?: string }) => {
      const format = options.format === undefined ? undefined : feedFormatNamed(options.format);
      await withDatabase('odds ingest', async (db, config) => {
        // With REDIS_URL, API processes on the same database push what this command writes (each
        // document's changes are published after its commit); without it there is no one to tell.
        const bus: EventBus | undefined = config.redisUrl
          ? await createRedisBus(config.redisUrl, (error) => process.stderr.write(`redis bus error: ${error.message}\n`))
          : undefined;
        const files = target === '-' ? 1 : listFeedFiles(target).length;
        // A bar only where someone watches: on a terminal, never in pipes or CI logs.
        const bar = process.stderr.isTTY && !options.quiet
          ? new SingleBar({ format: 'ingest [{bar}] {value}/{total} files | {documents} documents | {rejected} rejected', stream: process.stderr })
          : undefined;
        // The bar's counters, kept here: a bar restarted after a rejection line starts from them
        // (started with no payload it printed its placeholders, "{documents}").
        const counts = { documents: 0, rejected: 0 };
        bar?.start(files, 0, counts);
        const seenFiles = new Set<string>();
        let filesDone = 0;
        let sofar: IngestSummary | undefined;
        const summary = await ingestDocuments(readSources(target), {
          db,
          bus,
          format,
          grouped: true,
          // Each change's delta decided once, before API processes hear of it (src/services/change-deltas.ts).
          // Without a bus no process hears of it now: the first that reads the entry decides it (the
          // same rule), and a backfill does not pay a read per capture that nobody may ever ask for.
          afterCommit: bus ? (version) => storeDeltas(db.prisma, [version]) : undefined,
          onRejected: (_name, message) => {
            bar?.stop();
            process.stderr.write(`rejected ${message}\n`);
            // this document counts already (onDocument follows with the same figures)
            counts.documents++;
            counts.rejected++;
            bar?.start(files, filesDone, counts);
          },
          onSkipped: tellSkippedOnce((document, { path, reason }) => {
            bar?.stop();
            process.stderr.write(`skipped ${document} ${path}: ${reason}\n`);
            bar?.start(files, filesDone, counts);
          }),
          onDocument: (s, name) => {
            sofar = s;
            // Series lines are named file:line; a new file name means the previous file is done.
            seenFiles.add(name.replace(/:\d+$/, ''));
            filesDone = seenFiles.size - 1;
            Object.assign(counts, { documents: s.documents, rejected: s.rejected });
            bar?.update(filesDone, counts);
          },
        })
          .catch((error: unknown) => {
            bar?.stop();
            // Each document is its own transaction: those before the damage are stored and stay.
            if (error instanceof DamagedFileError) throw new Error(`${error.message}; ${committed(sofar)}`);
            throw error;
          })
          .finally(() => bus?.close());
        bar?.update(files, { documents: summary.documents, rejected: summary.rejected });
        bar?.stop();
        process.stdout.write(
          `ingested ${summary.documents} documents: ${summary.games} games, ${summary.quotesChanged} quotes changed, ${summary.historyRows} history rows, ${summary.rejected} rejected\n`,
        );
        if (summary.rejected) process.exitCode = 1;
      });
    });
}
