import { makeExecutableSchema } from '@graphql-tools/schema';
import { buildSchema as buildSdl } from 'graphql';
import { checkEnumVocabulary, ENUM_VOCABULARY, enumResolvers, enumValueName, enumVariables } from '../../src/graphql/enums';
import { buildSchema } from '../../src/graphql/schema';

// The schema's enums and the domain's closed sets are one vocabulary: src/graphql/enums.ts maps each
// UPPER_CASE value to its word and refuses a schema whose SDL drifted from the sets.

const sdlOf = (sets: Record<string, readonly string[]>) =>
  `type Query { ok: Boolean }\n${Object.entries(sets)
    .map(([name, words]) => `enum ${name} { ${words.map(enumValueName).join(' ')} }`)
    .join('\n')}`;

test('when the served schema is built, then every enum holds exactly its closed set, each value meaning its word', () => {
  const schema = buildSchema();
  expect(() => checkEnumVocabulary(schema)).not.toThrow();
  const devig = schema.getType('DevigMethod') as import('graphql').GraphQLEnumType;
  expect(devig.getValue('ODDS_RATIO')?.value).toBe('odds_ratio');
  expect(devig.parseValue('WORST_CASE')).toBe('worst_case');
  expect(devig.serialize('power')).toBe('POWER');
});

/** The SDL of `sets` made executable with the real enum resolvers, then checked. */
const check = (sets: Record<string, readonly string[]>) => checkEnumVocabulary(makeExecutableSchema({ typeDefs: sdlOf(sets), resolvers: enumResolvers }));

test('when the SDL enums list the sets, then the check passes', () => {
  expect(() => check(ENUM_VOCABULARY)).not.toThrow();
});

test.each([
  // graphql-tools itself refuses a mapped value the SDL lacks.
  ['a value is missing', { ...ENUM_VOCABULARY, Side: ['home', 'away', 'over'] }, /Side\.UNDER/],
  ['a value is extra', { ...ENUM_VOCABULARY, ListingSort: ['odds', 'value', 'price'] }, /enum ListingSort must list ODDS=odds, VALUE=value .*not ODDS=odds, VALUE=value, PRICE=PRICE/],
  ['the order differs', { ...ENUM_VOCABULARY, Plan: ['pro', 'starter', 'elite'] }, /enum Plan must list STARTER=starter, PRO=pro, ELITE=elite/],
])('when an SDL enum drifts from its set (%s), then the schema is refused naming it', (_name, sets, message) => {
  expect(() => check(sets)).toThrow(message);
});

test('when an SDL lists the right values but no resolvers map them to the words, then it is refused', () => {
  expect(() => checkEnumVocabulary(buildSdl(sdlOf(ENUM_VOCABULARY)))).toThrow(/enum MarketType must list MONEYLINE=moneyline, .*not MONEYLINE=MONEYLINE/);
});

test('when REST words become variables, then enum variables (and lists of them) take the value names and others pass unchanged', () => {
  const schema = buildSchema();
  const types = new Map([
    ['market_type', 'MarketType'],
    ['side', 'Side'],
    ['period', 'Period'],
  ]);
  expect(enumVariables(schema, types, { market_type: 'spread', side: ['home', 'over'], period: null, game_id: [1, 2], other: 'spread' })).toEqual({
    market_type: 'SPREAD',
    side: ['HOME', 'OVER'],
    period: null,
    game_id: [1, 2],
    other: 'spread',
  });
});
