import { americanToDecimal, decimalToFractional, hasLine, InvalidOddsError, isOneOf, MARKET_TYPE_TABLE, MARKET_TYPES, SIDES_BY_MARKET, type MarketType, type StoredMarketType } from '../../../domain';
import type { PublicBettingRow, QuoteRow } from '../../feed-rows';
import { FeedDocumentError } from '../feed-document-error';
import { FEED_TEAM_TOTAL_KEY, type FeedGame, type FeedOutcome } from './schema';

// Per-market normalisers: `game.markets[book][period][marketType][]` outcomes to quote and
// public-betting rows. The feed's team totals (`core_bet_type_6_team_score`) become the core bet types
// home_team_total and away_team_total. Markets the service does not serve (alternate lines, props,
// other keys) are skipped, not rejected.

/** Upstream period keys and the spec's names for them; other keys pass through lower-cased. */
const PERIODS: ReadonlyMap<string, string> = new Map([
  ['event', 'full_game'],
  ['game', 'full_game'],
  ['firsthalf', 'first_half'],
  ['secondhalf', 'second_half'],
  ['firstquarter', 'first_quarter'],
  ['secondquarter', 'second_quarter'],
  ['thirdquarter', 'third_quarter'],
  ['fourthquarter', 'fourth_quarter'],
]);

/** The spec's name of an upstream period key (a Map: a key such as `constructor` is no object's property here). */
function periodOf(periodKey: string): string {
  const known = PERIODS.get(periodKey);
  if (known !== undefined) return known;
  const lower = periodKey.toLowerCase();
  return PERIODS.get(lower) ?? lower;
}

/** The opening line's book: its outcomes carry no line_status upstream. */
const OPENING_LINE_BOOK_ID = 30;

interface PriceForms {
  decimal: number;
  fractional: string;
}
const priceCache = new Map<number, PriceForms>();

/** Decimal and fractional forms of an American price, memoised: a feed uses a few hundred distinct prices. */
function priceForms(american: number): PriceForms {
  let forms = priceCache.get(american);
  if (!forms) {
    const decimal = americanToDecimal(american);
    forms = { decimal, fractional: decimalToFractional(decimal) };
    if (priceCache.size > 10_000) priceCache.clear();
    priceCache.set(american, forms);
  }
  return forms;
}

/** One book's market of one period of one game, as the outcomes of that array are read. */
interface MarketContext {
  documentName: string;
  game: FeedGame;
  /** `games[i]` in error paths. */
  gamePath: string;
  bookKey: string;
  bookId: number;
  periodKey: string;
  period: string;
  /** The feed's key of the outcome array (moneyline, spread, total, core_bet_type_6_team_score). */
  marketKey: string;
  /** One of the three markets, or `team_total` until each outcome's team picks home or away. */
  marketType: MarketType | 'team_total';
}

export interface MarketRows {
  quotes: QuoteRow[];
  publicBetting: PublicBettingRow[];
}

/** Quotes and public betting of every book, period and served market type of `game`, appended to `out`. */
export function normalizeMarkets(documentName: string, game: FeedGame, gamePath: string, out: MarketRows): void {
  for (const [bookKey, periods] of Object.entries(game.markets ?? {})) {
    for (const [periodKey, markets] of Object.entries(periods)) {
      const period = periodOf(periodKey);
      for (const [marketKey, outcomes] of Object.entries(markets)) {
        const marketType = isOneOf(MARKET_TYPES, marketKey) ? marketKey : marketKey === FEED_TEAM_TOTAL_KEY ? 'team_total' : null;
        if (marketType === null) continue;
        const ctx: MarketContext = { documentName, game, gamePath, bookKey, bookId: Number(bookKey), periodKey, period, marketKey, marketType };
        normalizeMarket(ctx, outcomes, out);
      }
    }
  }
}

function normalizeMarket(ctx: MarketContext, outcomes: readonly FeedOutcome[], out: MarketRows): void {
  // The feed repeats an outcome now and then: the first of each side (pregame or live) wins. The
  // array holds a handful of outcomes: the quotes taken from it so far are compared directly.
  const first = out.quotes.length;
  for (let index = 0; index < outcomes.length; index++) {
    const outcome = outcomes[index]!;
    const quote = normalizeOutcome(ctx, outcome, index);
    if (!quote || takenAlready(out.quotes, first, quote)) continue;
    out.quotes.push(quote);
    const betting = publicBettingOf(ctx, outcome, quote);
    if (betting) out.publicBetting.push(betting);
  }
}

