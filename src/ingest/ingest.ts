import type { Database } from '../db/client';
import type { NormalizedDocument, SkippedPart } from './feed-rows';
import { CAPTURES_PER_STATEMENT, startDocument, type StartedCapture } from './store/feed-store';
import type { EventBus } from '../events/bus';
import { FeedDocumentError, formatOf, type FeedFormat } from './feeds';
import type { SourceDocument } from './sources';
import { storePlayerBoxscores } from './store/player-stats';

export interface IngestSummary {
  documents: number;
  games: number;
  quotesChanged: number;
  historyRows: number;
  rejected: number;
}

export interface IngestOptions {
  db: Database;
  bus?: EventBus | undefined;
  /** Time stamped on bare documents (default: now, per document). */
  now?: () => Date;
  onRejected?: (name: string, message: string) => void;
  /** A document's parts its format left out (NormalizedDocument.skipped); the rest of it is ingested. */
  onSkipped?: (name: string, skipped: readonly SkippedPart[]) => void;
  onDocument?: (summary: IngestSummary, name: string) => void;
  /** Read every document as this format instead of recognising each one's (`odds ingest --format`). */
  format?: FeedFormat | undefined;
  /**
   * The documents are a recorded series, read as fast as they are written (`odds ingest`): consecutive
   * captures are written in groups, up to CAPTURES_PER_STATEMENT in one transaction, instead of one
   * each (a poller's documents, which come one at a time, are written as they come).
   */
  grouped?: boolean;
  /**
   * Runs after a capture that changed something has committed, before the bus hears of it, with its
   * version: the caller decides and stores the version's delta there (src/services/change-deltas.ts
   * `storeDeltas`; ingest may not import services), so that every process serves the one stored.
   * A failure does not undo the commit: the first process that needs the delta decides it then.
   */
  afterCommit?: ((version: number) => Promise<void>) | undefined;
}

/** A document read and normalised ahead, or the reason it was rejected. */
type Prepared = { source: SourceDocument; seenAt: Date; doc: NormalizedDocument } | { source: SourceDocument; rejected: FeedDocumentError };

/**
 * How many captures may be compared with memory and queued behind the one whose statement runs.
 * With one, the next statement was ready only after the previous capture's publication and signals
 * (main-thread work) were done, so the database waited for them; with several queued, statements go
 * out back to back while that work runs beside them. Measured on the 128 captures of 2026-01-24
 * (whole `odds ingest`, median of 5): 1, 3, 8, 16, 32 queued took 1452, 1458, 1352, 1364, 1429 ms.
 * Memory holds the queued documents (normalised, ~150 kB each). Written in groups, two groups: one
 * whose statement runs while the next is compared with memory.
 */
const QUEUED_CAPTURES = 8;

/** How long the next document of a stream may take before the captures read so far are finished (written and announced). */
const PAUSE_MS = 50;

/**
 * Ingests a stream of documents in order: each one normalised, then written in its own transaction
 * (with `grouped`, together with the captures next to it); a rejected document writes nothing and the
 * stream goes on. After each commit, what changed is published on the bus. While a statement runs on
 * the database, the next documents are read, normalised and compared with memory (CPU work that needs
 * nothing from the database), up to `queued` of them, so each statement goes out as soon as the one
 * before commits; statements stay one at a time, in order, and captures are counted and published in order.
 */
