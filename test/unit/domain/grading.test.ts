import { gradeBet, pointsOfPeriod, settle, type GameScore } from '../../../src/domain/grading';

// 264314 of the 2026-01-24 capture (test/fixtures/feeds): home 119, away 115; quarters 35-34,
// 31-24, 27-23, 26-34; feed halves 66-58 and 53-57.
const final: GameScore = {
  homeScore: 119,
  awayScore: 115,
  periodScores: [
    { period: 1, home: 35, away: 34 },
    { period: 2, home: 31, away: 24 },
    { period: 3, home: 27, away: 23 },
    { period: 4, home: 26, away: 34 },
  ],
  homeFirstHalf: 66,
  awayFirstHalf: 58,
  homeSecondHalf: 53,
  awaySecondHalf: 57,
};

describe('pointsOfPeriod', () => {
  test.each([
    ['full_game', { home: 119, away: 115 }],
    ['first_half', { home: 66, away: 58 }],
    ['second_half', { home: 53, away: 57 }],
    ['first_quarter', { home: 35, away: 34 }],
    ['fourth_quarter', { home: 26, away: 34 }],
  ])('when the period is %s, then its points come from the boxscore', (period, points) => {
    expect(pointsOfPeriod(final, period)).toEqual(points);
  });

  test('when the game went to overtime, then the second half includes it and the fourth quarter does not', () => {
    const ot: GameScore = {
      homeScore: 110,
      awayScore: 105,
      periodScores: [
        { period: 1, home: 25, away: 25 },
        { period: 2, home: 25, away: 25 },
        { period: 3, home: 25, away: 25 },
        { period: 4, home: 25, away: 25 },
        { period: 5, home: 10, away: 5 },
      ],
    };
    expect(pointsOfPeriod(ot, 'second_half')).toEqual({ home: 60, away: 55 });
    expect(pointsOfPeriod(ot, 'fourth_quarter')).toEqual({ home: 25, away: 25 });
  });

  test('when period scores are missing, then halves come from the feed totals and quarters are unknown', () => {
    const halves: GameScore = { ...final, periodScores: [] };
    expect(pointsOfPeriod(halves, 'first_half')).toEqual({ home: 66, away: 58 });
    expect(pointsOfPeriod(halves, 'third_quarter')).toBeNull();
    expect(pointsOfPeriod({ homeScore: null, awayScore: null, periodScores: [] }, 'full_game')).toBeNull();
  });
});

describe('settle', () => {
  const p = { home: 119, away: 115 };
  test.each([
    ['moneyline', 'home', null, 'won'],
    ['moneyline', 'away', null, 'lost'],
    ['spread', 'home', -3.5, 'won'], // 119 - 3.5 > 115
    ['spread', 'home', -4.5, 'lost'],
    ['spread', 'home', -4, 'push'], // whole-number spread landing exactly
    ['spread', 'away', 4, 'push'],
    ['spread', 'away', 4.5, 'won'],
    ['spread', 'away', 3.5, 'lost'],
    ['total', 'over', 233.5, 'won'], // total 234
    ['total', 'under', 233.5, 'lost'],
    ['total', 'under', 234.5, 'won'],
    ['total', 'over', 234, 'push'],
    ['total', 'under', 234, 'push'],
    ['total', 'over', 233, 'won'],
    ['home_team_total', 'over', 118.5, 'won'], // the home team's 119 alone
    ['home_team_total', 'under', 118.5, 'lost'],
    ['home_team_total', 'over', 119, 'push'],
    ['away_team_total', 'over', 115.5, 'lost'], // the away team's 115 alone
    ['away_team_total', 'under', 115.5, 'won'],
    ['away_team_total', 'under', 115, 'push'],
  ] as const)('when %s %s %s and the score is 119-115, then the bet %s', (marketType, side, point, result) => {
    expect(settle({ marketType, side, point }, p)).toBe(result);
  });

  test('when a half-point spread or total is graded against any score, then it never pushes', () => {
    for (let home = 80; home <= 140; home += 7) {
      for (let away = 80; away <= 140; away += 3) {
        for (const point of [-10.5, -0.5, 0.5, 6.5]) expect(settle({ marketType: 'spread', side: 'home', point }, { home, away })).not.toBe('push');
        expect(settle({ marketType: 'total', side: 'over', point: 220.5 }, { home, away })).not.toBe('push');
      }
    }
  });

  test('when a period moneyline ends level, then it is a push', () => {
    expect(settle({ marketType: 'moneyline', side: 'home', point: null }, { home: 25, away: 25 })).toBe('push');
  });

  test('when the bet is not a market/side pair, then it throws', () => {
    expect(() => settle({ marketType: 'total', side: 'home', point: 200 }, p)).toThrow();
    expect(() => settle({ marketType: 'spread', side: 'home', point: null }, p)).toThrow();
    expect(() => settle({ marketType: 'home_team_total', side: 'home', point: 110.5 }, p)).toThrow();
    expect(() => settle({ marketType: 'away_team_total', side: 'over', point: null }, p)).toThrow();
  });
});

describe('gradeBet', () => {
  const bet = { marketType: 'spread', side: 'home', point: -4.5, period: 'full_game' };
  test.each([
    ['closed', 'lost', null],
    ['finished', 'lost', null],
    ['postponed', 'void', 'not_played'],
    ['cancelled', 'void', 'not_played'],
  ])('when the game is %s, then the grade is %s', (status, result, voidReason) => {
    expect(gradeBet(bet, status, final)).toEqual({ result, voidReason });
  });

  test.each(['scheduled', 'in_progress', 'unknown'])('when the game is %s, then there is no grade yet', (status) => {
    expect(gradeBet(bet, status, final)).toBeNull();
  });

  test('when the score a period needs is missing from a final game, then the bet is void', () => {
    expect(gradeBet({ ...bet, period: 'first_quarter' }, 'closed', { ...final, periodScores: [] })).toEqual({ result: 'void', voidReason: 'score_missing' });
    expect(gradeBet(bet, 'closed', null)).toEqual({ result: 'void', voidReason: 'score_missing' });
  });

  // A prop settles on the player's statistics, which no source carries: only a game not played grades it.
  test.each([
    [{ marketType: 'player_points', side: 'over', point: 18.5 }, 'closed', null],
    [{ marketType: 'player_points', side: 'under', point: 0.5 }, 'finished', null],
    [{ marketType: 'player_double_double', side: 'yes', point: null }, 'closed', null],
    [{ marketType: 'player_points', side: 'over', point: 18.5 }, 'scheduled', null],
    [{ marketType: 'player_points', side: 'over', point: 18.5 }, 'postponed', { result: 'void', voidReason: 'not_played' }],
    [{ marketType: 'player_double_double', side: 'no', point: null }, 'cancelled', { result: 'void', voidReason: 'not_played' }],
  ])('when a prop bet %j is on a game %s, then its grade is %j (never guessed from the score)', (prop, status, grade) => {
    expect(gradeBet({ ...prop, period: 'full_game' }, status, final)).toEqual(grade);
  });
});
