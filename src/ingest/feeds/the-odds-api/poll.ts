import type { OddsApiConfig } from '../../../config';
import type { Logger } from '../../../logger';
import { redactUrl } from '../../../redact';
import type { SourceDocument } from '../../sources';
import { ODDS_API_SOURCE } from './normalize';
import { propsPollDue, propsPollNextAt } from './props-schedule';
import type { OddsApiUsage } from './usage';

/**
 * The poller of The Odds API v4 (docs/sources.md): for each sport, `GET /v4/sports/{sport}/odds` every
 * ODDS_API_PREGAME_INTERVAL_MS, every ODDS_API_LIVE_INTERVAL_MS while one of its games is being
 * played, and `GET /v4/sports/{sport}/scores` for the games started and not completed (finished
 * games are not asked for again). Each answer's usage headers feed `usage`; the waits stretch so
 * the day's spending stays within ODDS_API_DAILY_BUDGET, and polling pauses when the month's
 * quota is spent. Errors are logged by kind (401, 422, 429, timeout, other) and backed off.
 *
 * Player props (ODDS_API_PROP_MARKETS): `GET /v4/sports/{sport}/events/{id}/odds` per game on the
 * props schedule (props-schedule.ts: only games starting within 24 h, more often near tip-off and in
 * play), each costing prop markets x regions, within ODDS_API_PROPS_DAILY_BUDGET and the day's budget:
 * a props poll that would overspend either waits for the next UTC day (docs/player-props.md).
 */

export interface OddsApiPollerOptions {
  config: OddsApiConfig;
  usage: OddsApiUsage;
  logger: Logger;
  ingest: (document: SourceDocument) => Promise<void>;
  /** For tests: the clock (default the real one). */
  now?: () => Date;
  /** Longest wait after repeated failures (default 1 hour). */
  maxBackoffMs?: number;
}

export interface OddsApiPoller {
  stop(): Promise<void>;
}

/** A failed request, by kind: what the log line and the backoff say. */
export class OddsApiError extends Error {
  constructor(
    readonly kind: 'unauthorized' | 'unprocessable' | 'rate_limited' | 'timeout' | 'http' | 'network',
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/** The log line of each kind of failure: what it means and what to do. */
const EXPLAIN: Record<OddsApiError['kind'], string> = {
  unauthorized: 'The Odds API refused the key (401): check ODDS_API_KEY, or the plan has run out',
  unprocessable: 'The Odds API refused the request (422): check ODDS_API_SPORTS, ODDS_API_MARKETS, ODDS_API_REGIONS and ODDS_API_BOOKMAKERS',
  rate_limited: 'The Odds API is rate limiting (429): backing off',
  timeout: 'The Odds API did not answer in time (ODDS_API_TIMEOUT_MS): backing off',
  http: 'The Odds API answered with an error: backing off',
  network: 'The Odds API could not be reached: backing off',
};

/** Regions a request is charged for: its regions, or one per 10 bookmakers. */
function chargedRegions(config: OddsApiConfig): number {
  return Math.max(1, config.bookmakers.length ? Math.ceil(config.bookmakers.length / 10) : config.regions.length);
}

/** The credits one odds request costs: markets x regions, or x one region per 10 bookmakers. */
export function oddsRequestCost(config: OddsApiConfig): number {
  return Math.max(1, config.markets.length) * chargedRegions(config);
}

/** The credits one game's props request costs (event-odds endpoint): prop markets x regions. */
export function propsRequestCost(config: OddsApiConfig): number {
  return config.propMarkets.length * chargedRegions(config);
}

/** A started game neither the odds nor the scores carry any more is forgotten this long after its start. */
const FORGET_STARTED_MS = 6 * 3_600_000;

/** Per sport: when to poll next, and the games it knows that have not ended. */
interface SportState {
  sport: string;
  nextAt: number;
  failures: number;
  /** Event id -> commence time (ms) of games not completed. */
  open: Map<string, number>;
  /** Games the scores said completed: never followed again, though the odds may still list them a while. */
  done: Set<string>;
  /** When the props of each game were last asked for (event id -> ms). */
  propsPolledAt: Map<string, number>;
  /** When a game's props are next due (Infinity: none). */
  propsNextAt: number;
  /** Props polls wait until then: the props or day's budget is spent (the next UTC day). */
  propsBlockedUntil: number;
}

export function startOddsApiPoller(options: OddsApiPollerOptions): OddsApiPoller {
  const { config, usage, logger } = options;
  const now = options.now ?? (() => new Date());
  const maxBackoff = options.maxBackoffMs ?? 3_600_000;
  const controller = new AbortController();
  const sports: SportState[] = config.sports.map((sport) => ({ sport, nextAt: 0, failures: 0, open: new Map(), done: new Set(), propsPolledAt: new Map(), propsNextAt: Infinity, propsBlockedUntil: 0 }));
  /** Credits the props polls spent on the UTC day `propsDay`. */
  let propsDay = '';
  let propsSpent = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const request = async (path: string, params: Record<string, string>, endpoint: string, sport: string): Promise<void> => {
    const url = new URL(path, config.baseUrl);
    for (const [k, v] of Object.entries({ ...params, apiKey: config.key })) url.searchParams.set(k, v);
    let response: Response;
    try {
      response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.any([controller.signal, AbortSignal.timeout(config.timeoutMs)]) });
    } catch (error) {
      if (controller.signal.aborted) throw error;
      const timeout = (error as Error).name === 'TimeoutError';
      throw new OddsApiError(timeout ? 'timeout' : 'network', `${redactUrl(url.toString())}: ${(error as Error).message}`);
    }
    const at = now();
    usage.record(response.headers, at);
    if (!response.ok) {
      const detail = (await response.text().catch(() => '')).slice(0, 300);
      const retryAfter = Number(response.headers.get('retry-after'));
      const kind = response.status === 401 ? 'unauthorized' : response.status === 422 ? 'unprocessable' : response.status === 429 ? 'rate_limited' : 'http';
      throw new OddsApiError(kind, `${response.status} ${redactUrl(url.toString())}: ${detail}`, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null);
    }
    const body: unknown = await response.json();
    await options.ingest({
      name: `${ODDS_API_SOURCE}:${sport}/${endpoint}@${at.toISOString()}`,
      fetchedAt: at,
      body,
      envelope: { source: ODDS_API_SOURCE, sport_key: sport, endpoint, odds_format: config.oddsFormat },
    });
    usage.lastSuccessAt = at;
    if (endpoint === 'odds' || endpoint === 'scores') remember(sport, body, endpoint === 'scores');
  };

