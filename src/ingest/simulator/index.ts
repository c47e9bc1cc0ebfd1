/**
 * Deterministic simulator of the upstream v2 scoreboard feed, for demos and tests.
 *
 * It writes documents of exactly the real feed's shape (src/ingest/feeds/actionnetwork/schema.ts, and the
 * real captures in test/fixtures/feeds/), so simulated and real data travel the same ingest path. Every
 * document and game is labelled: `document.simulated = true`, `game.meta = { simulated: true,
 * simulator_seed }`.
 *
 * Purity: no I/O, no clock, no Math.random. The state of a game at an instant is a pure function of
 * (seed, game, instant): every random quantity is drawn from a small PRNG (mulberry32) seeded with a
 * hash of the seed and a key naming that quantity (game id, book, time bucket...), so any instant can
 * be computed directly without replaying the ones before it.
 *
 * Model, in short (one file per part: random.ts seeded numbers, calendar.ts dates and zones, models.ts
 * league parameters, books.ts the quoted books, schedule.ts slates and game plans, game.ts a game at an
 * instant, pricing.ts what books quote (odds math from src/domain), feed-json.ts the documents):
 * - Schedule: per league and local game day (US Eastern by default) within the league's season window
 *   (reference-data.ts): NBA 6-12 games on regular-season days, WNBA 3-6 (none in November); tip times
 *   19:00-22:30 local by the home team's time zone. The slate of a day depends only on (seed, league,
 *   day), so overlapping windows agree, and game ids are derived from the day
 *   (SIM_GAME_ID_BASE + epochDay * 100 + slot, WNBA slots from 50), far from upstream ids (~300k).
 * - Lines: each team has a seeded strength and pace; a game has a fair margin and total, an opening
 *   number and a closing number; the pregame line drifts from open to close with hourly wobble and is
 *   frozen at tip (closing line). Each book quotes the fair line plus its own small, slowly changing
 *   shift, rounded to half points (so half and whole points both occur), and prices both sides from a
 *   normal model of the margin/total with its own margin (sharp ~2.2%, majors 4.3-5%, live higher).
 *   The moneyline is priced from the same shifted number as the spread, so they agree in direction.
 *   First-half markets use half the margin and ~51% of the total.
 * - Game: tip ~8 min after the scheduled start, 4 quarters (12 min NBA / 10 min WNBA) over ~2h15
 *   (NBA) of real time with quarter breaks and a 15-minute halftime, overtime while tied. Final
 *   scores are drawn around the closing numbers; points arrive as seeded baskets inside each period,
 *   so the linescore at any instant is consistent and the totals are its sums.
 * - Live odds: once in progress, books also quote is_live outcomes (new market ids) centred on the
 *   current margin plus the remaining share of the pregame expectation, with a spread that shrinks
 *   with the time left. They disappear at the final; pregame outcomes stay as the closing prices.
 * - Public betting: ticket and money percentages per pregame outcome (sides sum to 100, the same at
 *   every book, as in the real feed), zero on live outcomes; num_bets grows towards tip, then freezes.
 */

import { addDays } from '../../domain';
import type { FeedDocument, FeedGame } from '../feeds/actionnetwork/schema';
import { LEAGUES } from '../reference-data';
import { SIM_BOOKS } from './books';
import { localDateOf } from './calendar';
import { buildGame, leagueObject } from './feed-json';
import { validateOptions, type SimGame, type SimulatorOptions } from './options';
import { propEvent, summaryEvent } from './props';
import { planDay, type GamePlan } from './schedule';

export { DEFAULT_SIM_TIME_ZONE, SIM_GAME_ID_BASE, type SimGame, type SimulatorOptions } from './options';

export interface DocumentsOptions {
  /** Only the slate of this local day (the real scoreboard is per day); default: the whole window. */
  localDate?: string;
}

export interface Simulator {
  readonly options: Readonly<Required<SimulatorOptions>>;
  /** Book ids the simulator quotes, aggregates (15, 30) first. */
  readonly bookIds: readonly number[];
  /** Every game of the window, ordered by start time then id. */
  scheduleGames(): SimGame[];
  /** One scoreboard document per league with games in the window (or on `localDate`), as at `now`. */
  documentsAt(now: Date, opts?: DocumentsOptions): FeedDocument[];
  /** One game as at `now`, or undefined if it is not in the window. */
  gameAt(gameId: number, now: Date): FeedGame | undefined;
  /**
   * Player props as The Odds API's event-odds events at `now`, by sport key: games from 24 h before
   * tip until closed (no bookmakers from the final on). See props.ts.
   */
  propEventsAt(now: Date): Map<string, Array<Record<string, unknown>>>;
  /** Box scores as ESPN's summary documents at `now`: each game from its final until official. See props.ts. */
  summariesAt(now: Date): Array<Record<string, unknown>>;
}


export function createSimulator(options: SimulatorOptions): Simulator {
  const opts = validateOptions(options);
  const plans = new Map<number, GamePlan>();
  let schedule: GamePlan[] | undefined;

  const allPlans = (): GamePlan[] => {
    if (!schedule) {
      schedule = [];
      for (let d = 0; d <= opts.days; d++) {
        const localDate = addDays(opts.startDate, d);
        for (const league of LEAGUES) {
          for (const plan of planDay(opts, league, localDate)) {
            plans.set(plan.game.id, plan);
            schedule.push(plan);
          }
        }
      }
      schedule.sort((a, b) => a.startMs - b.startMs || a.game.id - b.game.id);
    }
    return schedule;
  };

  return {
    options: opts,
    bookIds: SIM_BOOKS.map((b) => b.id),
    scheduleGames: () => allPlans().map((p) => ({ ...p.game })),
    documentsAt(now: Date, docOpts?: DocumentsOptions): FeedDocument[] {
      const nowMs = instantMs(now);
      const wanted = allPlans().filter((p) => !docOpts?.localDate || p.game.local_date === docOpts.localDate);
      const docs: FeedDocument[] = [];
      for (const league of LEAGUES) {
        const games = wanted.filter((p) => p.league.id === league.id);
        if (games.length === 0) continue;
        docs.push({
          league: leagueObject(league, localDateOf(nowMs, opts.timeZone)),
          games: games.map((p) => buildGame(opts, p, nowMs)),
          market_rules: {},
          content_live_count: 0,
          simulated: true,
        });
      }
      return docs;
    },
    propEventsAt(now: Date): Map<string, Array<Record<string, unknown>>> {
      const nowMs = instantMs(now);
      const out = new Map<string, Array<Record<string, unknown>>>();
      for (const plan of allPlans()) {
        const event = propEvent(opts.seed, plan, nowMs);
        if (!event) continue;
        const sport = event.sport_key as string;
        out.set(sport, [...(out.get(sport) ?? []), event]);
      }
      return out;
    },
    summariesAt(now: Date): Array<Record<string, unknown>> {
      const nowMs = instantMs(now);
      return allPlans().flatMap((plan) => {
        const summary = summaryEvent(opts.seed, plan, nowMs);
        return summary ? [summary] : [];
      });
    },
    gameAt(gameId: number, now: Date): FeedGame | undefined {
      allPlans();
      const plan = plans.get(gameId);
      return plan ? buildGame(opts, plan, instantMs(now)) : undefined;
    },
  };
}

function instantMs(now: Date): number {
  const ms = now.getTime();
  if (Number.isNaN(ms)) throw new RangeError('now is an invalid Date');
  return ms;
}
