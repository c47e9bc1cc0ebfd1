import { SIDES_BY_MARKET, type MarketType, type Side } from '../domain';
import { invalidParameter } from './arguments';

// The rules of a bet given to betClv / gradeBets (REST: POST /odds/clv and /odds/grade), written
// once. Field names in messages are the REST body's (snake_case), as every argument message is.

/** Most bets one request may carry. */
export const MAX_BETS = 500;

/** Largest |American price| accepted (a 1000-to-1 shot is +100000). */
export const MAX_AMERICAN = 100_000;

/** Largest |spread| and total accepted. */
const MAX_SPREAD = 100;
const MAX_TOTAL = 500;

/** Throws unless there are 1 to MAX_BETS bets. @throws AppError BAD_REQUEST */
export function checkBetCount(count: number): void {
  if (count < 1 || count > MAX_BETS) throw invalidParameter('bets', `must hold 1 to ${MAX_BETS} bets, got ${count}`);
}

/** A bet as both inputs share it, market/period/side in lower case. */
export interface BetKey {
  marketType: MarketType;
  side: Side;
  line: number | null | undefined;
}

/**
 * Checks a bet's side against its market and its line against the market: none on a moneyline,
 * a multiple of 0.5 on spreads (|line| <= 100) and totals (0 < line <= 500).
 * @throws AppError BAD_REQUEST naming `bets[i].<field>`
 */
export function checkBet(i: number, bet: BetKey): void {
  const sides = SIDES_BY_MARKET[bet.marketType];
  if (!sides.includes(bet.side)) throw invalidParameter(`bets[${i}].side`, `must be one of ${sides.join(', ')} for a ${bet.marketType} bet`);
  const line = bet.line;
  if (bet.marketType === 'moneyline') {
    if (line !== null && line !== undefined) throw invalidParameter(`bets[${i}].line`, 'must be absent on a moneyline bet');
    return;
  }
  if (line === null || line === undefined) throw invalidParameter(`bets[${i}].line`, `is required on a ${bet.marketType} bet`);
  if (!Number.isFinite(line) || !Number.isInteger(line * 2)) throw invalidParameter(`bets[${i}].line`, 'must be a multiple of 0.5');
  if (bet.marketType === 'spread' && Math.abs(line) > MAX_SPREAD) throw invalidParameter(`bets[${i}].line`, `must be from -${MAX_SPREAD} to ${MAX_SPREAD} on a spread bet`);
  if (bet.marketType === 'total' && (line <= 0 || line > MAX_TOTAL)) throw invalidParameter(`bets[${i}].line`, `must be above 0 and at most ${MAX_TOTAL} on a total bet`);
}

/** Checks an American price: an integer with 100 <= |price| <= MAX_AMERICAN. @throws AppError BAD_REQUEST */
export function checkPrice(i: number, price: number): void {
  if (!Number.isInteger(price) || Math.abs(price) < 100 || Math.abs(price) > MAX_AMERICAN) {
    throw invalidParameter(`bets[${i}].price`, `must be American odds: an integer from -${MAX_AMERICAN} to -100 or from 100 to ${MAX_AMERICAN}`);
  }
}
