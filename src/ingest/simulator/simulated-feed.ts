import { addDays, localDateOf } from '../../domain/local-day';
import type { FeedDocument } from '../feeds/actionnetwork/schema';
import type { SourceDocument } from '../sources';
import { createSimulator } from './index';

export interface SimulationOptions {
  seed: number;
  timeZone: string;
  /** Further days after today in the slate (default 2). */
  days?: number;
  /**
   * How far the simulated world runs behind the wall clock, in ms (default 0: real time). The slate
   * is played as at `now - shiftMs`, and every instant in its documents is moved forward by
   * `shiftMs`, so games keep their usual US evening rhythm but happen at the wall clock's hour:
   * start times, clocks and the time data is seen stay consistent with `now`.
   */
  shiftMs?: number;
  /**
   * Also player props (default false): one document per league in The Odds API's event-odds shape
   * (src/ingest/simulator/props.ts), after the scoreboard documents whose games they attach to.
   */
  props?: boolean;
}

/**
 * The simulated feed as at `now`: today's slate (league local day) and the next days, one document
 * per league, named so that logs and rejections say they are simulated. While a game of yesterday's
 * slate is still being played (late tips run past local midnight), yesterday's slate comes first,
 * as a poller following that day to its end would fetch it: no game is left "in progress".
 */
export function simulatedDocuments(now: Date, options: SimulationOptions): SourceDocument[] {
  const shiftMs = options.shiftMs ?? 0;
  const simNow = new Date(now.getTime() - shiftMs);
  const today = localDateOf(simNow, options.timeZone);
  const simulator = createSimulator({ seed: options.seed, startDate: today, days: options.days ?? 2, timeZone: options.timeZone });
  const yesterday = createSimulator({ seed: options.seed, startDate: addDays(today, -1), days: 0, timeZone: options.timeZone });
  // Until every game is official (closed), so that the final score of the last one is seen too.
  const unfinished = yesterday.scheduleGames().some((g) => Date.parse(g.closed_at) > simNow.getTime());
  const bodies = [...(unfinished ? yesterday.documentsAt(simNow) : []), ...simulator.documentsAt(simNow)];
  const docs: SourceDocument[] = bodies.map((body, i) => ({
    name: `simulator(seed ${options.seed})@${now.toISOString()}#${i}`,
    fetchedAt: now,
    body: shiftMs === 0 ? body : shiftDocument(body, shiftMs),
  }));
  if (options.props) docs.push(...simulatedProps(now, simNow, shiftMs, [...(unfinished ? [yesterday] : []), simulator], options.seed));
  return docs;
}

/**
 * The props of the simulators' games at `simNow` as captures of The Odds API's event-odds endpoint
 * (one per sport, labelled simulated), taken at `now`, their commence times moved by `shiftMs`.
 */
function simulatedProps(now: Date, simNow: Date, shiftMs: number, simulators: ReadonlyArray<ReturnType<typeof createSimulator>>, seed: number): SourceDocument[] {
  const bySport = new Map<string, Array<Record<string, unknown>>>();
  for (const sim of simulators) {
    for (const [sport, events] of sim.propEventsAt(simNow)) bySport.set(sport, [...(bySport.get(sport) ?? []), ...events]);
  }
  const props: SourceDocument[] = [...bySport].map(([sport, events]) => ({
    name: `simulator(seed ${seed}) props ${sport}@${now.toISOString()}`,
    fetchedAt: now,
    envelope: { source: 'the-odds-api', endpoint: `/v4/sports/${sport}/events/{eventId}/odds`, odds_format: 'american', simulated: true },
    body: events.map((e) => (shiftMs === 0 ? e : { ...e, commence_time: new Date(Date.parse(e.commence_time as string) + shiftMs).toISOString() })),
  }));
  // The box scores of the games just finished (ESPN's summary shape), so that the demo's props grade.
  const summaries: SourceDocument[] = simulators.flatMap((sim) =>
    sim.summariesAt(simNow).map((body) => {
      const header = body['header'] as { id: string; league: { slug: string }; competitions: Array<{ date: string }> };
      if (shiftMs !== 0) header.competitions[0]!.date = new Date(Date.parse(header.competitions[0]!.date) + shiftMs).toISOString();
      return { name: `simulator(seed ${seed}) box score ${header.id}@${now.toISOString()}`, fetchedAt: now, envelope: { source: 'espn/summary', league: header.league.slug, simulated: true }, body };
    }),
  );
  return [...props, ...summaries];
}

