import type { Database } from '../db/client';
import type { NormalizedDocument } from '../db/feed-rows';
import { storeDocument } from '../db/feed-store';
import type { EventBus } from '../events/bus';
import { FeedDocumentError, normalizeDocument } from './feed/normalize';
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
}

/** A document read and normalised ahead, or the reason it was rejected. */
type Prepared = { source: SourceDocument; doc: NormalizedDocument } | { source: SourceDocument; rejected: FeedDocumentError };

/**
 * Ingests a stream of documents in order: each one normalised, then written in its own transaction;
 * a rejected document writes nothing and the stream goes on. After each commit, what changed is
 * published on the bus. While a document's statement runs on the database, the next document is
 * read and normalised (CPU work that needs nothing from the database); writes stay one at a time.
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
      return { source, doc: normalizeDocument(source.body, source.name) };
    } catch (error) {
      if (!(error instanceof FeedDocumentError)) throw error;
      return { source, rejected: error };
    }
  };
  let ahead = prepare();
  try {
    for (let item = await ahead; item; item = await ahead) {
      summary.documents++;
      if ('rejected' in item) {
        ahead = prepare();
        summary.rejected++;
        options.onRejected?.(item.source.name, item.rejected.message);
      } else {
        const { source, doc } = item;
        const seenAt = source.fetchedAt ?? now();
        const storing = storeDocument(options.db.prisma, doc, seenAt);
        ahead = prepare();
        const changes = await storing;
        for (const game of doc.games) games.add(game.id);
        summary.quotesChanged += changes.quotesChanged;
        summary.historyRows += changes.historyRows;
        if (options.bus && (changes.games.length || changes.markets.length)) {
          await options.bus.publish('odds', { at: seenAt.toISOString(), games: changes.games, markets: changes.markets, version: changes.version, quotes: changes.quotesChanged });
        }
      }
      summary.games = games.size;
      options.onDocument?.(summary, item.source.name);
    }
  } catch (error) {
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