/** Whether `quotes` from `first` on hold the same market, side and timing as `quote`. */
function takenAlready(quotes: readonly QuoteRow[], first: number, quote: QuoteRow): boolean {
  for (let i = first; i < quotes.length; i++) {
    const q = quotes[i]!;
    if (q.marketType === quote.marketType && q.side === quote.side && q.isLive === quote.isLive) return true;
  }
  return false;
}

/** The quote of one outcome, undefined when there is nothing to store; throws on a malformed one. */
function normalizeOutcome(ctx: MarketContext, o: FeedOutcome, index: number): QuoteRow | undefined {
  const { bookId, game } = ctx;
  if (o.is_alt_market) return undefined;
  let marketType: StoredMarketType;
  if (ctx.marketType !== 'team_total') marketType = ctx.marketType;
  else if (o.team_id === game.home_team_id) marketType = 'home_team_total';
  else if (o.team_id === game.away_team_id) marketType = 'away_team_total';
  else throw outcomeError(ctx, index, 'team_id', `a team total names one of the game's teams (${game.home_team_id}, ${game.away_team_id}), got ${JSON.stringify(o.team_id ?? null)}`);
  const sides: readonly string[] = SIDES_BY_MARKET[marketType];
  if (!sides.includes(o.side)) throw outcomeError(ctx, index, 'side', `expected one of ${sides.join(', ')} for ${marketType}, got ${JSON.stringify(o.side)}`);
  if (o.book_id != null && o.book_id !== bookId) throw outcomeError(ctx, index, 'book_id', `outcome of book ${o.book_id} filed under book ${bookId}`);
  // A price withdrawn upstream arrives as null odds: nothing to store.
  if (o.odds === null) return undefined;
  let forms: PriceForms;
  try {
    forms = priceForms(o.odds);
  } catch (error) {
    if (error instanceof InvalidOddsError) throw outcomeError(ctx, index, 'odds', error.message);
    throw error;
  }
  if (hasLine(marketType) && o.value == null) throw outcomeError(ctx, index, 'value', `a ${marketType} outcome needs its line`);
  return {
    gameId: game.id,
    bookId,
    marketType,
    period: ctx.period,
    side: o.side,
    isLive: o.is_live ?? false,
    outcomeId: o.outcome_id == null ? null : String(o.outcome_id),
    teamId: teamIdOf(marketType, o, game),
    point: hasLine(marketType) ? (o.value ?? null) : null,
    american: Math.round(o.odds),
    decimal: forms.decimal,
    fractional: forms.fractional,
    lineStatus: o.line_status ?? (bookId === OPENING_LINE_BOOK_ID ? 'opener' : 'normal'),
  };
}

/** The error naming field `field` of the outcome at `index`; its path is built only then (a document carries thousands of outcomes). */
function outcomeError(ctx: MarketContext, index: number, field: string, reason: string): FeedDocumentError {
  return new FeedDocumentError(ctx.documentName, `${ctx.gamePath}.markets[${JSON.stringify(ctx.bookKey)}].${ctx.periodKey}.${ctx.marketKey}[${index}].${field}`, reason);
}

/** The outcome's team: none on a total; a team total's team; the side's team on a moneyline or spread when the feed names none. */
function teamIdOf(marketType: StoredMarketType, o: FeedOutcome, game: FeedGame): number | null {
  switch (MARKET_TYPE_TABLE[marketType].counts) {
    case 'margin':
      return o.team_id ?? (o.side === 'home' ? game.home_team_id : game.away_team_id);
    case 'home':
      return game.home_team_id;
    case 'away':
      return game.away_team_id;
    default:
      return null;
  }
}

/**
 * Public betting is read on pregame outcomes of the three markets only: live ones carry zeros
 * upstream, and so does every team-total outcome of the captures.
 */
function publicBettingOf(ctx: MarketContext, o: FeedOutcome, quote: QuoteRow): PublicBettingRow | undefined {
  if (ctx.marketType === 'team_total') return undefined;
  const tickets = o.bet_info?.tickets?.percent ?? null;
  const money = o.bet_info?.money?.percent ?? null;
  if (quote.isLive || !(tickets || money)) return undefined;
  return {
    gameId: quote.gameId,
    bookId: quote.bookId,
    marketType: ctx.marketType,
    period: ctx.period,
    side: quote.side,
    ticketsPercent: tickets,
    moneyPercent: money,
    numBets: ctx.game.num_bets ?? null,
  };
}
