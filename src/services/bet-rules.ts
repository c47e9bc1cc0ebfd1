import { marketTypeDefinition, PROP_TYPES, propMarketOf, type LiveMarketType, type Side, type StoredMarketType } from '../domain';
import { invalidParameter } from './arguments';

// The rules of a bet given to betClv / gradeBets (REST: POST /odds/clv and /odds/grade), written
// once. Field names in messages are the REST body's (snake_case), as every argument message is.
// Sides, periods and the kind of line come from the market-type table (src/domain/market-types.ts),
// so a prop bet is checked by the same rules as a game bet.

/** Most bets one request may carry (CLV). */
export const MAX_BETS = 500;

/**
 * Most bets one grading request may carry: a bettor's whole history (grading reads two statements
 * for every prop bet, whatever their number; bench/grade-props.js measures 10,000).
 */
export const MAX_GRADED_BETS = 10_000;

/** Largest |American price| accepted (a 1000-to-1 shot is +100000). */
export const MAX_AMERICAN = 100_000;

/** Largest |spread| and total (also a player's line) accepted. */
const MAX_SPREAD = 100;
const MAX_TOTAL = 500;

/** Throws unless there are 1 to `max` bets. @throws AppError BAD_REQUEST */
export function checkBetCount(count: number, max = MAX_BETS): void {
  if (count < 1 || count > max) throw invalidParameter('bets', `must hold 1 to ${max} bets, got ${count}`);
}

/** A bet as both inputs share it, market/period/side in lower case. */
export interface BetKey {
  marketType: LiveMarketType;
  propType?: string | null | undefined;
  playerId?: number | null | undefined;
  period: string;
  side: Side;
  line: number | null | undefined;
}

/**
 * Checks a bet against its market and returns the stored market type it is on (a prop bet's is its
 * prop's: player_points, ...). A prop bet names `prop_type` and `player_id` (a game bet neither);
 * its period is one the market is stored for; its side is one of the market's two; its line is
 * absent on a market without one (moneyline, yes/no props), else a multiple of 0.5: |line| <= 100 on
 * spreads, 0 < line <= 500 on totals and props. Whether the game, book and player exist is the
 * caller's (it reads them).
 * @throws AppError BAD_REQUEST naming `bets[i].<field>`
 */
export function checkBet(i: number, bet: BetKey): StoredMarketType {
  const field = (name: string) => `bets[${i}].${name}`;
  let stored: StoredMarketType;
  // What the messages call the market: "a spread bet", "a points prop bet".
  let what: string;
  if (bet.marketType === 'player_props') {
    if (bet.propType === null || bet.propType === undefined) throw invalidParameter(field('prop_type'), 'is required on a player_props bet');
    const prop = propMarketOf(bet.propType);
    if (!prop) throw invalidParameter(field('prop_type'), `must be one of ${PROP_TYPES.join(', ')}`);
    if (bet.playerId === null || bet.playerId === undefined) throw invalidParameter(field('player_id'), 'is required on a player_props bet');
    if (!Number.isInteger(bet.playerId) || bet.playerId < 1) throw invalidParameter(field('player_id'), 'must be an integer player id');
    stored = prop;
    what = `${bet.propType} prop`;
  } else {
    if (bet.propType !== null && bet.propType !== undefined) throw invalidParameter(field('prop_type'), 'is only taken on a player_props bet');
    if (bet.playerId !== null && bet.playerId !== undefined) throw invalidParameter(field('player_id'), 'is only taken on a player_props bet');
    stored = bet.marketType;
    what = bet.marketType;
  }
  const definition = marketTypeDefinition(stored);
  if (!(definition.periods as readonly string[]).includes(bet.period)) throw invalidParameter(field('period'), `must be ${definition.periods.join(', ')} on a ${what} bet`);
  if (!definition.sides.includes(bet.side)) throw invalidParameter(field('side'), `must be one of ${definition.sides.join(', ')} for a ${what} bet`);
  const line = bet.line;
  if (definition.line === 'none') {
    if (line !== null && line !== undefined) throw invalidParameter(field('line'), `must be absent on a ${what} bet`);
    return stored;
  }
  if (line === null || line === undefined) throw invalidParameter(field('line'), `is required on a ${what} bet`);
  if (!Number.isFinite(line) || !Number.isInteger(line * 2)) throw invalidParameter(field('line'), 'must be a multiple of 0.5');
  if (definition.line === 'handicap' && Math.abs(line) > MAX_SPREAD) throw invalidParameter(field('line'), `must be from -${MAX_SPREAD} to ${MAX_SPREAD} on a ${what} bet`);
  if (definition.line === 'over_under' && (line <= 0 || line > MAX_TOTAL)) throw invalidParameter(field('line'), `must be above 0 and at most ${MAX_TOTAL} on a ${what} bet`);
  return stored;
}

/** Checks an American price: an integer with 100 <= |price| <= MAX_AMERICAN. @throws AppError BAD_REQUEST */
export function checkPrice(i: number, price: number): void {
  if (!Number.isInteger(price) || Math.abs(price) < 100 || Math.abs(price) > MAX_AMERICAN) {
    throw invalidParameter(`bets[${i}].price`, `must be American odds: an integer from -${MAX_AMERICAN} to -100 or from 100 to ${MAX_AMERICAN}`);
  }
}
