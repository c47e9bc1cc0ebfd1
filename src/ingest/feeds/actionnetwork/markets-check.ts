import { inInt32 } from '../../feed-rows';

/**
 * A hand-written check of `game.markets` that is never more lenient than the zod schema's
 * (`FEED.markets` in schema.ts): true only when zod would accept the value too. Why: a document carries
 * thousands of outcomes, and zod walking and copying each of them was the largest part of the ingest's
 * own CPU after reading. When this says false the caller runs the zod schema on the whole document,
 * so every refusal keeps zod's first issue, path and message; this check only ever decides "certainly
 * valid". Anything it is unsure of (a non-plain object, a hole in an array) is "not sure": false.
 *
 * Keep it in step with `feedOutcomeSchema` (schema.ts): test/unit/feed-markets-check.test.ts mutates
 * every field of a real outcome and holds this check to never accept what zod refuses.
 */
export function marketsCertainlyValid(markets: unknown): boolean {
  if (markets === undefined || markets === null) return true;
  if (!isPlainRecord(markets)) return false;
  for (const bookKey in markets) {
    if (!Object.hasOwn(markets, bookKey)) return false;
    if (!BOOK_KEY.test(bookKey)) return false;
    const periods = markets[bookKey];
    if (!isPlainRecord(periods)) return false;
    for (const periodKey in periods) {
      if (!Object.hasOwn(periods, periodKey)) return false;
      const byType = periods[periodKey];
      if (!isPlainRecord(byType)) return false;
      for (const marketKey in byType) {
        if (!Object.hasOwn(byType, marketKey)) return false;
        const outcomes = byType[marketKey];
        if (!Array.isArray(outcomes)) return false;
        for (let i = 0; i < outcomes.length; i++) if (!outcomeValid(outcomes[i])) return false;
      }
    }
  }
  return true;
}

/** A book id key of `game.markets` (the schema's record key): stored in an `int` column, so at most nine digits. */
export const BOOK_KEY = /^\d{1,9}$/;

export type Rec = Record<string, unknown>;

/** A plain object (JSON's objects): what both `z.object` and `z.record` accept, and no more. */
export function isPlainRecord(v: unknown): v is Rec {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

export const isNullish = (v: unknown): boolean => v === undefined || v === null;
/** `z.number()` refuses NaN and the infinities. */
export const isNumber = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
/** The schema's integers: whole numbers in INT32. */
export const isInt = (v: unknown): boolean => Number.isInteger(v) && inInt32(v as number);
/** The schema's `odds`: a number in INT32 (stored rounded). */
const isOdds = (v: unknown): boolean => isNumber(v) && inInt32(v as number);

/** `feedOutcomeSchema` of the ingest (the fields the normaliser reads). */
function outcomeValid(o: unknown): boolean {
  if (!isPlainRecord(o)) return false;
  const id = o['outcome_id'];
  if (!(isNullish(id) || typeof id === 'string' || isNumber(id))) return false;
  if (!(isNullish(o['book_id']) || isInt(o['book_id']))) return false;
  if (typeof o['side'] !== 'string') return false;
  if (!(isNullish(o['team_id']) || isInt(o['team_id']))) return false;
  // nullable, not optional: an absent price is refused
  if (!(o['odds'] === null || isOdds(o['odds']))) return false;
  if (!(isNullish(o['value']) || isNumber(o['value']))) return false;
  if (!(isNullish(o['is_live']) || typeof o['is_live'] === 'boolean')) return false;
  if (!(isNullish(o['line_status']) || typeof o['line_status'] === 'string')) return false;
  if (!(isNullish(o['is_alt_market']) || typeof o['is_alt_market'] === 'boolean')) return false;
  const betInfo = o['bet_info'];
  if (isNullish(betInfo)) return true;
  if (!isPlainRecord(betInfo)) return false;
  return betFigureValid(betInfo['tickets']) && betFigureValid(betInfo['money']);
}

function betFigureValid(f: unknown): boolean {
  if (isNullish(f)) return true;
  if (!isPlainRecord(f)) return false;
  return isNullish(f['percent']) || isNumber(f['percent']);
}
