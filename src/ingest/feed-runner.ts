import type { Config } from '../config';
import type { Database } from '../db/client';
import { waitForIngestLeadership, type IngestLeadership } from '../db/ingest-leader';
import type { EventBus } from '../events/bus';
import type { Logger } from '../logger';
import { FEED_FORMATS, pollsAnySource, type FeedQuota } from './feeds';
import { ingestDocuments } from './ingest';
import { tellSkippedOnce } from './skipped';
import { backfillInstants, demoClockShift, simulatedDocuments } from './simulator/simulated-feed';
import type { SourceDocument } from './sources';

export interface FeedRunner {
  /** Stops fetching; resolves after the ingest transaction in progress has committed. */
  stop(): Promise<void>;
}

type FeedDeps = {
  config: Config;
  db: Database;
  bus: EventBus;
  logger: Logger;
  simulate: boolean;
  /** The simulated feed's wall clock (default: the real one). */
  now?: () => Date;
  /**
   * Work that belongs to the ingesting process only (the webhook sender, src/webhooks): started when
   * this process starts ingesting, stopped after its feed.
   */
  whileIngesting?: () => FeedRunner;
  /** Decides the delta of each committed change before it is announced (IngestOptions.afterCommit). */
  afterCommit?: (version: number) => Promise<void>;
  /** The polled sources' quotas by format name (feedQuotas: served by /readyz and /metrics); a poller makes its own when absent. */
  feedQuotas?: ReadonlyMap<string, FeedQuota>;
};

/** `runner` with the ingesting process's companion work started beside it and stopped after it. */
function withCompanion(runner: FeedRunner, start: (() => FeedRunner) | undefined): FeedRunner {
  const companion = start?.();
  return {
    async stop() {
      await runner.stop();
      await companion?.stop();
    },
  };
}

/**
 * What feeds a serving process: the simulator (`--simulate`), or the pollers of the feed formats whose
 * settings are given (FEED_URL, The Odds API with ODDS_API_KEY; all at once when several are), or nothing. On a shared PostgreSQL database only one process ingests: the others serve and wait to
 * take over (src/db/ingest-leader.ts). Ingests run one at a time. A leader whose lock's connection is
 * cut (a database restart) stops its feeds and waits for the lock again, like any other process: it
 * takes it back at once unless another process took it first, and never ingests beside it.
 */
export function startFeeds(deps: FeedDeps): FeedRunner {
  const { config, logger } = deps;
  const ingesting = deps.simulate || pollsAnySource(config);
  const databaseUrl = config.databaseUrl;
  if (!databaseUrl || !ingesting) return withCompanion(startSources(deps), ingesting ? deps.whileIngesting : undefined);
  const log = logger.child({ component: 'ingest' });
  let leadership: IngestLeadership | undefined;
  let sources: FeedRunner | undefined;
  let stopping = false;
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const leading = (async () => {
    while (!stopping) {
      leadership = waitForIngestLeadership(databaseUrl, 15_000, () => log.info('another process ingests into this database: serving only, ready to take over'));
      try {
        await leadership.acquired;
      } catch {
        return; // stopped while waiting
      }
      if (stopping) return;
      log.info('this process ingests');
      sources = withCompanion(startSources(deps), deps.whileIngesting);
      await Promise.race([leadership.lost, stopped]);
      if (stopping) return;
      log.warn('the ingest lock\'s database connection closed: feeds stopped until this process holds the lock again');
      await sources.stop();
      sources = undefined;
    }
  })();
  return {
    async stop() {
      stopping = true;
      stop();
      await leadership?.release();
      await leading;
      await sources?.stop();
    },
  };
}

function startSources(deps: FeedDeps): FeedRunner {
  const { config, db, bus, logger } = deps;
  const log = logger.child({ component: 'ingest' });
  let queue: Promise<unknown> = Promise.resolve();
  const onSkipped = tellSkippedOnce((document, { path, reason }) => log.warn({ document, path, reason }, 'part of a document skipped'));

  /** `backfill`: history written at start, before anyone listens; see the simulator's start below. */
  const ingest = (documents: SourceDocument[], source: string, backfill = false) => {
    const run = queue.then(async () => {
      const started = Date.now();
      const summary = await ingestDocuments(documents, {
        db,
        bus,
        afterCommit: backfill ? undefined : deps.afterCommit,
        onRejected: (name, message) => log.warn({ document: name, reason: message }, 'document rejected'),
        onSkipped,
      });
      log.info({ source, ...summary, ms: Date.now() - started }, 'ingest run');
    });
    queue = run.catch(() => {});
    return run;
  };

  if (deps.simulate) {
    const now = deps.now ?? (() => new Date());
    const clock = { seed: config.simulatorSeed, timeZone: config.leagueTimeZone };
    // The demo clock starts the slate mid-game at any hour (docs/simulator.md); real plays it at its real hours.
    const options = { ...clock, shiftMs: config.simulatorClock === 'demo' ? demoClockShift(now(), clock) : 0, props: true };
    log.info(
      { seed: options.seed, intervalMs: config.simulatorIntervalMs, clock: config.simulatorClock, shiftMinutes: Math.round(options.shiftMs / 60_000), simulated: true },
      'simulated feed: demo data, not real odds',
    );
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const tick = async () => {
      try {
        await ingest(simulatedDocuments(now(), options), 'simulator');
      } catch (error) {
        log.error({ err: error }, 'simulated ingest failed');
      }
      if (!stopped) timer = setTimeout(() => void tick(), config.simulatorIntervalMs);
    };
    const start = async () => {
      // An empty store first gets the last hours replayed, so openers and movement exist at once.
      // Their deltas are left to the first reader that needs one (a replay: src/services/change-deltas.ts
      // decides it then, the same way, first writer wins): deciding each here, on the embedded store's one
      // connection, made the backfill, which a shutdown waits for, several seconds longer.
      if ((await db.prisma.game.count({ where: { simulated: true } })) === 0) {
        const docs = backfillInstants(now()).flatMap((at) => simulatedDocuments(at, options));
        await ingest(docs, 'simulator backfill', true);
      }
      await tick();
    };
    const started = start().catch((error) => log.error({ err: error }, 'simulator failed to start'));
    return {
      async stop() {
        stopped = true;
        if (timer) clearTimeout(timer);
        await started;
        await queue;
      },
    };
  }

  const pollers: Array<{ stop(): Promise<void> }> = [];
  for (const format of FEED_FORMATS) {
    const poller = format.poller;
    if (!poller?.enabled(config)) continue;
    pollers.push(poller.start({
      config,
      logger: log,
      quota: deps.feedQuotas?.get(format.name),
      ingest: async (document) => {
        await ingest([document], poller.label);
      },
    }));
  }
  return {
    async stop() {
      await Promise.all(pollers.map((p) => p.stop()));
      await queue;
    },
  };
}
