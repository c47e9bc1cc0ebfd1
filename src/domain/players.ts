// Player identity across sources: a player is matched by league and normalised name (or one of the
// player's aliases), never by team, so a player who changes teams stays one player (docs/player-props.md).

/** Generational suffixes dropped when matching names: "Jr." and "Jr" and no suffix name one player. */
const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv']);

/**
 * The matching form of a player's name: accents removed, lower case, punctuation dropped (periods,
 * apostrophes, hyphens become nothing or a space), generational suffixes dropped, and the words in
 * alphabetical order, since some books write the family name first. "A'ja Wilson" and "Aja Wilson"
 * match; "NaLyssa Smith" and "Nalyssa Smith" match; "Delle Donne Elena" and "Elena Delle Donne"
 * match (all three seen in the real captures).
 */
export function normalizePlayerName(name: string): string {
  const words = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’.]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => w.length > 0);
  while (words.length > 1 && SUFFIXES.has(words[words.length - 1]!)) words.pop();
  return words.sort().join(' ');
}

/** Why a player search text is refused, or null: 1 to 100 characters without control characters. */
export function playerSearchProblem(text: string): string | null {
  if (text.length < 1 || text.length > 100 || /[\u0000-\u001f\u007f]/.test(text)) return 'must be text of 1 to 100 characters without control characters';
  return normalizePlayerName(text) === '' ? 'must contain a letter or digit' : null;
}
