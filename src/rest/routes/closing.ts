import { z } from 'zod';
import { MAX_BETS, MAX_GRADED_BETS, LISTING_DEFAULT_DEVIG_METHOD, LISTING_DEFAULT_REFERENCE, LISTING_DEVIG_METHODS, LISTING_REFERENCE_CHOICES, MARKET_TYPE_TABLE, PROP_TYPES, ENUM_VOCABULARY } from '../../graphql';
import { enumValue, objectError, requiredOr } from '../body';
import { list } from '../envelope';
import { date, ids, someOf } from '../params';
import { defineRoutes } from '../route';
import { PERIOD_ALIASES } from './periods';

const BET_MARKET_TYPES = ENUM_VOCABULARY.LiveMarketType;
const PERIODS = ENUM_VOCABULARY.Period;
const SIDES = ENUM_VOCABULARY.Side;
const PERIOD_VALUES = ['full', ...PERIODS];

// Closing lines, closing-line value and grading (docs/closing-and-grading.md). The POST bodies are
// checked and renamed here (snake_case -> the GraphQL input's camelCase, enum values upper-cased);
// the bets' own rules (side of the market, line, price, placed_at, the cap) are the resolvers'
// (src/services/bet-rules.ts), so GraphQL refuses the same bets.

const int = (message: string) => z.number({ error: requiredOr(message) }).int({ error: message });
const gameId = int('must be an integer game id').min(1, { error: 'must be an integer game id' });
const line = z.number({ error: 'must be a number (a multiple of 0.5) or null' }).nullable().optional();
const period = enumValue(PERIODS, PERIOD_ALIASES).optional();
// prop_type is checked by the resolvers (with the rest of a prop bet's rules), so that a bad one is
// named the same way on GraphQL; here it only has to be text.
const betFields = {
  game_id: gameId,
  market_type: enumValue(BET_MARKET_TYPES),
  prop_type: z.string({ error: 'must be a prop type such as points' }).optional(),
  player_id: int('must be an integer player id').min(1, { error: 'must be an integer player id' }).optional(),
  period,
  side: enumValue(SIDES),
  line,
};
/** The GraphQL input's prop fields of a bet (absent on game bets). */
const propFields = (b: { prop_type?: string | undefined; player_id?: number | undefined }) => ({ propType: b.prop_type, playerId: b.player_id });
/** Prop fields (prop_type, player) are selected in the answer only when a bet is a prop, so game bets answer as before. */
const anyProp = (bets: ReadonlyArray<{ marketType: string }>) => bets.some((b) => b.marketType === 'PLAYER_PROPS');

/** A body `{ "bets": [...] , ...extra }` or a bare array of bets; the cap is checked before the items. */
function betsBody<S extends z.ZodType, E extends Record<string, z.ZodType> = Record<never, z.ZodType>>(bet: S, extra: E = {} as E, max = MAX_BETS) {
  const shape = z.strictObject(
    { bets: z.array(z.unknown(), { error: requiredOr('must be a list of bets') }).max(max, { error: `must hold at most ${max} bets` }).min(1, { error: 'must hold at least one bet' }).pipe(z.array(bet)), ...extra },
    { error: objectError('must be a JSON object {"bets": [...]} or a JSON array of bets') },
  );
  return z.preprocess((v) => (Array.isArray(v) ? { bets: v } : v), shape);
}

const clvBet = z
  .strictObject(
    {
      ...betFields,
      book_id: int('must be an integer sportsbook id').min(1, { error: 'must be an integer sportsbook id' }),
      price: int('must be American odds, an integer such as -110 or 150'),
      placed_at: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 instant such as 2026-01-24T15:00:00Z' }).optional(),
    },
    { error: objectError('must be a JSON object') },
  )
  .transform((b) => ({ gameId: b.game_id, bookId: b.book_id, marketType: b.market_type, ...propFields(b), period: b.period, side: b.side, line: b.line, price: b.price, placedAt: b.placed_at }));

