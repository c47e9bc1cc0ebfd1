import type { NormalizedDocument } from '../feed-rows';
import type { SourceDocument } from '../sources';

/**
 * One upstream format behind the ingest (one folder per format under src/ingest/feeds/): how to
 * recognise its captures and how to turn one into the normalised document the feed store writes. The
 * store, the CLI and the replay know formats only through this interface; a poller of the format says
 * what it fetches in its own folder (feeds/<format>/poll.ts where there is one).
 */
export interface FeedFormat {
  /** The format's name: `odds ingest --format`, `meta.source_ids` keys and the source of each quote. */
  readonly name: string;
  /** Whether `capture` is one of this format's: by its recorded `source` label, else by the body's shape. */
  recognises(capture: SourceDocument): boolean;
  /**
   * The capture as rows. `fetchedAt` is the time of the capture (formats without a live flag derive
   * in-play from it). Throws FeedDocumentError naming the path of a malformed part.
   */
  normalize(capture: SourceDocument, fetchedAt: Date): NormalizedDocument;
}
