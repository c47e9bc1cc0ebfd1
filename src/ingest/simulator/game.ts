import type { FeedBoxscore, FeedLinescorePeriod } from '../feeds/actionnetwork/schema';
import { pad2 } from './calendar';
import { at, sum } from './numbers';
import type { GamePlan } from './schedule';

// A game at an instant: its phase, clock and points so far, as the status triple and the boxscore
// of the feed. Pure function of (plan, instant).

// ---------------------------------------------------------------------------------------------------
// Game state at an instant

export type Phase = 'scheduled' | 'created' | 'period' | 'break' | 'halftime' | 'final' | 'closed';

export interface GameState {
  phase: Phase;
  /** Current period (1-based); for breaks the period about to start; when final the last period. */
  period: number;
  /** Seconds left on the clock of the current period. */
  secondsLeft: number;
  /** Points so far per started period (index = period - 1). */
  away: number[];
  home: number[];
}

export function periodSeconds(plan: GamePlan, period: number): number {
  const regulation = plan.model.quarterRealMinutes.length;
  return (period <= regulation ? plan.league.period_minutes : plan.league.overtime_minutes) * 60;
}

export function stateAt(plan: GamePlan, now: number): GameState {
  if (now < plan.createdMs) return { phase: 'scheduled', period: 1, secondsLeft: periodSeconds(plan, 1), away: [], home: [] };
  if (now < plan.tipMs) return { phase: 'created', period: 1, secondsLeft: periodSeconds(plan, 1), away: [], home: [] };
  const last = plan.periodHome.length;
  if (now >= plan.endMs) {
    return {
      phase: now >= plan.closedMs ? 'closed' : 'final',
      period: last,
      secondsLeft: 0,
      away: [...plan.periodAway],
      home: [...plan.periodHome],
    };
  }
  const seg = plan.segments.find((s) => now >= s.start && now < s.end) ?? at(plan.segments, plan.segments.length - 1);
  const away: number[] = [];
  const home: number[] = [];
  const completed = seg.kind === 'period' ? seg.period - 1 : seg.period - 1;
  for (let p = 1; p <= completed; p++) {
    away.push(at(plan.periodAway, p - 1));
    home.push(at(plan.periodHome, p - 1));
  }
  if (seg.kind === 'break') {
    if (seg.halftime) return { phase: 'halftime', period: seg.period - 1, secondsLeft: 0, away, home };
    // Between quarters the feed already shows the next period, full clock, 0 points.
    away.push(0);
    home.push(0);
    return { phase: 'break', period: seg.period, secondsLeft: periodSeconds(plan, seg.period), away, home };
  }
  const frac = (now - seg.start) / (seg.end - seg.start);
  let pa = 0;
  let ph = 0;
  for (const e of at(plan.events, seg.period - 1)) {
    if (e.t > frac) break;
    if (e.home) ph += e.points;
    else pa += e.points;
  }
  away.push(pa);
  home.push(ph);
  const full = periodSeconds(plan, seg.period);
  return { phase: 'period', period: seg.period, secondsLeft: Math.max(0, Math.ceil(full * (1 - frac))), away, home };
}



export function periodName(plan: GamePlan, period: number): { abbr: string; display: string; full: string } {
  const regulation = plan.model.quarterRealMinutes.length;
  if (period <= regulation) {
    const ord = at(['1st', '2nd', '3rd', '4th'], period - 1);
    return { abbr: String(period), display: ord, full: `${ord} Quarter` };
  }
  const ot = period - regulation;
  if (ot === 1) return { abbr: 'OT', display: 'OT', full: 'Overtime' };
  const ord = ot === 2 ? '2nd' : ot === 3 ? '3rd' : `${String(ot)}th`;
  return { abbr: `${String(ot)}OT`, display: `${String(ot)}OT`, full: `${ord} Overtime` };
}

export function statusOf(plan: GamePlan, s: GameState): { status: string; real: string; display: string | null } {
  switch (s.phase) {
    case 'scheduled':
      return { status: 'scheduled', real: 'scheduled', display: null };
    case 'created':
      return { status: 'scheduled', real: 'created', display: null };
    case 'halftime':
      return { status: 'inprogress', real: 'halftime', display: 'Half' };
    case 'period':
    case 'break': {
      const m = Math.floor(s.secondsLeft / 60);
      return { status: 'inprogress', real: 'inprogress', display: `${periodName(plan, s.period).display} ${String(m)}:${pad2(s.secondsLeft % 60)}` };
    }
    case 'final':
    case 'closed': {
      const ot = plan.periodHome.length - plan.model.quarterRealMinutes.length;
      const display = ot === 0 ? 'Final' : ot === 1 ? 'Final - OT' : `Final - ${String(ot)}OT`;
      return { status: 'complete', real: s.phase === 'final' ? 'complete' : 'closed', display };
    }
  }
}

export function boxscoreOf(plan: GamePlan, s: GameState): FeedBoxscore | undefined {
  if (s.phase === 'scheduled') return undefined;
  const regulation = plan.model.quarterRealMinutes.length;
  const shown = Math.max(regulation, s.home.length);
  const linescore: FeedLinescorePeriod[] = [];
  for (let p = 1; p <= shown; p++) {
    const n = periodName(plan, p);
    linescore.push({
      id: p,
      abbr: n.abbr,
      display_name: n.display,
      full_name: n.full,
      away_points: s.away[p - 1] ?? null,
      home_points: s.home[p - 1] ?? null,
    });
  }
  const half = regulation / 2;
  // Key order as upstream; second-half totals include overtime.
  return {
    clock: `${pad2(Math.floor(s.secondsLeft / 60))}:${pad2(s.secondsLeft % 60)}`,
    period: s.period,
    linescore,
    total_away_points: sum(s.away),
    total_home_points: sum(s.home),
    ...(s.phase === 'halftime' ? { halftime: true } : {}),
    total_away_firsthalf_points: sum(s.away.slice(0, half)),
    total_home_firsthalf_points: sum(s.home.slice(0, half)),
    total_away_secondhalf_points: sum(s.away.slice(half)),
    total_home_secondhalf_points: sum(s.home.slice(half)),
    total_away_firstfive_points: 0,
  };
}