const gradeBet = z
  .strictObject(betFields, { error: objectError('must be a JSON object') })
  .transform((b) => ({ gameId: b.game_id, marketType: b.market_type, ...propFields(b), period: b.period, side: b.side, line: b.line }));

const YES_NO_PROPS = Object.values(MARKET_TYPE_TABLE).flatMap((d) => ('propType' in d && d.line === 'none' ? [d.propType] : []));
const BET_OPENAPI = {
  game_id: { type: 'integer', minimum: 1, description: 'The game of the bet' },
  market_type: { type: 'string', enum: [...BET_MARKET_TYPES], description: 'The market of the bet: moneyline, spread, total, or player_props (with prop_type and player_id)' },
  prop_type: { type: 'string', enum: [...PROP_TYPES], description: 'player_props bets only (required there): the prop' },
  player_id: { type: 'integer', minimum: 1, description: 'player_props bets only (required there): the player (GET /players)' },
  period: { type: 'string', enum: [...PERIOD_VALUES], default: 'full_game', description: 'The period the market settles on (full is an alias of full_game); props are full_game only' },
  side: {
    type: 'string',
    enum: [...SIDES],
    description: `The side bet on: home or away (moneyline, spread), over or under (total, props with a line), yes or no (${YES_NO_PROPS.join(', ')})`,
  },
  line: {
    type: ['number', 'null'],
    description: `The side's handicap (spread), the total (total) or the player's line (props); absent or null on moneylines and on ${YES_NO_PROPS.join(', ')}; a multiple of 0.5`,
  },
};
const betsOpenApi = (bet: Record<string, unknown>, required: string[], extra: Record<string, unknown> = {}, max = MAX_BETS) => {
  const item = { type: 'object', additionalProperties: false, required, properties: bet };
  const array = { type: 'array', minItems: 1, maxItems: max, items: item };
  return { oneOf: [{ type: 'object', additionalProperties: false, required: ['bets'], properties: { bets: { ...array, description: `The bets, at most ${max}` }, ...extra } }, array] };
};

/**
 * 10000 -> "10,000". Not toLocaleString('en-US'): its first call loads ICU's number formatting, 7 MB
 * of RSS for the life of every process that loads the routes (the memory bench's idle API process).
 */
const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

