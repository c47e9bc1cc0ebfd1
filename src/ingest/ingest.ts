import type { Database } from '../db/client';
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

/**
 * Ingests a stream of documents in order: each one normalised, then written in its own transaction;
 * a rejected document writes nothing and the stream goes on. After each commit, what changed is
 * published on the bus.
 */
export async function ingestDocuments(documents: AsyncIterable<SourceDocument> | Iterable<SourceDocument>, options: IngestOptions): Promise<IngestSummary> {
  const summary: IngestSummary = { documents: 0, games: 0, quotesChanged: 0, historyRows: 0, rejected: 0 };
  const games = new Set<number>();
  const now = options.now ?? (() => new Date());
  for await (const source of documents) {
    summary.documents++;
    try {
      if (source.error) throw new FeedDocumentError(source.name, '', source.error);
      const doc = normalizeDocument(source.body, source.name);
      const seenAt = source.fetchedAt ?? now();
      const changes = await storeDocument(options.db.prisma, doc, seenAt);
      for (const game of doc.games) games.add(game.id);
      summary.quotesChanged += changes.quotesChanged;
      summary.historyRows += changes.historyRows;
      if (options.bus && (changes.games.length || changes.markets.length)) {
        await options.bus.publish('odds', { at: seenAt.toISOString(), games: changes.games, markets: changes.markets, version: changes.version });
      }
    } catch (error) {
      if (!(error instanceof FeedDocumentError)) throw error;
      summary.rejected++;
      options.onRejected?.(source.name, error.message);
    }
    summary.games = games.size;
    options.onDocument?.(summary, source.name);
  }
  return summary;
}
