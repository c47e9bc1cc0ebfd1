import { CORE_BET_TYPES, hasLine, MARKET_TYPE_TABLE, MARKET_TYPES, SIDES_BY_MARKET, STORED_MARKET_TYPES } from '../../../src/domain';

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
