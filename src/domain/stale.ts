/**
 * When a book's quote should not be trusted for value or arbitrage signals: it has not been refreshed
 * recently enough for the game's state, or it sits implausibly far from the rest of the market
 * (typically a line the book has not moved yet, or a data error).
 */

/** A pregame quote older than this is stale: pregame lines move slowly, books refresh within minutes. */
export const PREGAME_STALE_AFTER_MS = 15 * 60 * 1000;

/** A live quote older than this is stale: in-game prices change with every possession. */
export const LIVE_STALE_AFTER_MS = 60 * 1000;

/** A quote whose probability differs from the consensus by more than this (absolute) is stale. */
export const CONSENSUS_DEVIATION_THRESHOLD = 0.08;

export interface StalenessInput {
  /** When the quote was last seen unchanged or refreshed at the book. */
  seenAt: Date;
  now: Date;
  isLive: boolean;
  /** The quote's (de-vigged) probability for the outcome. */
  probability: number;
  /** The market consensus for the same outcome; null/undefined when there is none to compare with. */
  consensusProbability?: number | null;
}

/**
 * True when the quote is stale: its age (now - seenAt) exceeds LIVE_STALE_AFTER_MS for live games or
 * PREGAME_STALE_AFTER_MS otherwise (an age exactly at the limit is still fresh; a seenAt in the future,
 * i.e. clock skew, counts as fresh; an invalid Date is stale), or |probability - consensusProbability|
 * exceeds CONSENSUS_DEVIATION_THRESHOLD (exactly 0.08 is still fresh). Missing or non-finite consensus skips the deviation check.
 */
export function isStale(input: StalenessInput): boolean {
  const { seenAt, now, isLive, probability, consensusProbability } = input;
  const ageMs = now.getTime() - seenAt.getTime();
  const maxAgeMs = isLive ? LIVE_STALE_AFTER_MS : PREGAME_STALE_AFTER_MS;
  // A NaN age (invalid Date) cannot prove freshness.
  if (!(ageMs <= maxAgeMs)) return true;
  if (consensusProbability === null || consensusProbability === undefined || !Number.isFinite(consensusProbability)) {
    return false;
  }
  // The epsilon keeps a deviation of exactly 0.08 fresh whichever way the subtraction rounds.
  return Math.abs(probability - consensusProbability) > CONSENSUS_DEVIATION_THRESHOLD + 1e-12;
}
