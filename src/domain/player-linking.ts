// Linking the names the odds sources give players to the players of a box score (docs/player-props.md,
// "Players across sources"). Pure: the caller passes the names and the two teams' box-score players.
//
// Books write players otherwise than the box score does; each form below was seen in the real
// captures (The Odds API's WNBA props of 2023 against ESPN's box scores of the same games):
// - reversed: "Mitchell Kelsey", "Durr Asia", "Loyd Jewell";
// - without a hyphenated part: "Cheyenne Parker" for "Cheyenne Parker-Tyus", "Betnijah Laney" for
//   "Betnijah Laney-Hamilton";
// - as an initial: "Collier N." for "Napheesa Collier"; the box score's initials: "AD Durr" for "Asia Durr";
// - misspelt by a letter or two: "Alisha Gray" for "Allisha Gray", "Napeesha Collier" for "Napheesa Collier";
// - with or without a suffix or an accent (normalizePlayerName drops them).
// A link is never a guess: a name that fits two box-score players of the game is ambiguous and stays
// unlinked (the answer says so), as does one that fits none (a player who did not play is not in a
// box score that leaves such players out), and a near spelling links only when the family name is
// the same word and no other player of the two teams is near it.

import { normalizePlayerName } from './players';

/** A box-score player a name may be linked to. */
export interface BoxPlayer {
  /** The box score's own id of the player (ESPN's athlete id). */
  id: string;
  name: string;
}

/** How a name was linked, from the surest to the least sure. */
export type LinkRule = 'exact' | 'hyphenated_part' | 'initial' | 'spelling';

/** The outcome of linking one name. */
export type NameLink =
  | { name: string; playerId: string; rule: LinkRule }
  | { name: string; playerId: null; reason: 'not_in_boxscore' | 'ambiguous'; candidates: string[] };

/** The words of a name as matched: normalised (accents, case, punctuation, suffixes), hyphenated parts apart. */
function wordsOf(name: string): string[] {
  return normalizePlayerName(name).split(' ').filter(Boolean);
}

/** Levenshtein distance, stopping early above `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      row.push(v);
      best = Math.min(best, v);
    }
    if (best > max) return max + 1;
    prev = row;
  }
  return prev[b.length]!;
}

/** Whether `short` (one or two letters) is the initial(s) of `full`'s given name: "n" of "napheesa", "ad" of "asia". */
const isInitial = (short: string, full: string) => short.length <= 2 && full.length > 2 && full[0] === short[0];

/**
 * How well `name`'s words fit a box-score player's: the rule that links them, or null. Every word of
 * the name must be accounted for; the player's words left over may only be a hyphenated part of the
 * family name (the name says "Parker", the player "Parker-Tyus").
 */
function fit(name: string[], player: string[], hyphenated: ReadonlySet<string>): LinkRule | null {
  if (name.join(' ') === player.join(' ')) return 'exact';
  const left = [...player];
  const unmatched: string[] = [];
  for (const w of name) {
    const i = left.indexOf(w);
    if (i >= 0) left.splice(i, 1);
    else unmatched.push(w);
  }
  const matched = name.length - unmatched.length;
  if (matched === 0) return null;
  if (!unmatched.length) {
    // Every word of the name is the player's; what remains must be a hyphenated part.
    return matched >= 2 && left.every((w) => hyphenated.has(w)) ? 'hyphenated_part' : null;
  }
  // One word of the name differs: it is an initial, or a near spelling, of the one word left (the
  // given name: the word matched exactly is the family name or part of it).
  if (unmatched.length !== 1) return null;
  const rest = left.filter((w) => !hyphenated.has(w));
  if (rest.length !== 1) return null;
  const [u, p] = [unmatched[0]!, rest[0]!];
  if (isInitial(u, p) || isInitial(p, u)) return 'initial';
  if (u.length >= 4 && p.length >= 4 && u[0] === p[0] && distance(u, p, 2) <= 2) return 'spelling';
  return null;
}

/** The parts of a player's hyphenated family name, normalised ("parker-tyus" gives parker and tyus). */
function hyphenatedParts(name: string): Set<string> {
  const out = new Set<string>();
  for (const part of name.split(/\s+/)) if (part.includes('-')) for (const w of wordsOf(part.replace(/-/g, ' '))) out.add(w);
  return out;
}

const RANK: Readonly<Record<LinkRule, number>> = { exact: 0, hyphenated_part: 1, initial: 2, spelling: 3 };

/**
 * Links each of `names` (an odds source's spellings of players of one game) to the box-score player
 * of the game's two teams it names, by the surest rule that finds exactly one player: an exact
 * normalised match first, then a missing hyphenated part, then an initial, then a near spelling. Two
 * players found by the surest rule that finds any leave the name ambiguous (never guessed); none
 * leaves it not in the box score.
 */
export function linkPlayerNames(names: readonly string[], players: readonly BoxPlayer[]): NameLink[] {
  const prepared = players.map((p) => ({ p, words: wordsOf(p.name), hyphenated: hyphenatedParts(p.name) }));
  return names.map((name): NameLink => {
    const words = wordsOf(name);
    let best: LinkRule | null = null;
    let found: BoxPlayer[] = [];
    if (words.length) {
      for (const { p, words: pw, hyphenated } of prepared) {
        const rule = fit(words, pw, hyphenated);
        if (!rule) continue;
        if (best === null || RANK[rule] < RANK[best]) [best, found] = [rule, [p]];
        else if (rule === best && !found.some((f) => f.id === p.id)) found.push(p);
      }
    }
    if (best && found.length === 1) return { name, playerId: found[0]!.id, rule: best };
    return { name, playerId: null, reason: found.length > 1 ? 'ambiguous' : 'not_in_boxscore', candidates: found.map((f) => f.name) };
  });
}
