import type { ClosingGap, CutoffSource } from './vocabulary';

// The closing line (docs/closing-and-grading.md): the last pregame price before the game went live.

/**
 * The instant closing prices must precede: the game's start time, or the first live price the
 * service captured for it when that came earlier (a game that started before its listed time).
 * A pregame price is closing only when it was seen strictly before this instant.
 */
export function closingCutoff(startTime: Date, firstLivePriceAt: Date | null): { at: Date; source: CutoffSource } {
  if (firstLivePriceAt && firstLivePriceAt < startTime) return { at: firstLivePriceAt, source: 'first_live_price' };
  return { at: startTime, source: 'start_time' };
}

/**
 * Why an outcome a book quoted has no closing price, or null when it has one. `gameFirstSeenAt` is
 * the earliest capture of the game (any book, any price); `hasClose` whether this outcome has a
 * pregame price seen before the cutoff.
 */
export function closingGap(hasClose: boolean, gameFirstSeenAt: Date | null, cutoff: Date): ClosingGap | null {
  if (hasClose) return null;
  if (!gameFirstSeenAt || gameFirstSeenAt >= cutoff) return 'no_capture_before_start';
  return 'not_quoted_before_start';
}
