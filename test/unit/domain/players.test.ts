import { normalizePlayerName, playerSearchProblem } from '../../../src/domain';

describe('normalizePlayerName', () => {
  it.each([
    ["A'ja Wilson", 'Aja Wilson'],
    ['NaLyssa Smith', 'Nalyssa Smith'],
    ['Delle Donne Elena', 'Elena Delle Donne'],
    ['Gary Payton Jr.', 'Gary Payton'],
    ['Nikola Jokić', 'Nikola Jokic'],
    ['Karl-Anthony Towns', 'Karl Anthony Towns'],
  ])('when books spell %s and %s, then both have one matching form', (a, b) => {
    expect(normalizePlayerName(a)).toBe(normalizePlayerName(b));
  });

  it('when two players differ by a word, then their forms differ', () => {
    expect(normalizePlayerName('Rhyne Howard')).not.toBe(normalizePlayerName('Natasha Howard'));
  });

  it('when a search text has no letter or a control character, then it is refused with a reason', () => {
    expect(playerSearchProblem('...')).toMatch(/letter or digit/);
    expect(playerSearchProblem('a\u0000')).toMatch(/control characters/);
    expect(playerSearchProblem('wilson')).toBeNull();
  });
});
