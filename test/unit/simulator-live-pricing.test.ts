import { normalCdf, PUBLISHED_STD_DEV } from '../../src/domain';
import { BOOK_ID_PINNACLE, LEAGUE_ID_NBA } from '../../src/ingest/reference-data';
import { createSimulator } from '../../src/ingest/simulator';
import { SIM_BOOKS } from '../../src/ingest/simulator/books';
import { LIVE_MONEYLINE_MAX_PROBABILITY } from '../../src/ingest/simulator/pricing';

// The demo's live prices against the win-probability model they come from (Stern 1994,
// src/domain/win-probability.ts): over 10 minutes of every NBA game of a day, at the simulator's
// 5-second step, at the start and at the end of each game. A book's moneyline is turned back into the
// final margin it implies; the model's margin is the lead plus the time left times the pregame margin
// (the sharp book's closing spread). The two may differ only by the book's own bounded disagreement
// with the fair line, so a moneyline never jumps by more than the change of lead and time allows.

const SIGMA = PUBLISHED_STD_DEV.NBA.spread; // the simulator's world runs on the published values
const QUARTER_S = 12 * 60;
const STEP_MS = 5_000;
const WINDOW_MS = 10 * 60_000;
const MAX_SHIFT = 2.5 * Math.max(...SIM_BOOKS.map((b) => b.lineNoise)); // pricing.ts cuts a book's shift at 2.5 SDs
const PREGAME_ERROR = 0.25 + 2.5 * SIM_BOOKS.find((b) => b.id === BOOK_ID_PINNACLE)!.lineNoise; // half-point rounding + the sharp book's shift
const ROUNDING = 0.5; // prices rounded to 5 and 50 cents, seen as margin