  /** Keeps the games of a sport not known to have ended (their commence times). */
  const remember = (sport: string, body: unknown, scores: boolean) => {
    const state = sports.find((s) => s.sport === sport)!;
    if (!Array.isArray(body)) return;
    // A game the odds no longer carry, started hours ago, ended without a score we saw: not followed.
    const carried = new Set((body as Array<{ id?: unknown }>).map((e) => e?.id));
    const cut = now().getTime() - FORGET_STARTED_MS;
    if (!scores) for (const [id, start] of state.open) if (!carried.has(id) && start < cut) state.open.delete(id);
    for (const e of body as Array<{ id?: unknown; commence_time?: unknown; completed?: unknown }>) {
      if (typeof e?.id !== 'string' || typeof e.commence_time !== 'string') continue;
      if (scores && e.completed === true) {
        state.open.delete(e.id);
        state.done.add(e.id);
      } else if (!state.done.has(e.id)) state.open.set(e.id, Date.parse(e.commence_time));
    }
  };

  /** The wait after a successful poll of `state`: its interval, stretched to stay within the day's budget. */
  const waitFor = (state: SportState, at: number): number => {
    const live = [...state.open.values()].some((start) => start <= at);
    const interval = live ? config.liveIntervalMs : config.pregameIntervalMs;
    usage.rollDay(new Date(at));
    const endOfDay = Date.parse(`${usage.day}T00:00:00.000Z`) + 86_400_000;
    const left = usage.dailyBudget - usage.spentToday;
    if (left <= 0 || (usage.remaining !== null && usage.remaining < oddsRequestCost(config))) {
      if (!usage.slowed) logger.warn({ source: ODDS_API_SOURCE, spentToday: usage.spentToday, budget: usage.dailyBudget, remaining: usage.remaining }, 'The Odds API budget of the day (or the month\'s quota) is spent: polling pauses until the next UTC day');
      usage.slowed = true;
      return Math.max(interval, endOfDay - at);
    }
    // Credits every sport would spend at this pace until midnight; stretched when over what is left.
    const perPoll = oddsRequestCost(config) * sports.length;
    const paced = ((endOfDay - at) * perPoll) / left;
    usage.slowed = paced > interval;
    return Math.max(interval, paced);
  };

  const pollSport = async (state: SportState) => {
    const params: Record<string, string> = { markets: config.markets.join(','), oddsFormat: config.oddsFormat, dateFormat: 'iso' };
    if (config.bookmakers.length) params['bookmakers'] = config.bookmakers.join(',');
    else params['regions'] = config.regions.join(',');
    await request(`/v4/sports/${state.sport}/odds`, params, 'odds', state.sport);
    // Scores only for games started and not completed: a finished game is not asked for again.
    const at = now().getTime();
    const started = [...state.open].filter(([, start]) => start <= at).map(([id]) => id);
    usage.rollDay(new Date(at));
    if (started.length && usage.spentToday < usage.dailyBudget) await request(`/v4/sports/${state.sport}/scores`, { daysFrom: '1', dateFormat: 'iso', eventIds: started.join(',') }, 'scores', state.sport);
  };

