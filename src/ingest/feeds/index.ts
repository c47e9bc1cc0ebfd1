import type { SourceDocument } from '../sources';
import { actionNetwork } from './actionnetwork';
import { theOddsApi } from './the-odds-api';
import type { FeedFormat } from './format';

export type { FeedFormat } from './format';
export { FeedDocumentError } from './feed-document-error';

/** Every format the ingest reads, in the order they are tried on a capture. */
export const FEED_FORMATS: readonly FeedFormat[] = [actionNetwork, theOddsApi];

export const FEED_FORMAT_NAMES = FEED_FORMATS.map((f) => f.name);

/** The format named `name`, or undefined. */
export function feedFormatNamed(name: string): FeedFormat | undefined {
  return FEED_FORMATS.find((f) => f.name === name);
}

/**
 * The format of `capture` (`forced` when given): by its recorded `source` label where a format claims
 * it, else by the body's shape (labels are free text: a crafted capture names the script that made
 * it). A capture no format recognises is read as the Action Network scoreboard, the default, whose
 * schema then names what is wrong.
 */
export function formatOf(capture: SourceDocument, forced?: FeedFormat): FeedFormat {
  if (forced) return forced;
  return FEED_FORMATS.find((f) => f.recognises(capture)) ?? actionNetwork;
}
