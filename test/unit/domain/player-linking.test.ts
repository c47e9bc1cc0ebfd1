import { linkPlayerNames, type BoxPlayer } from '../../../src/domain';

// Linking the odds sources' spellings to box-score players, with the variants found in the real
// captures: The Odds API's WNBA props of 2023 (test/fixtures/feeds/theoddsapi/) against ESPN's box
// scores of the same games (test/fixtures/feeds/espn/).

const box = (...names: string[]): BoxPlayer[] => names.map((name, i) => ({ id: String(1000 + i), name }));
const link = (name: string, players: BoxPlayer[]) => linkPlayerNames([name], players)[0]!;
const idOf = (players: BoxPlayer[], name: string) => players.find((p) => p.name === name)!.id;

describe('linkPlayerNames', () => {
  it.each([
    ['Mitchell Kelsey', 'Kelsey Mitchell', 'exact'],
    ['Durr Asia', 'AD Durr', 'initial'],
    ['Asia Durr', 'AD Durr', 'initial'],
    ['Cheyenne Parker', 'Cheyenne Parker-Tyus', 'hyphenated_part'],
    ['Betnijah Laney', 'Betnijah Laney-Hamilton', 'hyphenated_part'],
    ['Collier N.', 'Napheesa Collier', 'initial'],
    ['Napeesha Collier', 'Napheesa Collier', 'spelling'],
    ['Alisha Gray', 'Allisha Gray', 'spelling'],
    ['Gary Payton', 'Gary Payton II', 'exact'],
    ['Nikola Jokic', 'Nikola Jokić', 'exact'],
    ["Aja Wilson", "A'ja Wilson", 'exact'],
  ])('when a book writes %s and the box score %s, then they are linked (%s)', (name, boxName, rule) => {
    const players = box('Nneka Ogwumike', boxName, 'Rhyne Howard', 'Natasha Howard', 'Candace Parker-Smith');
    expect(link(name, players)).toEqual({ name, playerId: idOf(players, boxName), rule });
  });

  it.each([
    // Real pairs of one game: sisters, and two Parkers.
    ['Chiney Ogwumike', ['Nneka Ogwumike', 'Jordin Canada']],
    ['Candace Parker', ['Cheyenne Parker-Tyus', 'Allisha Gray']],
    // A player absent from the box score (did not play).
    ['Courtney Vandersloot', ['Breanna Stewart', 'Sabrina Ionescu']],
  ])('when %s is not one of the box score\'s players, then the name is not linked to a near one', (name, players) => {
    expect(link(name, box(...players))).toMatchObject({ playerId: null, reason: 'not_in_boxscore' });
  });

  it('when a name fits two players of the two teams equally, then it is stated ambiguous, never guessed', () => {
    const players = box('Natasha Howard', 'Nikki Howard');
    expect(link('N. Howard', players)).toEqual({ name: 'N. Howard', playerId: null, reason: 'ambiguous', candidates: ['Natasha Howard', 'Nikki Howard'] });
  });

  it('when one player fits exactly and another by an initial, then the exact one is taken (the surer rule decides)', () => {
    const players = box('Ezi Magbegor', 'E Magbegor');
    expect(link('Ezi Magbegor', players)).toMatchObject({ playerId: idOf(players, 'Ezi Magbegor'), rule: 'exact' });
  });

  it('when a name has a single word, then it links to nobody (a family name alone is not a player)', () => {
    expect(link('Collier', box('Napheesa Collier'))).toMatchObject({ playerId: null });
  });
});
