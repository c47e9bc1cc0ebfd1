import type { BoxscoreRow, GameRow, LeagueRow, TeamRow } from '../../feed-rows';
import type { FeedBoxscore, FeedGame, FeedLeague, FeedTeam } from './schema';
import { mapStatus } from './status-map';

// Per-object normalisers of the document's league, teams, games and boxscores: upstream snake_case
// with nullish fields in, the stored rows (src/ingest/feed-rows.ts) out.

export function normalizeLeague(league: FeedLeague): LeagueRow {
  return {
    id: league.id,
    currentSeason: league.current_season == null ? null : String(league.current_season),
    currentSeasonType: league.current_season_type ?? null,
    isActive: league.is_active ?? null,
  };
}

/** Colours are stored as upper-case hex without '#' (one real capture had "cb0436"). */
function color(value: string | null | undefined): string | null {
  return value?.replace(/^#/, '').toUpperCase() ?? null;
}

export function normalizeTeam(team: FeedTeam, leagueId: number): TeamRow {
  return {
    id: team.id,
    leagueId,
    fullName: team.full_name,
    displayName: team.display_name ?? team.full_name,
    shortName: team.short_name ?? team.display_name ?? team.full_name,
    location: team.location ?? '',
    abbr: team.abbr,
    logo: team.logo ?? null,
    primaryColor: color(team.primary_color),
    secondaryColor: color(team.secondary_color),
    conferenceType: team.conference_type?.toUpperCase() ?? null,
    divisionType: team.division_type?.toUpperCase() ?? null,
    urlSlug: team.url_slug ?? null,
    coreId: team.core_id ?? null,
    win: team.standings?.win ?? null,
    loss: team.standings?.loss ?? null,
    ties: team.standings?.ties ?? null,
    overtimeLosses: team.standings?.overtime_losses ?? null,
    draw: team.standings?.draw ?? null,
  };
}

/** The source name of a document: the simulator writes documents of this format too. */
export function sourceOf(simulatedDocument: boolean): string {
  return simulatedDocument ? 'simulator' : 'actionnetwork';
}

/**
 * `simulatedDocument`: the whole document is labelled simulated (a game may also say so in meta).
 * `meta.source_ids` names the game's id in this source (other sources add theirs when they match it).
 */
export function normalizeGame(game: FeedGame, simulatedDocument: boolean): GameRow {
  const simulated = simulatedDocument || game.meta?.['simulated'] === true;
  return {
    id: game.id,
    leagueId: game.league_id,
    coreId: game.core_id == null ? null : String(game.core_id),
    status: mapStatus(game.status, game.real_status),
    upstreamStatus: game.status,
    realStatus: game.real_status ?? game.status,
    statusDisplay: game.status_display ?? null,
    startTime: new Date(game.start_time),
    awayTeamId: game.away_team_id,
    homeTeamId: game.home_team_id,
    winningTeamId: game.winning_team_id ?? null,
    type: game.type ?? null,
    season: game.season == null ? null : String(game.season),
    week: game.week ?? null,
    attendance: game.attendance ?? null,
    coverage: game.coverage ?? null,
    isFree: game.is_free ?? false,
    trending: game.trending ?? false,
    awayRotationNumber: game.away_rotation_number ?? null,
    homeRotationNumber: game.home_rotation_number ?? null,
    numBets: game.num_bets ?? null,
    broadcast: game.broadcast ?? null,
    series: game.series ?? null,
    meta: { ...game.meta, source_ids: { [sourceOf(simulated)]: game.id } },
    simulated,
  };
}

/** Scores by period count only the periods with both teams' points (later ones are null upstream). */
export function normalizeBoxscore(gameId: number, box: FeedBoxscore): BoxscoreRow {
  const periodScores = (box.linescore ?? []).flatMap((line, i) =>
    line && line.home_points != null && line.away_points != null ? [{ period: i + 1, home: line.home_points, away: line.away_points }] : [],
  );
  const home = box.total_home_points ?? null;
  const away = box.total_away_points ?? null;
  return {
    gameId,
    clock: box.clock ?? null,
    period: box.period ?? null,
    homeScore: home,
    awayScore: away,
    periodScores,
    totalPoints: home != null && away != null ? home + away : null,
    homeFirstHalf: box.total_home_firsthalf_points ?? null,
    awayFirstHalf: box.total_away_firsthalf_points ?? null,
    homeSecondHalf: box.total_home_secondhalf_points ?? null,
    awaySecondHalf: box.total_away_secondhalf_points ?? null,
  };
}
