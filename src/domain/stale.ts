import type { StaleReason } from './vocabulary';

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
  return staleReason(input) !== null;
}

/**
 * Why the quote is stale, the first that applies in STALE_REASONS order, or null when it is fresh:
 * not_confirmed and off_market are isStale's two rules; book_frozen when `bookFrozen` (isBookFrozen).
 */
export function staleReason(input: StalenessInput & { bookFrozen?: boolean }): StaleReason | null {
  const { seenAt, now, isLive, probability, consensusProbability } = input;
  const ageMs = now.getTime() - seenAt.getTime();
  const maxAgeMs = isLive ? LIVE_STALE_AFTER_MS : PREGAME_STALE_AFTER_MS;
  // A NaN age (invalid Date) cannot prove freshness.
  if (!(ageMs <= maxAgeMs)) return 'not_confirmed';
  // The epsilon keeps a deviation of exactly 0.08 fresh whichever way the subtraction rounds.
  const compared = consensusProbability !== null && consensusProbability !== undefined && Number.isFinite(consensusProbability);
  if (compared && Math.abs(probability - consensusProbability) > CONSENSUS_DEVIATION_THRESHOLD + 1e-12) return 'off_market';
  return input.bookFrozen ? 'book_frozen' : null;
}

/**
 * How long the other books must have kept moving after a book's last price move before that book
 * counts as stopped: in play, prices move with nearly every possession, so five minutes of the
 * market moving without it means the book froze its board (or its feed stopped), even though the
 * feed still carries (confirms) its old prices.
 */
export const FROZEN_BOOK_AFTER_MS = 5 * 60 * 1000;

export interface BookMovementInput {
  /** The game is being played. */
  gameLive: boolean;
  /** When the book's price last moved in the market (its newest price change). */
  bookLastMove: Date;
  /** When any other book's price last moved in the same market; null when there is no other book. */
  othersLastMove: Date | null;
}

/**
 * True when the book stopped moving while the game is played: another book's price moved more than
 * FROZEN_BOOK_AFTER_MS after this book's last move (exactly that long is not yet frozen). Depends
 * only on stored times, not on the clock, so it changes only when data does.
 */
export function isBookFrozen(input: BookMovementInput): boolean {
  if (!input.gameLive || input.othersLastMove === null) return false;
  return input.othersLastMove.getTime() - input.bookLastMove.getTime() > FROZEN_BOOK_AFTER_MS;
}