export async function ingestDocuments(documents: AsyncIterable<SourceDocument> | Iterable<SourceDocument>, options: IngestOptions): Promise<IngestSummary> {
  const summary: IngestSummary = { documents: 0, games: 0, quotesChanged: 0, historyRows: 0, rejected: 0 };
  const queued = options.grouped ? 2 * CAPTURES_PER_STATEMENT : QUEUED_CAPTURES;
  const games = new Set<number>();
  const now = options.now ?? (() => new Date());
  const iterator = Symbol.asyncIterator in documents ? documents[Symbol.asyncIterator]() : toAsync(documents[Symbol.iterator]());
  const prepare = async (): Promise<Prepared | null> => {
    const next = await iterator.next();
    if (next.done) return null;
    const source = next.value;
    await yieldToIo();
    try {
      if (source.error) throw new FeedDocumentError(source.name, '', source.error);
      const seenAt = source.fetchedAt ?? now();
      return { source, seenAt, doc: formatOf(source, options.format).normalize(source, seenAt) };
    } catch (error) {
      if (!(error instanceof FeedDocumentError)) throw error;
      return { source, rejected: error };
    }
  };
  /** The next document, read while the loop waits for earlier captures: its failure is handled when it is taken. */
  const readAhead = (): Promise<Prepared | null> => {
    const next = prepare();
    next.catch(() => {});
    return next;
  };
  /**
   * Documents in stream order whose statements are held, queued or running (`started`), and rejected ones
   * behind them: each is counted (and, committed, published) once those before it are.
   */
  const pending: Array<{ name: string; seenAt: Date; doc: NormalizedDocument; started: StartedCapture } | { name: string; rejected: FeedDocumentError }> = [];
  const finishOldest = async (): Promise<void> => {
    const item = pending.shift();
    if (!item) return;
    if ('rejected' in item) {
      summary.documents++;
      summary.rejected++;
      options.onRejected?.(item.name, item.rejected.message);
      summary.games = games.size;
      options.onDocument?.(summary, item.name);
      return;
    }
    const { name, seenAt, doc, started } = item;
    started.send();
    const changes = await started.done;
    // A box score's players, once its game is the stored one (docs/player-props.md, "Player statistics").
    if (doc.playerBoxscores?.length) {
      const stats = await storePlayerBoxscores(options.db.prisma, doc, seenAt);
      if (stats.unlinked.length) options.onSkipped?.(name, stats.unlinked);
      for (const box of doc.playerBoxscores) if (stats.lines && !changes.games.includes(box.gameId)) changes.games.push(box.gameId);
    }
    summary.documents++;
    // Read once committed: the store renumbers the games of string-id sources to the games they are.
    for (const game of doc.games) games.add(game.id);
    summary.quotesChanged += changes.quotesChanged;
    summary.historyRows += changes.historyRows;
    announce(changes, seenAt);
    summary.games = games.size;
    options.onDocument?.(summary, name);
  };
  /**
   * Announcements, one capture after another in commit order, beside the loop rather than in its
   * way: the delta decided (afterCommit: reads of the committed rows), then the bus told. Awaited
   * by finishAll, so a run (or a pause of the stream) ends with everything announced. Measured with
   * bench/ingest.js: awaited in the loop, the reads held the next statements back.
   */
  let announced: Promise<void> = Promise.resolve();
  let announceFailure: { error: unknown } | null = null;
  const announce = (changes: Awaited<StartedCapture['done']>, seenAt: Date) => {
    const { bus, afterCommit } = options;
    const changed = changes.games.length > 0 || changes.markets.length > 0;
    if (!changed || (!bus && !afterCommit)) return;
    announced = announced
      .then(async () => {
        // A failed decision does not undo the commit: the first process that needs the delta decides it.
        if (afterCommit) await afterCommit(changes.version).catch(() => {});
        if (!bus) return;
        await bus.publish('odds', { at: seenAt.toISOString(), games: changes.games, markets: changes.markets, version: changes.version, quotes: changes.quotesChanged });
        // The line-movement signals the capture stored with its prices (docs/signals.md), announced after
        // them to every API process (push channels) and to the webhook sender.
        if (changes.signals.length) await bus.publish('signals', { at: seenAt.toISOString(), signals: changes.signals });
      })
      .catch((error: unknown) => void (announceFailure ??= { error }));
  };
  const finishAll = async (): Promise<void> => {
    while (pending.length) await finishOldest();
    await announced;
    if (announceFailure) throw announceFailure.error;
  };
  let ahead = readAhead();
  try {
    for (;;) {
      // A stream that pauses (a pipe fed as captures come) has what it sent written (held captures
      // too), counted and announced, not kept until more arrives.
      if (pending.length && !(await settlesWithin(ahead, PAUSE_MS))) await finishAll();
      // A file damaged further on stops the run after what was read before it is committed.
      const item = await ahead.catch(async (error: unknown) => {
        await finishAll();
        throw error;
      });
      if (!item) break;
      if ('rejected' in item) {
        ahead = readAhead();
        pending.push({ name: item.source.name, rejected: item.rejected });
      } else {
        const { source, seenAt, doc } = item;
        if (doc.skipped?.length) options.onSkipped?.(source.name, doc.skipped);
        const started = await startDocument(options.db.prisma, doc, seenAt, { hold: options.grouped ?? false });
        ahead = readAhead();
        pending.push({ name: source.name, seenAt, doc, started });
      }
      await yieldToIo();
      // In stream order: a rejected document at the front is counted at once; the oldest capture is
      // waited for once more than `queued` are pending.
      while (pending.length && ('rejected' in pending[0]! || pending.filter((p) => 'started' in p).length > queued)) await finishOldest();
    }
    await finishAll();
  } catch (error) {
    // Captures still queued or running are let finish (and, committed, published) before the run
    // stops; those behind a failed one fail with it, and are settled too before the run ends, so
    // that the next run starts afresh (feed-store.ts, startDocument).
    await finishAll().catch(() => {});
    await Promise.allSettled(pending.map((item) => ('started' in item ? (item.started.send(), item.started.done) : undefined)));
    await iterator.return?.();
    throw error;
  }
  return summary;
}

/** Whether `promise` settles (either way) within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return await Promise.race([promise.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Lets the event loop read the database's answers. Reading, parsing, normalising and comparing a
 * document resolve at once when the file's bytes are buffered: as one chain of promise callbacks
 * (~6 ms a capture) they held the loop, a committed statement's answer unread and the next
 * statement unsent (PostgreSQL's log: ~5 ms idle between two capture statements).
 */
const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));

async function* toAsync<T>(iterator: Iterator<T>): AsyncGenerator<T> {
  for (let next = iterator.next(); !next.done; next = iterator.next()) yield next.value;
}
