import type { NormalizedDocument } from '../../feed-rows';
import { FeedDocumentError, formatPath } from '../feed-document-error';
import { documentCertainlyValid } from './document-check';
import { normalizeMarkets } from './normalize-markets';
import { normalizeBoxscore, normalizeGame, normalizeLeague, normalizeTeam, sourceOf } from './normalize-game';
import { FEED, type FeedDocument, type FeedGame } from './schema';

export { FeedDocumentError } from '../feed-document-error';

/**
 * Validates one upstream scoreboard document and turns it into rows. Throws FeedDocumentError naming
 * `documentName`, the path inside the document and the problem. Markets the service does not serve
 * (alternate lines, team totals, props) are skipped, not rejected.
 */
export function normalizeDocument(raw: unknown, documentName: string): NormalizedDocument {
  const doc = parseFeedDocument(raw, documentName);
  const source = sourceOf(doc.simulated === true);
  const out: NormalizedDocument = {
    source,
    // The scoreboard's own games keep their ids; a game another source created first is matched.
    scoreboard: true,
    identities: [],
    league: doc.league ? normalizeLeague(doc.league) : null,
    teams: [],
    games: [],
    boxscores: [],
    quotes: [],
    publicBetting: [],
  };
  const teamsSeen = new Set<number>();
  const gamesSeen = new Set<number>();
  doc.games.forEach((game, index) => {
    const gamePath = `games[${index}]`;
    checkGame(documentName, game, gamePath, gamesSeen);
    for (const team of game.teams ?? []) {
      if (teamsSeen.has(team.id)) continue;
      teamsSeen.add(team.id);
      out.teams.push(normalizeTeam(team, game.league_id));
    }
    const row = normalizeGame(game, doc.simulated === true);
    out.games.push(row);
    // Simulated games are nobody's real game: never matched to another source's.
    if (!row.simulated) {
      out.identities!.push({ gameId: row.id, sourceId: String(row.id), leagueId: row.leagueId, homeTeamId: row.homeTeamId, awayTeamId: row.awayTeamId, startTime: row.startTime, simulated: false });
    }
    if (game.boxscore) out.boxscores.push(normalizeBoxscore(game.id, game.boxscore));
    normalizeMarkets(documentName, game, gamePath, out);
  });
  return out;
}

/** The document checked against the feed schema; the first problem found is thrown with its path. */
export function parseFeedDocument(raw: unknown, documentName: string): FeedDocument {
  // Fast path: a hand-written check never more lenient than the schema reads the document without
  // copying (document-check.ts); the document is then the caller's object, with keys the schema does
  // not list, and the normaliser reads only the listed ones.
  if (documentCertainlyValid(raw)) return raw as FeedDocument;
  // Refused or unsure: the whole schema, for its first issue (path and message) or its answer.
  const parsed = FEED.document.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // A bad record key (a book id that is not a number) says why in its nested issue.
    const reason = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
    throw new FeedDocumentError(documentName, formatPath(issue.path), reason);
  }
  return parsed.data;
}

/** What the schema cannot say about a game: unique in its document, two different teams. */
function checkGame(documentName: string, game: FeedGame, gamePath: string, gamesSeen: Set<number>): void {
  if (gamesSeen.has(game.id)) throw new FeedDocumentError(documentName, `${gamePath}.id`, `game ${game.id} appears twice`);
  gamesSeen.add(game.id);
  if (game.away_team_id === game.home_team_id) {
    throw new FeedDocumentError(documentName, `${gamePath}.home_team_id`, 'home and away team are the same');
  }
}
