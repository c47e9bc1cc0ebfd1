import fs from 'node:fs/promises';
import { localDateOf } from '../../../domain/local-day';
import { LIVE_STATUSES } from '../../../domain/vocabulary';
import type { Logger } from '../../../logger';
import { redactUrl } from '../../../redact';
import type { SourceDocument } from '../../sources';
import { mapStatus } from './status-map';

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
  /** The league's time zone: the feed's slates are its local days (default US Eastern). */
  timeZone?: string;
  /** How long a previous day is followed at most after the feed dropped it (default FOLLOW_DAY_LIMIT_MS). */
  followLimitMs?: number;
}

export interface Poller {
  /** Stops polling; resolves once an ingest in progress has finished. */
  stop(): Promise<void>;
}

/**
 * A previous day's slate is polled at most this long after the feed stopped carrying one of its
 * unfinished games: longer than any game runs past local midnight. A game still in progress after
 * that is left to the store's lost-game timeout (docs/ingest.md).
 */
export const FOLLOW_DAY_LIMIT_MS = 12 * 3_600_000;

/** Spec statuses of a game that has not ended: it is followed until the feed says how it ended. */
const UNFINISHED = new Set(['scheduled', ...LIVE_STATUSES]);

/** The date parameter of the upstream scoreboard: the slate of that local day (YYYYMMDD). */
const DATE_PARAM = 'date';

/** A fetched game as far as following needs it: its local day and whether it has ended. */
interface SlateGame {
  id: string;
  day: string;
  unfinished: boolean;
}

/**
 * The games of a raw scoreboard document, read leniently: a document that does not look like one
 * yields none here and is rejected by the ingest with its reason.
 */
function slateGames(body: unknown, timeZone: string): SlateGame[] {
  const games = (body as { games?: unknown } | null)?.games;
  if (!Array.isArray(games)) return [];
  const out: SlateGame[] = [];
  for (const game of games as Array<Record<string, unknown>>) {
    const start = typeof game?.start_time === 'string' ? new Date(game.start_time) : null;
    if (game?.id == null || typeof game.status !== 'string' || !start || Number.isNaN(start.getTime())) continue;
    const status = mapStatus(game.status, typeof game.real_status === 'string' ? game.real_status : null);
    out.push({ id: String(game.id), day: localDateOf(start, timeZone).replaceAll('-', ''), unfinished: UNFINISHED.has(status) });
  }
  return out;
}

async function fetchDocument(url: string, options: PollerOptions, signal: AbortSignal): Promise<unknown> {
  if (url.startsWith('file:')) return JSON.parse(await fs.readFile(new URL(url), 'utf8'));
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.key) headers[options.keyHeader ?? 'x-api-key'] = options.key;
  const response = await fetch(url, { headers, signal: AbortSignal.any([signal, AbortSignal.timeout(30_000)]) });
  if (!response.ok) throw new Error(`feed answered ${response.status} ${response.statusText}`);
  return response.json();
}

/** The feed URL asking for the slate of `day` (YYYYMMDD). */
function dayUrl(url: string, day: string): string {
  const u = new URL(url);
  u.searchParams.set(DATE_PARAM, day);
  return u.toString();
}

/**
 * Fetches the feed every `intervalMs` and ingests it. Failures are logged and retried with
 * exponential backoff (doubling up to maxBackoffMs); they never stop the server.
 *
 * Games followed to their end: the feed's slate moves to the next local day near midnight while late
 * games are still played. When a document no longer carries a game the previous one showed
 * unfinished (scheduled or in progress), the poller also fetches that game's day (`date=YYYYMMDD`),
 * each poll, ingested before the current slate, until none of that day's games is unfinished or
 * FOLLOW_DAY_LIMIT_MS has passed. A `file:` feed is one fixed document and is not followed.
 */
export function startPoller(options: PollerOptions): Poller {
  const controller = new AbortController();
  const timeZone = options.timeZone ?? 'America/New_York';
  const followLimit = options.followLimitMs ?? FOLLOW_DAY_LIMIT_MS;
  const followable = !options.url.startsWith('file:');
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const maxBackoff = options.maxBackoffMs ?? 300_000;
  /** Unfinished games of the last current-slate document, by id. */
  let lastUnfinished = new Map<string, SlateGame>();
  /** Previous days being followed: YYYYMMDD → when the feed dropped them (epoch ms). */
  const followed = new Map<string, number>();

  const poll = async (url: string, fetchedAt: Date): Promise<unknown> => {
    const body = await fetchDocument(url, options, controller.signal);
    await options.ingest({ name: `${redactUrl(url)}@${fetchedAt.toISOString()}`, fetchedAt, body });
    return body;
  };

  const followDays = async () => {
    for (const [day, since] of followed) {
      if (Date.now() - since > followLimit) {
        followed.delete(day);
        options.logger.warn({ day, feed: redactUrl(options.url) }, 'previous day still unfinished after the follow limit: no longer polled');
        continue;
      }
      try {
        const body = await poll(dayUrl(options.url, day), new Date());
        if (!slateGames(body, timeZone).some((g) => g.day === day && g.unfinished)) {
          followed.delete(day);
          options.logger.info({ day }, 'previous day finished: no longer polled');
        }
      } catch (error) {
        // The current slate is still polled; this day is tried again at the next poll.
        if (controller.signal.aborted) throw error;
        options.logger.warn({ err: error, day, feed: redactUrl(options.url) }, 'previous day poll failed');
      }
    }
  };

  const tick = async () => {
    try {
      await followDays();
      const body = await poll(options.url, new Date());
      if (followable) {
        const games = slateGames(body, timeZone);
        const carried = new Set(games.map((g) => g.id));
        for (const game of lastUnfinished.values()) {
          if (carried.has(game.id) || followed.has(game.day)) continue;
          followed.set(game.day, Date.now());
          options.logger.info({ day: game.day, game: game.id }, 'the feed dropped an unfinished game: following its day');
        }
        lastUnfinished = new Map(games.filter((g) => g.unfinished).map((g) => [g.id, g]));
      }
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
