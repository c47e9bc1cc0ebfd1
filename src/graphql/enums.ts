import { GraphQLEnumType, type GraphQLSchema } from 'graphql';
import {
  BET_RESULTS,
  ALL_SIDES,
  CLOSING_GAPS,
  FAIR_GAPS,
  GRADE_GAPS,
  CUTOFF_SOURCES,
  DEVIG_METHODS,
  FAIR_SOURCES,
  LISTING_PERIODS,
  LISTING_SORTS,
  LIVE_FILTERS,
  MIDDLE_MARKET_TYPES,
  SIGNAL_KINDS,
  MOVEMENT_GAME_SETS,
  LIVE_MARKET_TYPES,
  MARKET_TYPES,
  PERIODS,
  PLANS,
  REFERENCE_CHOICES,
  STATUS_WORDS,
  SUBSCRIPTION_STATUSES,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_PREDICATE_TYPES,
} from '../domain';
import type { Resolvers } from './__generated__/resolvers-types';

// The schema's enums and the domain's closed sets (src/domain/vocabulary.ts) are one vocabulary: a
// GraphQL enum value is the domain word upper-cased (MarketType.MONEYLINE is 'moneyline'), and
// resolvers receive the word. This is the one place that says which set each enum holds; the
// resolvers below give every enum value its word, and checkEnumVocabulary() refuses a schema whose
// SDL lists other values than the set (so SDL and vocabulary cannot drift apart).

/** The closed set behind each enum of the schema. */
export const ENUM_VOCABULARY = {
  MarketType: MARKET_TYPES,
  LiveMarketType: LIVE_MARKET_TYPES,
  Side: ALL_SIDES,
  Period: PERIODS,
  ListingPeriod: LISTING_PERIODS,
  ListingSort: LISTING_SORTS,
  ListingLiveFilter: LIVE_FILTERS,
  MiddleMarketType: MIDDLE_MARKET_TYPES,
  SignalKind: SIGNAL_KINDS,
  MovementGames: MOVEMENT_GAME_SETS,
  GameStatusFilter: STATUS_WORDS,
  DevigMethod: DEVIG_METHODS,
  Plan: PLANS,
  SubscriptionStatus: SUBSCRIPTION_STATUSES,
  BetResult: BET_RESULTS,
  ClosingGap: CLOSING_GAPS,
  FairCloseGap: FAIR_GAPS,
  GradeGap: GRADE_GAPS,
  ClosingCutoffSource: CUTOFF_SOURCES,
  FairCloseSource: FAIR_SOURCES,
  ReferenceChoice: REFERENCE_CHOICES,
  WebhookPredicateType: WEBHOOK_PREDICATE_TYPES,
  WebhookDeliveryStatus: WEBHOOK_DELIVERY_STATUSES,
} as const satisfies Record<string, readonly string[]>;

export type EnumName = keyof typeof ENUM_VOCABULARY;

/** The GraphQL name of a domain word: `odds_ratio` is `ODDS_RATIO`. */
export function enumValueName(word: string): string {
  return word.toUpperCase();
}

/** Resolvers that give each enum value its domain word (graphql-tools' enum value mapping). */
export const enumResolvers = Object.fromEntries(
  Object.entries(ENUM_VOCABULARY).map(([name, words]) => [name, Object.fromEntries(words.map((w) => [enumValueName(w), w]))]),
) as Pick<Resolvers, EnumName>;

/**
 * Throws unless every enum of ENUM_VOCABULARY exists in `schema` with exactly the values of its set
 * (graphql-tools refuses a mapped value the SDL lacks, but not an SDL value left unmapped).
 */
export function checkEnumVocabulary(schema: GraphQLSchema): void {
  for (const [name, words] of Object.entries(ENUM_VOCABULARY)) {
    const type = schema.getType(name);
    if (!(type instanceof GraphQLEnumType)) throw new Error(`schema: enum ${name} is missing`);
    const sdl = type.getValues().map((v) => `${v.name}=${String(v.value)}`);
    const expected = words.map((w) => `${enumValueName(w)}=${w}`);
    if (sdl.join(',') !== expected.join(',')) {
      throw new Error(`schema: enum ${name} must list ${expected.join(', ')} (value=word, in that order: src/domain/vocabulary.ts), not ${sdl.join(', ')}`);
    }
  }
}

/**
 * A copy of `values` in which every variable of an enum type (or a list of one) that holds a domain
 * word holds its GraphQL name instead, as the operation's variables require. REST parameters and
 * Socket.IO filters carry the spec's lower-case words; they become enum values only here.
 */
export function enumVariables(
  schema: GraphQLSchema,
  variableTypes: ReadonlyMap<string, string>,
  values: Record<string, unknown>,
): Record<string, unknown> {
  if (variableTypes.size === 0) return values;
  const out = { ...values };
  for (const [variable, enumName] of variableTypes) {
    const value = out[variable];
    const type = schema.getType(enumName);
    if (!(type instanceof GraphQLEnumType) || value === undefined || value === null) continue;
    const nameOf = (v: unknown) => type.getValues().find((e) => e.value === v)?.name ?? v;
    out[variable] = Array.isArray(value) ? value.map(nameOf) : nameOf(value);
  }
  return out;
}

/** The market-type table, de-vig methods, reference choices and their defaults, for REST parameters (rest/ may not import domain/). */
export {
  MARKET_TYPE_TABLE,
  PROP_TYPES,
  DEVIG_METHODS as LISTING_DEVIG_METHODS,
  DEFAULT_DEVIG_METHOD as LISTING_DEFAULT_DEVIG_METHOD,
  REFERENCE_CHOICES as LISTING_REFERENCE_CHOICES,
  DEFAULT_REFERENCE as LISTING_DEFAULT_REFERENCE,
  RESYNC_REASONS,
} from '../domain';

/**
 * The rules REST states in its parameters and OpenAPI document, written once below GraphQL: the
 * argument parsers and their hints (src/domain), the sides of each listed market, the most bets of a
 * request and the limits of a webhook (src/services), so that REST and GraphQL refuse alike.
 */
export { dateProblem, INSTANT_HINT, INTERVAL_HINT, parseInstant, parseInterval, SIDES_BY_MARKET, textProblem } from '../domain';
export { MAX_BETS, MAX_GRADED_BETS } from '../services/bet-rules';
export { MAX_DESCRIPTION_LENGTH, MAX_URL_LENGTH, MAX_WEBHOOKS_PER_KEY } from '../services/webhooks';
