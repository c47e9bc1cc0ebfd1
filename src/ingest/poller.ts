import fs from 'node:fs/promises';
import type { Logger } from '../logger';
import { redactUrl } from '../redact';
import type { SourceDocument } from './sources';

export interface PollerOptions {
  url: string;
  intervalMs: number;
  /** Header carrying the feed key, when the feed needs one. */
  keyHeader?: string | undefined;
  key?: string | undefined;
  logger: Logger;
  /** Ingests one fetched document; a throw counts as a failed poll. */
  ingest: (document: SourceDocument) => Promise<void>;
  /** Longest wait after repeated failures (default 5 minutes). */
  maxBackoffMs?: number;
}

export interface Poller {
  /** Stops polling; resolves once an ingest in progress has finished. */
  stop(): Promise<void>;
}

async function fetchDocument(options: PollerOptions, signal: AbortSignal): Promise<unknown> {
  if (options.url.startsWith('file:')) return JSON.parse(await fs.readFile(new URL(options.url), 'utf8'));
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.key) headers[options.keyHeader ?? 'x-api-key'] = options.key;
  const response = await fetch(options.url, { headers, signal: AbortSignal.any([signal, AbortSignal.timeout(30_000)]) });
  if (!response.ok) throw new Error(`feed answered ${response.status} ${response.statusText}`);
  return response.json();
}

/**
 * Fetches the feed every `intervalMs` and ingests it. Failures are logged and retried with
 * exponential backoff (doubling up to maxBackoffMs); they never stop the server.
 */
export function startPoller(options: PollerOptions): Poller {
  const controller = new AbortController();
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const maxBackoff = options.maxBackoffMs ?? 300_000;

  const tick = async () => {
    const fetchedAt = new Date();
    try {
      const body = await fetchDocument(options, controller.signal);
      await options.ingest({ name: `${redactUrl(options.url)}@${fetchedAt.toISOString()}`, fetchedAt, body });
      failures = 0;
    } catch (error) {
      if (controller.signal.aborted) return;
      failures++;
      options.logger.warn({ err: error, failures, feed: redactUrl(options.url) }, 'feed poll failed');
    }
    if (controller.signal.aborted) return;
    const delay = failures ? Math.min(maxBackoff, options.intervalMs * 2 ** failures) : options.intervalMs;
    timer = setTimeout(() => (running = tick()), delay);
  };
  running = tick();

  return {
    async stop() {
      controller.abort();
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
