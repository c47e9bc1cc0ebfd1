import type { EspnConfig } from '../../../config';
import type { Logger } from '../../../logger';
import type { SourceDocument } from '../../sources';
import { ESPN_SUMMARY_LABEL } from './normalize';

/**
 * The ESPN poller (docs/sources.md, "ESPN"): every ESPN_INTERVAL_MS it reads each league's scoreboard
 * (`/apis/site/v2/sports/basketball/{league}/scoreboard?dates=YYYYMMDD`) of today and the last
 * ESPN_CORRECTION_DAYS days, and fetches the summary of each game gone final: once when it is first
 * seen final, then again once a day while it is within ESPN_CORRECTION_DAYS of its start, to catch
 * stat corrections (an unchanged summary changes nothing). Requests go one at a time, at least
 * ESPN_REQUEST_GAP_MS apart (one a second by default: a polite rate for a public, keyless API).
 * A failed request is logged and tried at the next round.
 */

export interface EspnPollerOptions {
  config: EspnConfig;
  logger: Logger;
  ingest: (document: SourceDocument) => Promise<void>;
  /** For tests: the clock (default the real one). */
  now?: () => Date;
}

const DAY_MS = 86_400_000;

/** The `dates=` form of a UTC day. */
const day = (at: Date) => at.toISOString().slice(0, 10).replace(/-/g, '');

export function startEspnPoller(options: EspnPollerOptions): { stop(): Promise<void> } {
  const { config, logger, ingest } = options;
  const now = options.now ?? (() => new Date());
  /** When each event's summary was last fetched. */
  const fetched = new Map<string, number>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  let lastRequest = 0;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, ms);
    });
  const get = async (url: string): Promise<unknown> => {
    const wait = lastRequest + config.requestGapMs - Date.now();
    if (wait > 0) await sleep(wait);
    lastRequest = Date.now();
    const res = await fetch(url, { signal: AbortSignal.timeout(config.timeoutMs), headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`ESPN answered ${res.status} to ${url}`);
    return res.json();
  };
  const round = async () => {
    const at = now();
    for (const league of config.leagues) {
      for (let back = 0; back <= config.correctionDays && !stopped; back++) {
        const date = day(new Date(at.getTime() - back * DAY_MS));
        const base = `${config.baseUrl}/apis/site/v2/sports/basketball/${league}`;
        try {
          const board = (await get(`${base}/scoreboard?dates=${date}`)) as { events?: Array<{ id?: string; date?: string; status?: { type?: { completed?: boolean } } }> };
          for (const event of board.events ?? []) {
            if (stopped) return;
            if (!event.id || event.status?.type?.completed !== true) continue;
            const last = fetched.get(event.id);
            const start = event.date ? Date.parse(event.date) : at.getTime();
            // Once final; again daily while corrections may come.
            if (last !== undefined && (at.getTime() - last < DAY_MS || at.getTime() - start > config.correctionDays * DAY_MS)) continue;
            const body = await get(`${base}/summary?event=${encodeURIComponent(event.id)}`);
            fetched.set(event.id, at.getTime());
            await ingest({ name: `espn:${league}:${event.id}`, fetchedAt: now(), body, envelope: { source: ESPN_SUMMARY_LABEL, league } });
          }
        } catch (error) {
          logger.warn({ source: 'espn', league, date, err: (error as Error).message }, 'ESPN poll failed: tried again next round');
        }
      }
    }
  };
  const done = (async () => {
    while (!stopped) {
      await round();
      if (!stopped) await sleep(config.intervalMs);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      wake?.();
      await done.catch(() => {});
    },
  };
}
