import type { Config } from '../../config';
import type { SourceDocument } from '../sources';
import { actionNetwork } from './actionnetwork';
import { theOddsApi } from './the-odds-api';
import { espn } from './espn';
import type { FeedFormat, FeedQuota } from './format';

export type { FeedFormat, FeedPoller, FeedQuota, PollContext } from './format';
export { FeedDocumentError } from './feed-document-error';

/**
 * Every format the ingest reads, in the order they are tried on a capture: the one registration of a
 * format (its folder holds the rest: recognise, validate, normalise, poll, quota).
 */
export const FEED_FORMATS: readonly FeedFormat[] = [actionNetwork, theOddsApi, espn];

/** The quotas of the sources this process polls, by format name: made once, shared by their pollers, /readyz and /metrics. */
export function feedQuotas(config: Config): Map<string, FeedQuota> {
  const quotas = new Map<string, FeedQuota>();
  for (const format of FEED_FORMATS) {
    const poller = format.poller;
    if (poller?.quota && poller.enabled(config)) quotas.set(format.name, poller.quota(config));
  }
  return quotas;
}

/** Whether this process polls any source (Config names one). */
export function pollsAnySource(config: Config): boolean {
  return FEED_FORMATS.some((format) => format.poller?.enabled(config));
}

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
