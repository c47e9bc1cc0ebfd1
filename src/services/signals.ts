import { gameIdsStarting } from '../db/odds-repository';
import { findSignals } from '../db/signal-repository';
import type { SignalKind } from '../domain';
import { dayOrToday, list } from './arguments';
import type { ReadContext } from './read-context';

// Line signals (docs/signals.md): read the signals the ingest stored (src/ingest/signals.ts detects them, src/db/signal-repository.ts stores them).
// Nothing is detected here. The plan gate (line movement's: signals are read from the same history)
// is the caller's.

/** A stored signal as read. */
export type SignalRow = Awaited<ReturnType<typeof findSignals>>[number];

/** What Query.lineSignals is asked for: the games of a day (default today) or these games, kinds, markets. */
export interface LineSignalsQuery {
  date?: string | null | undefined;
  gameId?: readonly number[] | null | undefined;
  kind?: readonly SignalKind[] | null | undefined;
  marketType?: readonly string[] | null | undefined;
}

/** The stored signals of the games asked for, newest first. */
export async function lineSignals(ctx: ReadContext, args: LineSignalsQuery): Promise<SignalRow[]> {
  let gameIds = list(args.gameId);
  if (!gameIds || args.date) {
    const range = dayOrToday(args.date, ctx.now, ctx.timeZone);
    gameIds = await gameIdsStarting(ctx.db.prisma, { from: range.from!, to: range.to! }, gameIds);
  }
  return findSignals(ctx.db.prisma, { gameIds, kinds: list(args.kind), marketTypes: list(args.marketType) });
}

/** The stored signals of `keys` (those one ingest announced). */
export const signalsByKeys = (ctx: Pick<ReadContext, 'db'>, keys: readonly string[]): Promise<SignalRow[]> => findSignals(ctx.db.prisma, { keys });
