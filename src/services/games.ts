import * as repo from '../db/odds-repository';
import type { GameRow, LeagueRow, SportsbookRow, TeamRow } from '../db/odds-repository';
import { searchPlayers } from '../db/player-repository';
import type { Player } from '../db/client';
import { playerSearchProblem, STATUS_FILTERS, type StatusWord } from '../domain';
import { dayOrToday, dayRange, invalidParameter, list, parsePage, parseText } from './arguments';
import { gamesAsOf, type GameAt } from './point-in-time';
import type { ReadContext } from './read-context';

// The read roots of schema/game.graphql, team.graphql, market.graphql and player.graphql: games (now
// or at an instant), the games of a day, teams, leagues, sportsbooks and players.

export type { GameRow, LeagueRow, Player, SportsbookRow, TeamRow };

/** Most games the games of a day (consensus, betting) read: a league day has at most about 15. */
const MAX_DAY_GAMES = 1000;

/** What Query.games is asked for. */
export interface GamesQuery {
  date?: string | null | undefined;
  startDate?: string | null | undefined;
  endDate?: string | null | undefined;
  leagueId?: number | null | undefined;
  gameId?: readonly number[] | null | undefined;
  teamId?: readonly number[] | null | undefined;
  status?: StatusWord | null | undefined;
  /** The prices of this instant (checked by the caller: plan, point-in-time.ts checkAsOfInstant). */
  asOf?: Date | null | undefined;
}

/** A page of games, with the prices of `asOf` when asked for (one read for the page). */
export async function gamesPage(ctx: ReadContext, args: GamesQuery, page: { limit: number; offset: number }): Promise<{ total: number; items: GameAt[] }> {
  const found = await repo.findGames(
    ctx.db.prisma,
    {
      ...dayRange(args, ctx.timeZone),
      leagueId: args.leagueId ?? undefined,
      gameIds: list(args.gameId),
      teamIds: list(args.teamId),
      statuses: args.status ? STATUS_FILTERS.get(args.status) : undefined,
    },
    page,
  );
  // Point in time: the page's games show the prices of then (one read for the page).
  return args.asOf ? { ...found, items: await gamesAsOf(ctx, found.items, args.asOf) } : found;
}

/** The games of `date` (default today, league-local), narrowed to `gameIds` when given. */
export async function gamesOfDay(ctx: ReadContext, date: string | null | undefined, gameIds: readonly number[] | null | undefined): Promise<GameRow[]> {
  const { items } = await repo.findGames(ctx.db.prisma, { ...dayOrToday(date, ctx.now, ctx.timeZone), gameIds: list(gameIds) }, { limit: MAX_DAY_GAMES, offset: 0 });
  return items;
}

/** Teams, narrowed by league, ids, conference and division. @throws AppError BAD_REQUEST on a bad text filter */
export function findTeams(
  ctx: Pick<ReadContext, 'db'>,
  args: { leagueId?: number | null; teamId?: readonly number[] | null; conference?: string | null; division?: string | null },
): Promise<TeamRow[]> {
  return repo.findTeams(ctx.db.prisma, {
    leagueId: args.leagueId ?? undefined,
    teamIds: list(args.teamId),
    conference: parseText('conference', args.conference),
    division: parseText('division', args.division),
  });
}

/** Leagues, narrowed by id, sport and whether active. @throws AppError BAD_REQUEST on a bad sport filter */
export function findLeagues(ctx: Pick<ReadContext, 'db'>, args: { leagueId?: number | null; sport?: string | null; isActive?: boolean | null }): Promise<LeagueRow[]> {
  return repo.findLeagues(ctx.db.prisma, { leagueId: args.leagueId ?? undefined, sport: parseText('sport', args.sport), isActive: args.isActive ?? undefined });
}

/** Every sportsbook. */
export const listSportsbooks = (ctx: Pick<ReadContext, 'db'>): Promise<SportsbookRow[]> => repo.listSportsbooks(ctx.db.prisma);

/** What Query.players is asked for. */
export interface PlayersQuery {
  name?: string | null | undefined;
  teamId?: readonly number[] | null | undefined;
  leagueId?: number | null | undefined;
  playerId?: readonly number[] | null | undefined;
  limit?: number | null | undefined;
  offset?: number | null | undefined;
}

/** A page of the players of player props, by name, team, league or id. @throws AppError BAD_REQUEST */
export async function findPlayers(ctx: Pick<ReadContext, 'db'>, args: PlayersQuery): Promise<{ total: number; items: Player[] }> {
  const page = parsePage(args.limit, args.offset);
  const name = args.name ?? undefined;
  if (name !== undefined) {
    const problem = playerSearchProblem(name.trim());
    if (problem) throw invalidParameter('name', problem);
  }
  const { players, total } = await searchPlayers(ctx.db.prisma, {
    name: name?.trim(),
    teamIds: list(args.teamId),
    leagueId: args.leagueId ?? undefined,
    playerIds: list(args.playerId),
    ...page,
  });
  return { total, items: players };
}
