import { gradeProp, PROP_STATISTICS, PROP_MARKET_TYPES, type PlayerLine } from '../../../src/domain';

// Grading player props from a box-score line: every prop type of the market table.

const line = (over: Partial<PlayerLine> = {}): PlayerLine => ({
  minutes: 30, points: 18, rebounds: 11, offensiveRebounds: 9, defensiveRebounds: 2, assists: 3, threesMade: 0, threesAttempted: 1, fieldGoalsMade: 7,
  fieldGoalsAttempted: 14, freeThrowsMade: 4, freeThrowsAttempted: 5, steals: 3, blocks: 0, turnovers: 6, fouls: 2, plusMinus: -20, starter: true, didNotPlay: false, ...over,
});

describe('gradeProp', () => {
  it('when the market table lists a prop type, then grading knows how to count it', () => {
    for (const type of PROP_MARKET_TYPES) {
      if (type === 'player_double_double' || type === 'player_triple_double') continue;
      expect(PROP_STATISTICS[type]).toBeDefined();
    }
  });

  it.each([
    ['player_points', 17.5, 'won', 18],
    ['player_points', 18.5, 'lost', 18],
    ['player_points', 18, 'push', 18],
    ['player_rebounds', 10.5, 'won', 11],
    ['player_assists', 3.5, 'lost', 3],
    ['player_threes', 0.5, 'lost', 0],
    ['player_points_rebounds_assists', 31.5, 'won', 32],
    ['player_points_rebounds', 29, 'push', 29],
    ['player_points_assists', 21.5, 'lost', 21],
    ['player_rebounds_assists', 13.5, 'won', 14],
    ['player_blocks', 0.5, 'lost', 0],
    ['player_steals', 2.5, 'won', 3],
    ['player_turnovers', 5.5, 'won', 6],
    ['player_blocks_steals', 3, 'push', 3],
  ])('when %s over %s is graded on the line, then it is %s (%s counted)', (marketType, point, result, value) => {
    expect(gradeProp({ marketType, side: 'over', point }, line())).toEqual({ result, value });
    const under = result === 'won' ? 'lost' : result === 'lost' ? 'won' : 'push';
    expect(gradeProp({ marketType, side: 'under', point }, line())).toEqual({ result: under, value });
  });

  it('when a double-double or triple-double is asked, then ten or more in two (three) of points, rebounds, assists, steals, blocks decide', () => {
    expect(gradeProp({ marketType: 'player_double_double', side: 'yes', point: null }, line())).toEqual({ result: 'won', value: 2 });
    expect(gradeProp({ marketType: 'player_double_double', side: 'no', point: null }, line())).toEqual({ result: 'lost', value: 2 });
    expect(gradeProp({ marketType: 'player_triple_double', side: 'yes', point: null }, line())).toEqual({ result: 'lost', value: 2 });
    expect(gradeProp({ marketType: 'player_triple_double', side: 'yes', point: null }, line({ assists: 10 }))).toEqual({ result: 'won', value: 3 });
    expect(gradeProp({ marketType: 'player_double_double', side: 'yes', point: null }, line({ rebounds: 9 }))).toEqual({ result: 'lost', value: 1 });
  });

  it('when the player did not play, then every prop on the player is void', () => {
    const dnp = line({ didNotPlay: true, points: null, minutes: null });
    expect(gradeProp({ marketType: 'player_points', side: 'over', point: 10.5 }, dnp)).toEqual({ result: 'void', value: null });
    expect(gradeProp({ marketType: 'player_double_double', side: 'no', point: null }, dnp)).toEqual({ result: 'void', value: null });
  });

  it('when a statistic the prop counts is missing, then there is no grade (never guessed)', () => {
    expect(gradeProp({ marketType: 'player_points_rebounds_assists', side: 'over', point: 20.5 }, line({ assists: null }))).toBeNull();
    expect(gradeProp({ marketType: 'player_double_double', side: 'yes', point: null }, line({ blocks: null }))).toBeNull();
  });
});
