import { isInt, isNullish, isNumber, isPlainRecord, marketsCertainlyValid, type Rec } from './markets-check';

/**
 * A hand-written check of a whole scoreboard document that is never more lenient than the zod schema
 * (`FEED.document` in schema.ts): true only when zod would accept the document too. Why: after the
 * markets (markets-check.ts), zod walking and copying the rest of each document (games, teams,
 * boxscores) was the largest part of the ingest's own CPU after `JSON.parse` (about 0.4 ms a capture).
 * When this says false the caller runs zod, so every refusal keeps zod's first issue, path and
 * message; this check only ever decides "certainly valid", and reads the fields the normaliser reads.
 *
 * Keep it in step with the schema: test/unit/feed-document-check.test.ts sets every field of a real
 * document to wrong values and holds this check to never accept what zod refuses.
 */
export function documentCertainlyValid(doc: unknown): boolean {
  if (!isPlainRecord(doc)) return false;
  if (!(doc['simulated'] === undefined || typeof doc['simulated'] === 'boolean')) return false;
  const league = doc['league'];
  if (!isNullish(league) && !leagueValid(league)) return false;
  const games = doc['games'];
  if (!Array.isArray(games)) return false;
  for (let i = 0; i < games.length; i++) if (!gameValid(games[i])) return false;
  return true;
}

const isNullableInt = (v: unknown): boolean => isNullish(v) || isInt(v);
const isNullableString = (v: unknown): boolean => isNullish(v) || typeof v === 'string';
const isNullableBoolean = (v: unknown): boolean => isNullish(v) || typeof v === 'boolean';
const isNullableStringOrNumber = (v: unknown): boolean => isNullish(v) || typeof v === 'string' || isNumber(v);

function leagueValid(league: unknown): boolean {
  if (!isPlainRecord(league)) return false;
  return isInt(league['id']) && isNullableStringOrNumber(league['current_season']) && isNullableString(league['current_season_type']) && isNullableBoolean(league['is_active']);
}

/** Fields of a game that are nullable integers, strings or booleans in the schema. */
const GAME_INTS = ['winning_team_id', 'week', 'attendance', 'away_rotation_number', 'home_rotation_number', 'num_bets'] as const;
const GAME_STRINGS = ['real_status', 'status_display', 'type', 'coverage'] as const;
const GAME_BOOLEANS = ['is_free', 'trending'] as const;

function gameValid(game: unknown): boolean {
  if (!isPlainRecord(game)) return false;
  const id = game['id'];
  if (!(isInt(id) && (id as number) > 0) || !isInt(game['league_id']) || !isInt(game['away_team_id']) || !isInt(game['home_team_id'])) return false;
  const status = game['status'];
  if (typeof status !== 'string' || status.length === 0) return false;
  const start = game['start_time'];
  if (typeof start !== 'string' || Number.isNaN(Date.parse(start))) return false;
  for (const k of GAME_INTS) if (!isNullableInt(game[k])) return false;
  for (const k of GAME_STRINGS) if (!isNullableString(game[k])) return false;
  for (const k of GAME_BOOLEANS) if (!isNullableBoolean(game[k])) return false;
  if (!isNullableStringOrNumber(game['season']) || !isNullableStringOrNumber(game['core_id'])) return false;
  // `z.record(z.string(), z.unknown())`: any plain object.
  if (!isNullish(game['meta']) && !isPlainRecord(game['meta'])) return false;
  if (!isNullish(game['broadcast']) && !isPlainRecord(game['broadcast'])) return false;
  const teams = game['teams'];
  if (!isNullish(teams)) {
    if (!Array.isArray(teams)) return false;
    for (let i = 0; i < teams.length; i++) if (!teamValid(teams[i])) return false;
  }
  const boxscore = game['boxscore'];
  if (!isNullish(boxscore) && !boxscoreValid(boxscore)) return false;
  return marketsCertainlyValid(game['markets']);
}

const TEAM_STRINGS = ['display_name', 'short_name', 'location', 'logo', 'primary_color', 'secondary_color', 'conference_type', 'division_type', 'url_slug'] as const;
const STANDINGS = ['win', 'loss', 'ties', 'overtime_losses', 'draw'] as const;

function teamValid(team: unknown): boolean {
  if (!isPlainRecord(team)) return false;
  if (!isInt(team['id']) || typeof team['full_name'] !== 'string' || typeof team['abbr'] !== 'string' || !isNullableInt(team['core_id'])) return false;
  for (const k of TEAM_STRINGS) if (!isNullableString(team[k])) return false;
  const standings = team['standings'];
  if (isNullish(standings)) return true;
  if (!isPlainRecord(standings)) return false;
  for (const k of STANDINGS) if (!isNullableInt(standings[k])) return false;
  return true;
}

const BOXSCORE_INTS = [
  'period', 'total_away_points', 'total_home_points', 'total_away_firsthalf_points', 'total_home_firsthalf_points', 'total_away_secondhalf_points', 'total_home_secondhalf_points',
] as const;

function boxscoreValid(box: unknown): boolean {
  if (!isPlainRecord(box)) return false;
  if (!isNullableString(box['clock'])) return false;
  for (const k of BOXSCORE_INTS) if (!isNullableInt(box[k])) return false;
  const linescore = box['linescore'];
  if (isNullish(linescore)) return true;
  if (!Array.isArray(linescore)) return false;
  for (let i = 0; i < linescore.length; i++) {
    const period: unknown = linescore[i];
    // `linescorePeriod.nullable()`: null, not undefined (a hole).
    if (period === null) continue;
    if (!isPlainRecord(period)) return false;
    if (!isNullableInt((period as Rec)['away_points']) || !isNullableInt((period as Rec)['home_points'])) return false;
  }
  return true;
}