  /** When the next props poll of `state` is due: the earliest game due (see props-schedule.ts). */
  const propsDueAt = (state: SportState, at: Date): number => {
    if (!config.propMarkets.length) return Infinity;
    let next = Infinity;
    for (const [id, start] of state.open) {
      const last = state.propsPolledAt.get(id);
      next = Math.min(next, propsPollNextAt(new Date(start), at, last === undefined ? null : new Date(last)) ?? Infinity);
    }
    return next;
  };

  /**
   * The props of every game of `state` due now, one event-odds request each, while the props budget
   * and the day's budget allow; when they do not, props wait for the next UTC day. A failed request
   * is logged and the game waits for its next interval: the game odds of the sport go on.
   */
  const pollProps = async (state: SportState) => {
    const cost = propsRequestCost(config);
    const params: Record<string, string> = { markets: config.propMarkets.join(','), oddsFormat: config.oddsFormat, dateFormat: 'iso' };
    if (config.bookmakers.length) params['bookmakers'] = config.bookmakers.join(',');
    else params['regions'] = config.regions.join(',');
    for (const [id, start] of [...state.open].sort((a, b) => a[1] - b[1])) {
      if (controller.signal.aborted) return;
      const at = now();
      const last = state.propsPolledAt.get(id);
      if (!propsPollDue(new Date(start), at, last === undefined ? null : new Date(last))) continue;
      usage.rollDay(at);
      if (propsDay !== usage.day) [propsDay, propsSpent] = [usage.day, 0];
      if (propsSpent + cost > config.propsDailyBudget || usage.spentToday + cost > usage.dailyBudget) {
        // Once per sport and day: the block lasts until the next UTC day.
        logger.warn({ source: ODDS_API_SOURCE, sport: state.sport, propsSpentToday: propsSpent, propsBudget: config.propsDailyBudget, spentToday: usage.spentToday, budget: usage.dailyBudget }, 'The Odds API props budget of the day is spent: props polls wait for the next UTC day');
        state.propsBlockedUntil = Date.parse(`${usage.day}T00:00:00.000Z`) + 86_400_000;
        break;
      }
      state.propsPolledAt.set(id, at.getTime());
      propsSpent += cost;
      const path = `/v4/sports/${state.sport}/events/${id}/odds`;
      try {
        await request(path, params, path, state.sport);
      } catch (error) {
        if (controller.signal.aborted) return;
        const kind = error instanceof OddsApiError ? error.kind : 'http';
        usage.lastError = { kind, at: now(), message: (error as Error).message };
        logger[kind === 'unauthorized' || kind === 'unprocessable' ? 'error' : 'warn'](
          { source: ODDS_API_SOURCE, sport: state.sport, event: id, kind, detail: (error as Error).message },
          EXPLAIN[kind as OddsApiError['kind']] ?? 'The Odds API props poll failed',
        );
        // A refusal or a limit stops this round; the game is asked again at its next interval.
        break;
      }
    }
    // Games no longer followed (completed, or dropped) leave the map, so it stays the size of a slate.
    for (const id of state.propsPolledAt.keys()) if (!state.open.has(id)) state.propsPolledAt.delete(id);
    state.propsNextAt = propsDueAt(state, now());
  };

  const tick = async () => {
    const at = now().getTime();
    for (const state of sports) {
      if (controller.signal.aborted) return;
      if (state.nextAt > at) continue;
      try {
        await pollSport(state);
        state.failures = 0;
        state.nextAt = at + waitFor(state, now().getTime());
        state.propsNextAt = Math.min(state.propsNextAt, propsDueAt(state, now()));
      } catch (error) {
        if (controller.signal.aborted) return;
        state.failures++;
        const kind = error instanceof OddsApiError ? error.kind : 'http';
        const message = (error as Error).message;
        usage.lastError = { kind, at: now(), message };
        const backoff = Math.min(maxBackoff, config.liveIntervalMs * 2 ** state.failures);
        const wait = Math.max(backoff, error instanceof OddsApiError && error.retryAfterMs ? error.retryAfterMs : 0);
        state.nextAt = at + wait;
        logger[kind === 'unauthorized' || kind === 'unprocessable' ? 'error' : 'warn'](
          { source: ODDS_API_SOURCE, sport: state.sport, kind, failures: state.failures, retryInMs: wait, detail: message },
          EXPLAIN[kind as OddsApiError['kind']] ?? 'The Odds API poll failed: backing off',
        );
      }
    }
    for (const state of sports) {
      if (controller.signal.aborted) return;
      const at = now().getTime();
      if (state.propsNextAt <= at && state.propsBlockedUntil <= at) await pollProps(state);
    }
    if (controller.signal.aborted) return;
    const next = Math.min(...sports.map((s) => Math.min(s.nextAt, Math.max(s.propsNextAt, s.propsBlockedUntil))));
    timer = setTimeout(() => (running = tick()), Math.max(10, next - now().getTime()));
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