export const closingRoutes = defineRoutes([
  {
    path: '/closing',
    summary: 'Closing lines: the last pregame price of every game, book, market, period and side before the game went live',
    description:
      'One entry per outcome a book quoted (pregame or live). price/point: the last pregame price seen strictly before cutoff_at (the start time, ' +
      'or the first live price when that came earlier); captured_at: the capture it was first seen in. Without a close, price is null and ' +
      'missing_reason says why (no_capture_before_start, not_quoted_before_start). settled is false until the game goes live. ' +
      'market_type=player_props: the props\' closes, over/under at each line and yes/no (double_double, triple_double) without one.',
    params: z.object({
      game_id: ids('Only these games (any day unless date is given)'),
      date: date('Games starting on this league-local day (LEAGUE_TIME_ZONE); default today when game_id is absent'),
      book_id: ids('Only these sportsbooks'),
      market_type: someOf('Only these markets (default moneyline, spread, total; player_props: the closes of every player prop, with prop_type, player and is_alternate)', ENUM_VOCABULARY.LiveMarketType),
      period: someOf('Only these periods (full is an alias of full_game)', PERIODS, PERIOD_ALIASES),
      side: someOf('Only these sides', SIDES),
    }),
    operation: 'ClosingLines',
    variables: (params) => ({ ...params, player_props: !!params.market_type?.includes('player_props') }),
    envelope: list('closing'),
    tags: ['closing'],
    freshness: 'history',
  },
  {
    path: '/clv',
    method: 'POST',
    summary: 'Closing-line value of up to 500 bets: against the close at the bet\'s book, at the sharp book, and against the de-vigged fair close',
    description:
      'cents: cents(bet) - cents(close) on the American cents scale (-105 to +105 is 10 cents); implied_probability: implied(close) - implied(bet); ' +
      'both only when the close is at the bet\'s line (same_line). fair: the fair probability of the bet\'s side at its line (sharp book\'s closing pair, ' +
      'else the consensus of every real book\'s, moved by the key-number model when no pair is at the bet\'s line; reference chooses sharp, exchange or consensus, ' +
      'and fair.source says which it came from) and clv_ev_percent = (p * decimal - 1) * 100; fair_missing_reason says why fair is null. ' +
      'A player prop bet (market_type player_props, prop_type, player_id) is measured against the book\'s close at the bet\'s line (main or alternate; else its main line, same_line false) ' +
      'and the fair close of the pairs closed at that line only (props have no key-number model: no_closing_pair_at_line).',
    params: z.object({}),
    body: {
      schema: betsBody(clvBet, { devig: enumValue(LISTING_DEVIG_METHODS).optional(), reference: enumValue(LISTING_REFERENCE_CHOICES).optional() }).transform(
        ({ devig, ...rest }) => ({ ...rest, devig_method: devig, player_props: anyProp(rest.bets) }),
      ),
      openapi: betsOpenApi(
        {
          ...BET_OPENAPI,
          book_id: { type: 'integer', minimum: 1, description: 'The sportsbook the bet was placed at' },
          price: { type: 'integer', description: 'American odds, e.g. -110 or 150' },
          placed_at: { type: 'string', format: 'date-time', description: 'When the bet was placed; before the game went live' },
        },
        ['game_id', 'book_id', 'market_type', 'side', 'price'],
        {
          devig: { type: 'string', enum: [...LISTING_DEVIG_METHODS], default: LISTING_DEFAULT_DEVIG_METHOD, description: 'The de-vig method of the fair close (echoed in each answer)' },
          reference: {
            type: 'string', enum: [...LISTING_REFERENCE_CHOICES], default: LISTING_DEFAULT_REFERENCE,
            description: 'Which fair close to prefer: sharp (Pinnacle), exchange (Betfair back prices) or consensus; the consensus where that book did not close the market',
          },
        },
      ),
      description: `{"bets": [...], "devig": "${LISTING_DEFAULT_DEVIG_METHOD}"} or a bare array of bets (at most ${MAX_BETS}).`,
    },
    operation: 'BetClv',
    envelope: list('clv'),
    tags: ['closing'],
    freshness: 'history',
  },
  {
    path: '/grade',
    method: 'POST',
    summary: `Grades (won, lost, push, void) of up to ${thousands(MAX_GRADED_BETS)} bets: game bets from the games' final scores, player props from the players' box-score lines`,
    description:
      'result is null until the game is final (finished or closed); postponed and cancelled games void every bet, and so does a missing period score. ' +
      'graded_at is when the feed last changed the score graded: a score correction re-grades and moves it. ' +
      'A player prop (market_type player_props, prop_type, player_id) is graded from the player\'s line in the game\'s box score (ESPN\'s summary, docs/player-props.md): ' +
      'won, lost or push at the line (double_double, triple_double: yes or no), void when the player did not play or the game was not played, ' +
      'pending (result null, not_final) until the box score is final; player_value is what the prop counted; a corrected box score grades it again: ' +
      'statistics_corrected_at says when, previous_result what it was when the correction changed it. ' +
      'result_missing_reason says why result is null: not_final, no_player_statistics (no box score of players stored for a final game), ' +
      'player_not_in_boxscore (the player is on no line of the final box score: not linked to it, or left out of it) or statistic_missing.',
    params: z.object({}),
    body: {
      schema: betsBody(gradeBet, {}, MAX_GRADED_BETS).transform((body) => ({ ...body, player_props: anyProp(body.bets) })),
      openapi: betsOpenApi(BET_OPENAPI, ['game_id', 'market_type', 'side'], {}, MAX_GRADED_BETS),
      description: `{"bets": [...]} or a bare array of bets (at most ${MAX_GRADED_BETS}, a body of at most 2 MB).`,
      maxBytes: 2 * 1024 * 1024,
    },
    operation: 'GradeBets',
    envelope: list('grades'),
    tags: ['closing'],
    freshness: 'history',
  },
]);
