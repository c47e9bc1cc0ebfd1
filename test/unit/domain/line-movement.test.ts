import { americanToCents, lineMovement, type PricePoint } from '../../../src/domain/line-movement';

const p = (point: number | null, american: number): PricePoint => ({ point, american });

describe('line movement', () => {
  test.each([
    // market, side, open, current, direction, absolute change
    ['spread', 'home', p(-3, -110), p(-4.5, -110), 'towards_favorite', 1.5],
    ['spread', 'away', p(3, -110), p(4.5, -110), 'towards_underdog', 1.5],
    ['spread', 'away', p(3, -110), p(1.5, -110), 'towards_favorite', 1.5],
    ['spread', 'home', p(-3, -110), p(-3, -120), 'towards_favorite', 0],
    ['spread', 'home', p(-3, -110), p(-3, +100), 'towards_underdog', 0],
    ['spread', 'home', p(-3, -110), p(-3, -110), 'none', 0],
    // the point decides even when the price moved the other way
    ['spread', 'home', p(-3, -120), p(-3.5, -105), 'towards_favorite', 0.5],
    ['moneyline', 'home', p(null, 150), p(null, 130), 'towards_favorite', 20],
    ['moneyline', 'away', p(null, -110), p(null, -125), 'towards_favorite', 15],
    ['moneyline', 'away', p(null, -105), p(null, 105), 'towards_underdog', 10],
    ['moneyline', 'home', p(null, 120), p(null, 120), 'none', 0],
    ['total', 'over', p(220.5, -110), p(223, -110), 'towards_over', 2.5],
    ['total', 'under', p(220.5, -110), p(223, -110), 'towards_over', 2.5],
    ['total', 'over', p(220.5, -110), p(218, -110), 'towards_under', 2.5],
    ['total', 'over', p(220.5, -110), p(220.5, -125), 'towards_over', 0],
    ['total', 'under', p(220.5, -110), p(220.5, -125), 'towards_under', 0],
    ['total', 'under', p(220.5, -110), p(220.5, -110), 'none', 0],
  ] as const)('when a %s %s moves from %o to %o, then it moves %s by %d', (market, side, open, current, direction, change) => {
    const m = lineMovement(market, side, open, current);
    expect(m.direction).toBe(direction);
    expect(m.absoluteChange).toBeCloseTo(change, 9);
    expect(m.openPrice).toBe(open.american);
    expect(m.currentPrice).toBe(current.american);
    expect(m.openLine).toBe(market === 'moneyline' ? open.american : open.point);
    expect(m.currentLine).toBe(market === 'moneyline' ? current.american : current.point);
  });

  test.each([
    // Player props follow their row of the market-type table: over/under props like a total, yes/no like a moneyline.
    ['player_points', 'over', p(18.5, -115), p(19.5, -110), 'towards_over', 1],
    ['player_points', 'under', p(18.5, -115), p(17.5, -110), 'towards_under', 1],
    ['player_rebounds', 'under', p(7.5, -110), p(7.5, -130), 'towards_under', 0],
    ['player_assists', 'over', p(4.5, -110), p(4.5, -130), 'towards_over', 0],
    ['player_double_double', 'yes', p(null, 150), p(null, 120), 'towards_favorite', 30],
    ['home_team_total', 'over', p(110.5, -110), p(112.5, -110), 'towards_over', 2],
  ] as const)('when a %s %s moves from %o to %o, then it moves %s by %d', (market, side, open, current, direction, change) => {
    const m = lineMovement(market, side, open, current);
    expect(m.direction).toBe(direction);
    expect(m.absoluteChange).toBeCloseTo(change, 9);
    expect(m.currentLine).toBe(current.point ?? current.american);
  });

  test('when a spread price has no point, then it is compared by price alone', () => {
    const m = lineMovement('spread', 'home', p(null, -110), p(null, -130));
    expect(m).toMatchObject({ openLine: -110, currentLine: -130, absoluteChange: 20, direction: 'towards_favorite' });
  });

  test.each([
    [100, 0],
    [-100, 0],
    [105, 5],
    [-105, -5],
    [250, 150],
  ])('when American odds are %d, then they are %d cents', (american, cents) => {
    expect(americanToCents(american)).toBe(cents);
  });
});
