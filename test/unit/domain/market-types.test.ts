import { CORE_BET_TYPES, hasLine, inLiveMarketFilter, MARKET_TYPE_TABLE, MARKET_TYPES, PROP_MARKET_TYPES, propTypeOf, SIDES_BY_MARKET, STORED_MARKET_TYPES, storedMarketTypesOf } from '../../../src/domain';

describe('market-type table', () => {
  it('when the sets are derived from the table, then they list its rows by group in table order', () => {
    expect(STORED_MARKET_TYPES).toEqual(Object.keys(MARKET_TYPE_TABLE));
    expect(MARKET_TYPES).toEqual(['moneyline', 'spread', 'total']);
    expect(CORE_BET_TYPES).toEqual(['home_team_total', 'away_team_total']);
  });

  it('when a market type is looked up, then its sides and line come from its row', () => {
    for (const type of STORED_MARKET_TYPES) expect(SIDES_BY_MARKET[type]).toEqual(MARKET_TYPE_TABLE[type].sides);
    expect(hasLine('moneyline')).toBe(false);
    expect(hasLine('spread')).toBe(true);
    expect(hasLine('away_team_total')).toBe(true);
  });

  it('when a market type is served in a game, then it has a listing row, and two sides that are each distinct', () => {
    for (const type of MARKET_TYPES) expect(MARKET_TYPE_TABLE[type].listing).toBeDefined();
    for (const type of STORED_MARKET_TYPES) expect(new Set(MARKET_TYPE_TABLE[type].sides).size).toBe(2);
  });
});

describe('filter words to stored market types', () => {
  test.each([
    [undefined, undefined],
    [[], undefined],
    [['moneyline'], ['moneyline']],
    [['total', 'moneyline', 'total'], ['total', 'moneyline']],
    [['player_props'], PROP_MARKET_TYPES],
    [['spread', 'player_props'], ['spread', ...PROP_MARKET_TYPES]],
  ] as const)('when the words are %j, then the stored market types are %j', (words, expected) => {
    expect(storedMarketTypesOf(words as readonly string[] | undefined)).toEqual(expected);
  });

  test('when a market type is a prop, then propTypeOf names its prop; otherwise null', () => {
    expect(propTypeOf('player_points_rebounds_assists')).toBe('points_rebounds_assists');
    expect(propTypeOf('total')).toBeNull();
  });
});

describe('live push filters and stored market types', () => {
  test.each([
    [null, 'spread', true],
    [null, 'home_team_total', true],
    [null, 'player_points', false],
    [undefined, 'player_double_double', false],
    ['spread', 'spread', true],
    ['spread', 'total', false],
    ['total', 'player_points', false],
    ['player_props', 'player_points', true],
    ['player_props', 'player_triple_double', true],
    ['player_props', 'moneyline', false],
    ['player_props', 'home_team_total', false],
  ] as const)('when the filter is %j and the quote is %j, then it is in the filter: %j', (filter, type, expected) => {
    expect(inLiveMarketFilter(filter, type)).toBe(expected);
  });

  test('when the filter is player_props, then every prop market type is in it and no other', () => {
    for (const type of STORED_MARKET_TYPES) expect(inLiveMarketFilter('player_props', type)).toBe((PROP_MARKET_TYPES as readonly string[]).includes(type));
  });
});