const implied = (a: number) => (a > 0 ? 100 / (a + 100) : -a / (-a + 100));
/** Phi^-1 by bisection (the model's own normal CDF). */
function probit(p: number): number {
  let lo = -10;
  let hi = 10;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (normalCdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

interface Seen {
  /** Model margin (lead + r * pregame margin) and the book's implied margin, per book. */
  model: number;
  books: Map<number, number>;
}

const sim = createSimulator({ seed: 42, startDate: '2026-11-22', days: 0 });
const games = sim.scheduleGames().filter((g) => g.league_id === LEAGUE_ID_NBA);

/** What the feed shows of one game at `ms`: the state, each book's live moneyline margin, and checks of one book's markets. */
function observe(gameId: number, ms: number, pregameMargin: number | undefined, out: { suspended: number; lopsided: number; consistency: number[] }): Seen | undefined {
  const game = sim.gameAt(gameId, new Date(ms)) as any;
  const box = game?.boxscore;
  if (!game || game.status !== 'inprogress' || !box || box.period > 4 || pregameMargin === undefined) return undefined;
  const [m, sec] = String(box.clock).split(':').map(Number);
  const r = ((4 - box.period) * QUARTER_S + m! * 60 + sec!) / (4 * QUARTER_S);
  const lead = box.total_home_points - box.total_away_points;
  const sd = Math.max(SIGMA * Math.sqrt(r), 0.6);
  const model = lead + r * pregameMargin;
  const books = new Map<number, number>();
  for (const [bookKey, periods] of Object.entries<any>(game.markets ?? {})) {
    const bookId = Number(bookKey);
    const live = (type: string) => ((periods.event?.[type] ?? []) as any[]).filter((o) => o.is_live);
    const ml = live('moneyline');
    const liveAny = ['spread', 'total', 'moneyline'].some((t) => live(t).length > 0);
    if (!liveAny && SIM_BOOKS.find((b) => b.id === bookId)?.offersLive) out.suspended++;
    if (ml.length === 0) {
      if (live('spread').length > 0) out.lopsided++;
      continue;
    }
    const home = implied(ml.find((o) => o.side === 'home').odds);
    const away = implied(ml.find((o) => o.side === 'away').odds);
    const p = home - (home + away - 1) / 2; // the books add half their margin to each side
    const margin = probit(p) * sd;
    books.set(bookId, margin);
    // One book's spread says the same game as its moneyline (half-point lines: no push).
    const spreadHome = live('spread').find((o) => o.side === 'home' && !Number.isInteger(o.value));
    if (spreadHome) {
      const spreadAway = live('spread').find((o) => o.side === 'away');
      const ph = implied(spreadHome.odds);
      const pa = implied(spreadAway.odds);
      out.consistency.push(Math.abs(-spreadHome.value + probit(ph - (ph + pa - 1) / 2) * sd - margin));
    }
  }
  return { model, books };
}

describe('the demo\'s live moneylines and the win-probability model', () => {
  const jumps: { excess: number; at: string }[] = [];
  const deviations: number[] = [];
  const out = { suspended: 0, lopsided: 0, consistency: [] as number[] };
  let pairs = 0;

  beforeAll(() => {
    expect(games.length).toBeGreaterThan(3);
    for (const g of games) {
      const tip = Date.parse(g.tip_off_at);
      // The pregame number: minus the sharp book's closing home spread (its quote at tip).
      const atTip = sim.gameAt(g.id, new Date(tip + 1000)) as any;
      const closing = (atTip?.markets?.[String(BOOK_ID_PINNACLE)]?.event?.spread ?? []).find((o: any) => !o.is_live && o.side === 'home');
      const pregameMargin = closing ? -closing.value : undefined;
      for (const from of [tip + 60_000, Date.parse(g.final_at) - WINDOW_MS - 60_000]) {
        let previous: Seen | undefined;
        for (let ms = from; ms <= from + WINDOW_MS; ms += STEP_MS) {
          const seen = observe(g.id, ms, pregameMargin, out);
          if (seen) for (const m of seen.books.values()) deviations.push(Math.abs(m - seen.model));
          if (seen && previous) {
            for (const [book, m] of seen.books) {
              const before = previous.books.get(book);
              if (before === undefined) continue;
              pairs++;
              // The book's move minus the model's move: only its own disagreement may change in between.
              const excess = Math.abs(m - before - (seen.model - previous.model));
              jumps.push({ excess, at: `game ${g.id} book ${book} ${new Date(ms).toISOString()}` });
            }
          }
          previous = seen;
        }
      }
    }
  });

  test('when prices are compared 5 seconds apart, then no moneyline moves more than the change of lead and time allows', () => {
    expect(pairs).toBeGreaterThan(1000);
    const worst = jumps.reduce((a, b) => (b.excess > a.excess ? b : a));
    expect(worst.excess).toBeLessThanOrEqual(2 * MAX_SHIFT + ROUNDING);
  });

  test('when any live moneyline is read, then it implies the model\'s margin within the book\'s bounded disagreement', () => {
    expect(Math.max(...deviations)).toBeLessThanOrEqual(MAX_SHIFT + PREGAME_ERROR + ROUNDING);
  });

  test('when a book quotes a live spread beside its moneyline, then both imply the same margin', () => {
    expect(out.consistency.length).toBeGreaterThan(100);
    expect(Math.max(...out.consistency)).toBeLessThanOrEqual(0.75);
  });

  test('when a game is lopsided or a run is scored, then the books take the moneyline off or suspend for a moment', () => {
    expect(out.lopsided).toBeGreaterThan(0);
    expect(out.suspended).toBeGreaterThan(0);
  });

  test('then no live moneyline is priced beyond the lopsided limit (no -9900 against +2400)', () => {
    for (const g of games) {
      const game = sim.gameAt(g.id, new Date(Date.parse(g.final_at) - 30_000)) as any;
      for (const periods of Object.values<any>(game?.markets ?? {})) {
        for (const o of (periods.event?.moneyline ?? []) as any[]) {
          if (o.is_live) expect(implied(o.odds)).toBeLessThan(LIVE_MONEYLINE_MAX_PROBABILITY + 0.05);
        }
      }
    }
  });
});
