import type { PlayerLine } from '../../../domain';
import { inInt32, type BoxscoreRow, type GameRow, type NormalizedDocument, type PlayerBoxscoreRow, type PlayerLineRow, type SkippedPart } from '../../feed-rows';
import { LEAGUE_ID_NBA, LEAGUE_ID_WNBA, seasonPhaseOn, teamByName } from '../../reference-data';
import { fnv1a } from '../the-odds-api/books';
import { FeedDocumentError } from '../feed-document-error';

/** The source name (`meta.source_ids` key, the source of stored box-score lines). */
export const ESPN_SOURCE = 'espn';

/** The recorded `source` label of a summary capture. */
export const ESPN_SUMMARY_LABEL = 'espn/summary';

/** ESPN's league slugs (`/sports/basketball/{nba,wnba}/summary`) onto league ids. */
export const ESPN_LEAGUES: Readonly<Record<string, number>> = { nba: LEAGUE_ID_NBA, wnba: LEAGUE_ID_WNBA };

/**
 * Game ids of games only ESPN knows (a summary of a game no odds source carried): 2,100,000,000 + a
 * hash of the event id, clear of Action Network's integer ids and The Odds API's range (1.5e9-2.1e9).
 */
const ESPN_GAME_IDS = { from: 2_100_000_000, size: 40_000_000 } as const;
export const espnGameId = (eventId: string): number => ESPN_GAME_IDS.from + (fnv1a(eventId) % ESPN_GAME_IDS.size);

/**
 * The box-score columns read, by ESPN's `keys` entry (the `names`/`labels` are shown as they are):
 * a made-attempted pair (`"7-14"`) fills two statistics. A column not listed here is kept in the
 * line as ESPN wrote it and parsed into nothing; a listed one absent leaves its statistic null.
 */
const COLUMNS: Readonly<Record<string, ReadonlyArray<keyof PlayerLine>>> = {
  minutes: ['minutes'],
  points: ['points'],
  rebounds: ['rebounds'],
  totalRebounds: ['rebounds'],
  offensiveRebounds: ['offensiveRebounds'],
  defensiveRebounds: ['defensiveRebounds'],
  assists: ['assists'],
  'threePointFieldGoalsMade-threePointFieldGoalsAttempted': ['threesMade', 'threesAttempted'],
  'fieldGoalsMade-fieldGoalsAttempted': ['fieldGoalsMade', 'fieldGoalsAttempted'],
  'freeThrowsMade-freeThrowsAttempted': ['freeThrowsMade', 'freeThrowsAttempted'],
  steals: ['steals'],
  blocks: ['blocks'],
  turnovers: ['turnovers'],
  fouls: ['fouls'],
  plusMinus: ['plusMinus'],
};

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** An integer statistic as ESPN writes it ("12", "+7", "-3", "--" or "" for none). */
function intOf(text: unknown): number | null {
  if (typeof text === 'number') return Number.isInteger(text) && inInt32(text) ? text : null;
  if (typeof text !== 'string' || !/^[+-]?\d{1,6}$/.test(text.trim())) return null;
  return Number(text.trim());
}

/** The league of a capture: its envelope's `league`, else the body's `header.league.slug`. */
function leagueOf(envelope: Record<string, unknown> | undefined, header: Record<string, unknown>): number | undefined {
  const slug = envelope?.['league'] ?? (isObject(header['league']) ? (header['league']['slug'] ?? header['league']['abbreviation']) : undefined);
  return typeof slug === 'string' ? ESPN_LEAGUES[slug.toLowerCase()] : undefined;
}

/**
 * One ESPN summary document as rows: the event's game (matched to our game by league, teams and
 * start time, src/ingest/store/game-identity.ts, and kept in `meta.source_ids.espn`), its score
 * (used only for a game no other source describes), and the box score: each team's players with
 * their line, parsed and as written. Refused, naming the path: a document without the event id, its
 * competition, date, two known teams, or the box score's teams. Left out and named in `skipped`: a
 * player without an athlete id, a team's block of another team than the game's two. Ignored: the
 * columns this service does not read (kept as written), everything else the summary carries.
 */
