import { LIVE_STATUSES, type NotBettableReason } from './vocabulary';

// Whether a price can be bet (issue 23). The feed keeps carrying a book's pregame prices after the
// game starts (the book no longer takes them) and its live prices after the game ends: listing them
// as profitable, as an arbitrage leg or as the best odds sends a bettor to a price that does not
// exist. Only bettable prices enter those signals; the others are still listed, marked.

/** What decides whether one price can be bet. */
export interface BettableInput {
  /** The book still lists the price. */
  isAvailable: boolean;
  /** A live (in-game) price, else a pregame one. */
  isLive: boolean;
  /** The game has started (is being played, or was). */
  gameStarted: boolean;
  /** The game is being played now. */
  gameInPlay: boolean;
  /** The price is stale (domain/stale.ts: not confirmed recently, off the market, or its book frozen). */
  stale: boolean;
}

/**
 * Why the price cannot be bet, the first reason of NOT_BETTABLE_REASONS that applies, or null when it
 * can: a pregame price is bettable until the game starts, a live price while the game is played, and
 * either only while the book lists it and it is fresh.
 */
export function notBettableReason(input: BettableInput): NotBettableReason | null {
  if (!input.isAvailable) return 'unavailable';
  if (!input.isLive && input.gameStarted) return 'game_started';
  if (input.isLive && !input.gameInPlay) return 'not_in_play';
  return input.stale ? 'stale' : null;
}

/**
 * Whether a game has started and whether it is being played, from its stored status (current
 * prices) or, at a past instant `asOf`, from its start time and whether it had a live price by then
 * (the status it had then is not kept). Any status but `scheduled` means started (live, finished,
 * postponed...): a book takes no pregame bet on it any more.
 */
export function gameTiming(game: { status: string; startTime: Date }, asOf?: { at: Date; hasLivePrice: boolean }): { started: boolean; inPlay: boolean } {
  if (asOf) {
    const started = asOf.at.getTime() >= game.startTime.getTime();
    return { started, inPlay: started && asOf.hasLivePrice };
  }
  return { started: game.status !== 'scheduled', inPlay: LIVE_STATUSES.includes(game.status) };
}
