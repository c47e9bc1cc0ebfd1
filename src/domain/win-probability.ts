import { normalCdf } from './normal';

// The in-game model of a basketball margin (Stern, "A Brownian Motion Model for the Progress of Sports
// Scores", JASA 89, 1994): the home margin is a Brownian motion with drift mu (the pregame expected
// margin, per game) and variance sigma^2 per game. With a share r of the game left and the home team
// leading by l, the final margin is normal with mean l + r*mu and standard deviation sigma*sqrt(r), so
//   P(home wins) = Phi((l + r*mu) / (sigma * sqrt(r))).
// At r = 1 this is the pregame Phi(mu / sigma); sigma is the league's standard deviation of the final
// margin around the closing line (MARGIN_STD_DEV / PUBLISHED_STD_DEV of key-numbers.ts).

export interface LiveMarginInput {
  /** Home points minus away points so far. */
  lead: number;
  /** Share of regulation still to play, 0 (over) to 1 (tip). */
  timeLeft: number;
  /** The pregame expected home margin over a whole game (minus the closing home spread). */
  pregameMargin: number;
  /** Standard deviation of the final margin over a whole game. */
  sd: number;
}

/** The final home margin's mean and standard deviation given the state (sd 0 when no time is left). */
export function liveMarginDistribution(input: LiveMarginInput): { mean: number; sd: number } {
  const r = Math.min(1, Math.max(0, input.timeLeft));
  return { mean: input.lead + r * input.pregameMargin, sd: input.sd * Math.sqrt(r) };
}

/**
 * P(home wins) under Stern's model, ties (overtime) excluded as a coin flip: with no time left a lead
 * is 1 or 0 and a tie 0.5.
 */
export function liveWinProbability(input: LiveMarginInput): number {
  const { mean, sd } = liveMarginDistribution(input);
  if (sd === 0) return mean > 0 ? 1 : mean < 0 ? 0 : 0.5;
  return normalCdf(mean / sd);
}
