// Crafted upstream documents for the live, movement and historical tests: one game, a few books, the
// prices each test wants, stamped with the fetched_at the test chooses.
import type { SourceDocument } from '../../src/ingest/sources';

export const HOME = 9001;
export const AWAY = 9002;

export interface BookPrices {
  /** [home point, home price, away price]; the away point is the opposite. */
  spread?: [number, number, number];
  /** [home price, away price]. */
  moneyline?: [number, number];
  /** [total, over price, under price]. */
  total?: [number, number, number];
  /** The same markets quoted in-game (is_live outcomes). */
  live?: Omit<BookPrices, 'live'>;
  /** first_half spread, same layout as spread. */
  firstHalfSpread?: [number, number, number];
}

export interface GameSpec {
  id: number;
  status: 'scheduled' | 'inprogress' | 'complete';
  start: string;
  books: Record<number, BookPrices>;
  home?: number;
  away?: number;
}

function outcomes(prices: Omit<BookPrices, 'live'>, isLive: boolean, home: number, away: number, bookId: number) {
  const out: Record<string, unknown[]> = {};
  const o = (side: string, odds: number, value: number | null, teamId: number | null) => ({
    book_id: bookId,
    side,
    odds,
    ...(value !== null && { value }),
    ...(teamId !== null && { team_id: teamId }),
    is_live: isLive,
  });
  if (prices.spread) out.spread = [o('home', prices.spread[1], prices.spread[0], home), o('away', prices.spread[2], -prices.spread[0], away)];
  if (prices.moneyline) out.moneyline = [o('home', prices.moneyline[0], null, home), o('away', prices.moneyline[1], null, away)];
  if (prices.total) out.total = [o('over', prices.total[1], prices.total[0], null), o('under', prices.total[2], prices.total[0], null)];
  return out;
}

/** One feed game with its markets per book. */
export function feedGame(spec: GameSpec): Record<string, unknown> {
  const home = spec.home ?? HOME;
  const away = spec.away ?? AWAY;
  const markets: Record<string, Record<string, Record<string, unknown[]>>> = {};
  for (const [bookKey, prices] of Object.entries(spec.books)) {
    const bookId = Number(bookKey);
    const event = outcomes(prices, false, home, away, bookId);
    if (prices.live) {
      for (const [type, list] of Object.entries(outcomes(prices.live, true, home, away, bookId))) event[type] = [...(event[type] ?? []), ...list];
    }
    markets[bookKey] = { event };
    if (prices.firstHalfSpread) markets[bookKey]!.firsthalf = outcomes({ spread: prices.firstHalfSpread }, false, home, away, bookId);
  }
  const real = spec.status === 'complete' ? 'complete' : spec.status;
  return {
    id: spec.id,
    league_id: 4,
    status: spec.status,
    real_status: real,
    status_display: spec.status === 'inprogress' ? '2nd 05:00' : null,
    start_time: spec.start,
    away_team_id: away,
    home_team_id: home,
    teams: [
      { id: away, full_name: `Away Team ${away}`, abbr: `A${away % 100}` },
      { id: home, full_name: `Home Team ${home}`, abbr: `H${home % 100}` },
    ],
    boxscore: spec.status === 'scheduled' ? null : { clock: '05:00', period: 2, total_home_points: 50, total_away_points: 48 },
    markets,
  };
}

/** A capture of `games` seen at `fetchedAt`, ready for ingestDocuments. */
export function capture(fetchedAt: string, ...games: GameSpec[]): SourceDocument {
  return { name: `crafted@${fetchedAt}`, fetchedAt: new Date(fetchedAt), body: { games: games.map(feedGame) } };
}

/** Resolves when `predicate` holds (polled), or rejects after `timeoutMs` naming `what`. */
export async function waitFor(what: string, predicate: () => boolean, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