export function normalizeEspnSummary(body: unknown, name: string, envelope: Record<string, unknown> | undefined): NormalizedDocument {
  const fail = (path: string, reason: string): never => {
    throw new FeedDocumentError(name, path, reason);
  };
  if (!isObject(body)) fail('', 'an ESPN summary is an object with header and boxscore');
  const doc = body as Record<string, unknown>;
  const header = doc['header'];
  if (!isObject(header)) return fail('header', 'is required (the event)');
  const eventId = typeof header['id'] === 'string' || typeof header['id'] === 'number' ? String(header['id']) : fail('header.id', 'is required (the ESPN event id)');
  const leagueId = leagueOf(envelope, header) ?? fail('league', 'the capture names no league this service serves (nba or wnba)');
  const competitions = header['competitions'];
  const competition = Array.isArray(competitions) && isObject(competitions[0]) ? competitions[0] : fail('header.competitions[0]', 'is required (the game)');
  const startTime = typeof competition['date'] === 'string' ? new Date(competition['date']) : null;
  if (!startTime || Number.isNaN(startTime.getTime())) fail('header.competitions[0].date', 'must be an ISO 8601 time');
  const competitors = Array.isArray(competition['competitors']) ? competition['competitors'] : fail('header.competitions[0].competitors', 'is required (the two teams)');
  const sides: Partial<Record<'home' | 'away', { teamId: number; score: number | null; abbr: string | null }>> = {};
  competitors.forEach((c: unknown, i: number) => {
    const path = `header.competitions[0].competitors[${i}]`;
    if (!isObject(c)) return fail(path, 'must be an object');
    const side = c['homeAway'];
    if (side !== 'home' && side !== 'away') return fail(`${path}.homeAway`, 'must be home or away');
    const team = isObject(c['team']) ? c['team'] : fail(`${path}.team`, 'is required');
    const display = typeof team['displayName'] === 'string' ? team['displayName'] : fail(`${path}.team.displayName`, 'is required');
    const ref = teamByName(leagueId, display);
    if (!ref) return fail(`${path}.team.displayName`, `${JSON.stringify(display)} is not a team of league ${leagueId} (src/ingest/reference-data.ts)`);
    sides[side] = { teamId: ref.id, score: intOf(c['score']), abbr: typeof team['abbreviation'] === 'string' ? team['abbreviation'] : null };
  });
  const home = sides.home ?? fail('header.competitions[0].competitors', 'needs a home team');
  const away = sides.away ?? fail('header.competitions[0].competitors', 'needs an away team');
  if (home.teamId === away.teamId) fail('header.competitions[0].competitors', 'home and away are the same team');
  const statusType = isObject(competition['status']) && isObject(competition['status']['type']) ? competition['status']['type'] : {};
  const final = statusType['completed'] === true || statusType['state'] === 'post';
  const state = statusType['state'];

  const gameId = espnGameId(eventId);
  const { season, phase } = seasonPhaseOn(leagueId, startTime!.toISOString().slice(0, 10));
  const [status, upstream] = final ? ['finished', 'complete'] : state === 'in' ? ['in_progress', 'inprogress'] : ['scheduled', 'scheduled'];
  const scored = home.score !== null && away.score !== null;
  const game: GameRow = {
    id: gameId, leagueId, coreId: null, status, upstreamStatus: upstream, realStatus: upstream, statusDisplay: typeof statusType['description'] === 'string' ? statusType['description'] : null,
    startTime: startTime!, awayTeamId: away.teamId, homeTeamId: home.teamId,
    winningTeamId: final && scored && home.score !== away.score ? (home.score! > away.score! ? home.teamId : away.teamId) : null,
    type: phase === 'off' ? null : phase, season: String(season), week: null, attendance: null, coverage: null, isFree: false, trending: false,
    awayRotationNumber: null, homeRotationNumber: null, numBets: null, broadcast: null, series: null, meta: { source_ids: { [ESPN_SOURCE]: eventId } }, simulated: envelope?.['simulated'] === true,
  };
  const boxscores: BoxscoreRow[] = scored
    ? [{ gameId, clock: null, period: null, homeScore: home.score!, awayScore: away.score!, periodScores: [], totalPoints: home.score! + away.score!, homeFirstHalf: null, awayFirstHalf: null, homeSecondHalf: null, awaySecondHalf: null }]
    : [];

  const skipped: SkippedPart[] = [];
  const box = isObject(doc['boxscore']) ? doc['boxscore'] : fail('boxscore', 'is required (the players)');
  const teams = Array.isArray(box['players']) ? box['players'] : fail('boxscore.players', 'is required (each team\'s players)');
  const lines: PlayerLineRow[] = [];
  const columns: PlayerBoxscoreRow['columns'] = [];
  const seenAthletes = new Set<string>();
  teams.forEach((block: unknown, t: number) => {
    const path = `boxscore.players[${t}]`;
    if (!isObject(block)) return fail(path, 'must be an object');
    const team = isObject(block['team']) ? block['team'] : fail(`${path}.team`, 'is required (whose players)');
    const display = typeof team['displayName'] === 'string' ? team['displayName'] : null;
    const ref = display ? teamByName(leagueId, display) : undefined;
    const teamId = ref?.id ?? (typeof team['abbreviation'] === 'string' ? [home, away].find((s) => s.abbr === team['abbreviation'])?.teamId : undefined);
    if (teamId === undefined) return fail(`${path}.team`, 'names no team of the game');
    if (teamId !== home.teamId && teamId !== away.teamId) {
      skipped.push({ path, reason: `players of ${JSON.stringify(display)}, not a team of event ${eventId}, skipped` });
      return;
    }
    const statistics = Array.isArray(block['statistics']) && isObject(block['statistics'][0]) ? block['statistics'][0] : fail(`${path}.statistics[0]`, 'is required (the columns and athletes)');
    const keys = Array.isArray(statistics['keys']) ? statistics['keys'].map(String) : fail(`${path}.statistics[0].keys`, 'is required (what each column is)');
    const labels = Array.isArray(statistics['names']) ? statistics['names'].map(String) : Array.isArray(statistics['labels']) ? statistics['labels'].map(String) : keys;
    if (labels.length !== keys.length) fail(`${path}.statistics[0].names`, `names ${labels.length} columns, keys ${keys.length}`);
    columns.push({ teamId, labels, keys });
    const athletes = Array.isArray(statistics['athletes']) ? statistics['athletes'] : [];
    athletes.forEach((entry: unknown, a: number) => {
      const where = `${path}.statistics[0].athletes[${a}]`;
      const athlete = isObject(entry) && isObject(entry['athlete']) ? entry['athlete'] : null;
      const id = athlete && (typeof athlete['id'] === 'string' || typeof athlete['id'] === 'number') ? String(athlete['id']).trim() : '';
      const playerName = athlete && typeof athlete['displayName'] === 'string' ? athlete['displayName'].trim() : '';
      if (!id || !/^\d{1,12}$/.test(id)) return void skipped.push({ path: `${where}.athlete.id`, reason: 'a player without an ESPN athlete id is left out' });
      if (!playerName) return void skipped.push({ path: `${where}.athlete.displayName`, reason: `athlete ${id} without a name is left out` });
      if (seenAthletes.has(id)) return void skipped.push({ path: where, reason: `athlete ${id} listed twice: the first line is kept` });
      seenAthletes.add(id);
      const raw = isObject(entry) && Array.isArray(entry['stats']) ? entry['stats'].map((s) => (typeof s === 'string' ? s : s == null ? '' : String(s))) : [];
      const didNotPlay = (isObject(entry) && entry['didNotPlay'] === true) || raw.length === 0;
      const line: PlayerLine = { minutes: null, points: null, rebounds: null, offensiveRebounds: null, defensiveRebounds: null, assists: null, threesMade: null, threesAttempted: null,
        fieldGoalsMade: null, fieldGoalsAttempted: null, freeThrowsMade: null, freeThrowsAttempted: null, steals: null, blocks: null, turnovers: null, fouls: null, plusMinus: null,
        starter: isObject(entry) && entry['starter'] === true, didNotPlay };
      if (!didNotPlay) {
        keys.forEach((key, k) => {
          const fields = COLUMNS[key];
          const text = raw[k];
          if (!fields || text === undefined) return;
          const parts = fields.length === 2 ? text.split('-') : [text];
          if (parts.length !== fields.length) return;
          fields.forEach((f, i) => {
            const v = intOf(parts[i]);
            // A count is never negative (plus-minus is).
            if (v !== null && (v >= 0 || f === 'plusMinus')) (line as unknown as Record<string, number | null>)[f] = v;
          });
        });
        // A rebound total the box score omits is its two parts'.
        if (line.rebounds === null && line.offensiveRebounds !== null && line.defensiveRebounds !== null) line.rebounds = line.offensiveRebounds + line.defensiveRebounds;
      }
      const stats: Record<string, string> = {};
      labels.forEach((label, k) => {
        if (raw[k] !== undefined) stats[label] = raw[k]!;
      });
      lines.push({ gameId, athleteId: id, name: playerName, teamId, line, stats });
    });
  });
  if (!columns.length) fail('boxscore.players', 'holds neither team of the game');
  return {
    source: ESPN_SOURCE,
    carriesQuotes: false,
    identities: [{ gameId, sourceId: eventId, leagueId, homeTeamId: home.teamId, awayTeamId: away.teamId, startTime: startTime!, simulated: game.simulated }],
    league: null,
    teams: [],
    games: [game],
    boxscores,
    quotes: [],
    publicBetting: [],
    playerBoxscores: [{ gameId, source: ESPN_SOURCE, eventId, final, columns, lines }],
    ...(skipped.length && { skipped }),
  };
}
