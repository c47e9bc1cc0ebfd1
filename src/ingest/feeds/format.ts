import type { Registry } from 'prom-client';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import type { NormalizedDocument } from '../feed-rows';
import type { SourceDocument } from '../sources';

/**
 * One upstream format behind the ingest (one folder per format under src/ingest/feeds/): how to
 * recognise its captures and how to turn one into the normalised document the feed store writes, and,
 * where the source is polled, its poller. The store, the CLI, the replay and `odds serve`
 * (src/ingest/feed-runner.ts) know formats only through this interface and the list of
 * feeds/index.ts.
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
  /** How `odds serve` polls the source (feeds/<format>/poll.ts), where it does. */
  readonly poller?: FeedPoller;
}

/** A source's poller as `odds serve` starts it: its settings are read from Config. */
export interface FeedPoller {
  /** The source named in the log of each ingest run of its documents. */
  readonly label: string;
  /** Whether this process polls the source (its settings are given). */
  enabled(config: Config): boolean;
  /** The source's quota, made once per process when it is polled (served by /readyz and /metrics); none when it has no quota. */
  quota?(config: Config): FeedQuota;
  /** Starts polling (and says so in the log); each fetched document goes through `ingest`, one at a time. */
  start(context: PollContext): { stop(): Promise<void> };
}

export interface PollContext {
  config: Config;
  logger: Logger;
  /** This source's quota as feedQuotas made it (absent: the poller makes its own). */
  quota: FeedQuota | undefined;
  /** Ingests one fetched document; a throw counts as a failed poll. */
  ingest(document: SourceDocument): Promise<void>;
}

/** What a polled source spends and how it fares: `/readyz` shows the snapshot under its name; /metrics its gauges. */
export interface FeedQuota {
  snapshot(): object;
  registerMetrics(registry: Registry): void;
}
