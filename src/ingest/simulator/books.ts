import { BOOK_ID_CONSENSUS, BOOK_ID_OPEN, BOOK_ID_PINNACLE, sportsbookById } from '../reference-data';

// The books the simulator quotes. Only books the reference data names (reference-data.ts): a
// simulated book never shows up under an invented or unknown name.

export interface SimBook {
  id: number;
  /** Two-way pregame margin (sum of implied probabilities - 1). */
  margin: number;
  liveMargin: number;
  /** Standard deviation (points) of the book's disagreement with the fair spread. */
  lineNoise: number;
  /** Upstream `book_parent_id` where the samples show it, else the book id itself. */
  parentId: number;
  offersLive: boolean;
  /** How long (ms) its live markets stay suspended after a scoring run (pricing.ts suspendedForRun). */
  runHoldMs: number;
  deeplinks: boolean;
  /** Outcome ids: slot in market_id * 100 + slot * 2 + side. Consensus and Open share slot 0 (as upstream). */
  slot: number;
}

// Margins and line noise: the sharp book (Pinnacle) is the tightest (smallest margin, closest to the
// fair line, first back after a run); the retail books carry more margin and wander further.
export const SIM_BOOKS: readonly SimBook[] = [
  { id: BOOK_ID_CONSENSUS, margin: 0.045, liveMargin: 0.055, lineNoise: 0, parentId: 18, runHoldMs: 15_000, offersLive: true, deeplinks: false, slot: 0 },
  { id: BOOK_ID_OPEN, margin: 0.045, liveMargin: 0.055, lineNoise: 0, parentId: 0, runHoldMs: 15_000, offersLive: false, deeplinks: false, slot: 0 },
  { id: 68, margin: 0.045, liveMargin: 0.06, lineNoise: 0.35, parentId: 10, runHoldMs: 12_000, offersLive: true, deeplinks: true, slot: 1 },
  { id: 69, margin: 0.043, liveMargin: 0.058, lineNoise: 0.35, parentId: 69, runHoldMs: 12_000, offersLive: true, deeplinks: true, slot: 2 },
  { id: 75, margin: 0.048, liveMargin: 0.065, lineNoise: 0.4, parentId: 75, runHoldMs: 20_000, offersLive: true, deeplinks: true, slot: 3 },
  { id: 123, margin: 0.047, liveMargin: 0.065, lineNoise: 0.4, parentId: 123, runHoldMs: 20_000, offersLive: true, deeplinks: true, slot: 4 },
  { id: 71, margin: 0.05, liveMargin: 0.065, lineNoise: 0.45, parentId: 71, runHoldMs: 25_000, offersLive: true, deeplinks: true, slot: 5 },
  { id: 79, margin: 0.044, liveMargin: 0.06, lineNoise: 0.35, parentId: 13, runHoldMs: 15_000, offersLive: true, deeplinks: true, slot: 6 },
  { id: BOOK_ID_PINNACLE, margin: 0.022, liveMargin: 0.03, lineNoise: 0.15, parentId: BOOK_ID_PINNACLE, runHoldMs: 6_000, offersLive: true, deeplinks: true, slot: 7 },
];


for (const book of SIM_BOOKS) {
  // Fails at load, not in a demo: a simulated book must be a named sportsbook of the reference.
  if (!sportsbookById(book.id)?.name) throw new Error(`simulated book ${String(book.id)} has no name in reference-data.ts`);
}