/** Moves every instant of a simulated document forward by `shiftMs` (game ids and clocks stay). */
function shiftDocument(doc: FeedDocument, shiftMs: number): FeedDocument {
  const shift = (iso: string): string => new Date(Date.parse(iso) + shiftMs).toISOString();
  const maybe = (iso: string | undefined): string | undefined => (iso === undefined ? undefined : shift(iso));
  const league = doc.league && {
    ...doc.league,
    pre_season_start: maybe(doc.league.pre_season_start),
    pre_season_end: maybe(doc.league.pre_season_end),
    reg_season_start: maybe(doc.league.reg_season_start),
    reg_season_end: maybe(doc.league.reg_season_end),
    post_season_start: maybe(doc.league.post_season_start),
    post_season_end: maybe(doc.league.post_season_end),
    blacklist_dates: doc.league.blacklist_dates?.map(shift),
    updated_at: maybe(doc.league.updated_at),
  };
  return { ...doc, league, games: doc.games.map((game) => ({ ...game, start_time: shift(game.start_time) })) };
}

/** How the simulated feed of `odds serve --simulate` keeps time (SIMULATOR_CLOCK). */
export type SimulatorClock = 'demo' | 'real';
export const SIMULATOR_CLOCKS: readonly SimulatorClock[] = ['demo', 'real'];

/** Games per league slate are sampled this often when looking for the busiest moment of a day. */
const SAMPLE_MS = 5 * 60_000;
/** How far back the demo looks for a day with games (the longest gap between seasons is shorter). */
const DEMO_SEARCH_DAYS = 120;

/**
 * The shift (SimulationOptions.shiftMs) that puts the demo slate mid-game at `startedAt`, whatever
 * the hour: the simulated clock is set to the busiest moment (most games being played, the earliest
 * such moment) of the most recent simulated evening that has already reached it, so the demo starts
 * with games in progress and keeps them for the rest of that evening (about three hours of live play,
 * then the slates follow at their usual pace). 0 when the wall clock is itself at that moment.
 */
export function demoClockShift(startedAt: Date, options: Pick<SimulationOptions, 'seed' | 'timeZone'>): number {
  const today = localDateOf(startedAt, options.timeZone);
  for (let back = 0; back <= DEMO_SEARCH_DAYS; back++) {
    const day = addDays(today, -back);
    const busiest = busiestMoment(day, options);
    // Whole minutes, so that shifted start times stay on the minute as real ones are.
    if (busiest !== undefined && busiest <= startedAt.getTime()) return Math.floor((startedAt.getTime() - busiest) / 60_000) * 60_000;
  }
  return 0;
}

/** The earliest instant of a local day's slate with the most games in play, or undefined without games. */
function busiestMoment(day: string, options: Pick<SimulationOptions, 'seed' | 'timeZone'>): number | undefined {
  const games = createSimulator({ seed: options.seed, startDate: day, days: 0, timeZone: options.timeZone })
    .scheduleGames()
    .map((g) => ({ from: Date.parse(g.tip_off_at), to: Date.parse(g.final_at) }));
  if (games.length === 0) return undefined;
  let best: number | undefined;
  let bestCount = 0;
  const first = Math.min(...games.map((g) => g.from));
  const last = Math.max(...games.map((g) => g.to));
  for (let t = first; t < last; t += SAMPLE_MS) {
    const count = games.filter((g) => g.from <= t && t < g.to).length;
    if (count > bestCount) [best, bestCount] = [t, count];
  }
  return best;
}

/**
 * Instants to replay before `now` when a simulated store starts empty, so that opening lines, line
 * movement and history have something to show: every `stepMinutes` over the last `hours`.
 */
export function backfillInstants(now: Date, hours = 6, stepMinutes = 60): Date[] {
  const out: Date[] = [];
  for (let t = now.getTime() - hours * 3_600_000; t < now.getTime(); t += stepMinutes * 60_000) out.push(new Date(t));
  return out;
}
