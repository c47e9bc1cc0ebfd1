import type { Database } from '../db/client';
import type { NormalizedDocument } from '../db/feed-rows';
import { startDocument, type ChangeSet } from '../db/feed-store';
import { recordSignals } from '../db/signal-store';
import type { EventBus } from '../events/bus';
import { FeedDocumentError, formatOf, type FeedFormat } from './feeds';
import type { SourceDocument } from './sources';

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
  onDocument?: (summary: IngestSummary, name: string) => void;
  /** Read every document as this format instead of recognising each one's (`odds ingest --format`). */
  format?: FeedFormat | undefined;
}

/** A document read and normalised ahead, or the reason it was rejected. */
type Prepared = { source: SourceDocument; seenAt: Date; doc: NormalizedDocument } | { source: SourceDocument; rejected: FeedDocumentError };

/**
 * Ingests a stream of documents in order: each one normalised, then written in its own transaction;
 * a rejected document writes nothing and the stream goes on. After each commit, what changed is
 * published on the bus. While a document's statement runs on the database, the next document is
 * read, normalised and compared with memory (CPU work that needs nothing from the database), so its
 * statement goes out as soon as the first one commits; statements stay one at a time, in order.
 */
export async function ingestDocuments(documents: AsyncIterable<SourceDocument> | Iterable<SourceDocument>, options: IngestOptions): Promise<IngestSummary> {
  const summary: IngestSummary = { documents: 0, games: 0, quotesChanged: 0, historyRows: 0, rejected: 0 };
  const games = new Set<number>();
  const now = options.now ?? (() => new Date());
  const iterator = Symbol.asyncIterator in documents ? documents[Symbol.asyncIterator]() : toAsync(documents[Symbol.iterator]());
  const prepare = async (): Promise<Prepared | null> => {
    const next = await iterator.next();
    if (next.done) return null;
    const source = next.value;
    try {
      if (source.error) throw new FeedDocumentError(source.name, '', source.error);
      const seenAt = source.fetchedAt ?? now();
      return { source, seenAt, doc: formatOf(source, options.format).normalize(source, seenAt) };
    } catch (error) {
      if (!(error instanceof FeedDocumentError)) throw error;
      return { source, rejected: error };
    }
  };
  /** The capture whose statement is running: counted and published once it has committed. */
  let writing: { name: string; seenAt: Date; doc: NormalizedDocument; done: Promise<ChangeSet> } | null = null;
  const finishWriting = async (): Promise<void> => {
    if (!writing) return;
    const { name, seenAt, doc, done } = writing;
    writing = null;
    const changes = await done;
    // The previous capture's signals first: the bus keeps the captures' order (odds, then its signals).
    await signals;
    summary.documents++;
    // Read once committed: the store renumbers the games of string-id sources to the games they are.
    for (const game of doc.games) games.add(game.id);
    summary.quotesChanged += changes.quotesChanged;
    summary.historyRows += changes.historyRows;
    if (options.bus && (changes.games.length || changes.markets.length)) {
      await options.bus.publish('odds', { at: seenAt.toISOString(), games: changes.games, markets: changes.markets, version: changes.version, quotes: changes.quotesChanged });
    }
    // Line-movement signals of the games whose prices moved, brought up to date with what this
    // capture added (docs/signals.md), once its prices are committed and published. Written while
    // the next capture's statement runs (not holding back the prices): one capture's at a time, in
    // order, awaited before the next capture is published, a failure surfacing then or at the end.
    if (changes.markets.length) {
      const recording = async () => {
        const stored = await recordSignals(options.db.prisma, changes.added);
        // Announced to every API process (push channels) and to the webhook sender, after they are committed.
        if (options.bus && stored.length) await options.bus.publish('signals', { at: seenAt.toISOString(), signals: stored });
      };
      signals = recording();
      signals.catch(() => {});
    }
    summary.games = games.size;
    options.onDocument?.(summary, name);
  };
  /** The signals recording of the last capture that moved prices (recordSignals), still running or done. */
  let signals: Promise<unknown> = Promise.resolve();
  let ahead = prepare();
  try {
    for (;;) {
      // A file damaged further on stops the run after what was read before it is committed.
      const item = await ahead.catch(async (error: unknown) => {
        await finishWriting();
        throw error;
      });
      if (!item) break;
      if ('rejected' in item) {
        ahead = prepare();
        await finishWriting();
        summary.documents++;
        summary.rejected++;
        options.onRejected?.(item.source.name, item.rejected.message);
        summary.games = games.size;
        options.onDocument?.(summary, item.source.name);
      } else {
        const { source, seenAt, doc } = item;
        const started = await startDocument(options.db.prisma, doc, seenAt);
        ahead = prepare();
        await finishWriting();
        writing = { name: source.name, seenAt, doc, done: started.done };
      }
    }
    await finishWriting();
    await signals;
  } catch (error) {
    // A capture still running is let finish (and, committed, published) before the run stops.
    await finishWriting().catch(() => {});
    await signals.catch(() => {});
    // The document read ahead is dropped with the run: its own failure, if any, is not the news.
    ahead.catch(() => {});
    await iterator.return?.();
    throw error;
  }
  return summary;
}

async function* toAsync<T>(iterator: Iterator<T>): AsyncGenerator<T> {
  for (let next = iterator.next(); !next.done; next = iterator.next()) yield next.value;
}
