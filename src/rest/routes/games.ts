import { z } from 'zod';
import { item, page } from '../envelope';
import { ENUM_VOCABULARY } from '../../graphql';
import { boolean, date, id, ids, instant, integer, oneOf, required, someOf, withDefault } from '../params';
import { defineRoutes } from '../route';
import { PERIOD_ALIASES } from './periods';

// Games, boxscores and per-game markets (spec 4.1-4.4). Closed sets are the schema enums' words.

export const MARKET_TYPES = ENUM_VOCABULARY.MarketType;

const gamePath = { game_id: required(id('Game id', { in: 'path' })) };
const dateParam = date('League-local day (LEAGUE_TIME_ZONE) the game starts on; resolves a game id to that day');
const asOf = instant('Extension (Pro, Elite): an ISO 8601 instant, not in the future; the markets as the service knew them then (docs/point-in-time.md)');

/** @include flags of an operation that selects some of the three markets (all when none named). */
export function marketFlags(types: readonly string[] | undefined): Record<(typeof MARKET_TYPES)[number], boolean> {
  return Object.fromEntries(MARKET_TYPES.map((t) => [t, !types || types.includes(t)])) as Record<(typeof MARKET_TYPES)[number], boolean>;
}

/** Words of the per-game markets' market_type: the three markets, and the core team-score markets as one word. */
const GAME_MARKET_WORDS = [...MARKET_TYPES, 'core_bet_types', 'player_props'] as const;

export const gameRoutes = defineRoutes([
  {
    path: '/games',
    summary: 'Games, ordered by start_time then game_id, paginated',
    params: z.object({
      date: date('Games on this league-local day (YYYY-MM-DD)'),
      start_date: date('First league-local day, inclusive'),
      end_date: date('Last league-local day, inclusive'),
      league_id: id('League id (4 NBA, 5 WNBA)'),
      game_id: ids('One or more game ids'),
      team_id: ids('Games of these teams (home or away)'),
      status: oneOf('scheduled, live or finished; also in_progress, closed, postponed, cancelled, unknown', ENUM_VOCABULARY.GameStatusFilter),
      include_markets: withDefault(boolean('false omits markets'), true),
      include_boxscore: withDefault(boolean('false omits boxscore'), true),
      limit: withDefault(integer('Page size', 1, 1000), 100),
      offset: withDefault(integer('Index of the first game', 0, 2_147_483_647), 0),
      as_of: instant(
        'Extension (Pro, Elite): an ISO 8601 instant, not in the future; each game\'s markets as the service knew them then (status and score are as now: no history of them is kept; docs/point-in-time.md)',
      ),
    }),
    operation: 'Games',
    envelope: page('games'),
    errors: [403],
  },
  {
    path: '/games/:game_id',
    summary: 'One game',
    params: z.object({
      ...gamePath,
      date: dateParam,
      as_of: asOf,
      include_markets: withDefault(boolean('false omits markets'), true),
      include_boxscore: withDefault(boolean('false omits boxscore'), true),
    }),
    operation: 'Game',
    envelope: item('game', 'GAME_NOT_FOUND'),
    errors: [403, 404],
  },
  {
    path: '/games/:game_id/boxscore',
    summary: 'Live or final boxscore of a game',
    params: z.object({ ...gamePath, date: dateParam }),
    operation: 'GameBoxscore',
    envelope: item('game', 'GAME_NOT_FOUND'),
    errors: [404],
  },
  {
    path: '/games/:game_id/markets',
    summary: 'Markets of a game (market_type, count, outcomes)',
    params: z.object({
      ...gamePath,
      date: dateParam,
      as_of: asOf,
      market_type: someOf(
        'Markets to include (default all but player_props): moneyline, spread, total, core_bet_types for the team totals (home_team_total, away_team_total; null when no book quotes one), ' +
          'and player_props (only when named: every player prop, outcomes with player, prop_type, point, side; null when no book quotes one)',
        GAME_MARKET_WORDS,
      ),
      book_id: ids('Sportsbook ids'),
      period: oneOf('full_game (default; full is an alias) or first_half, second_half, first_quarter..fourth_quarter', ENUM_VOCABULARY.Period, PERIOD_ALIASES),
    }),
    operation: 'GameMarkets',
    variables: ({ market_type, ...rest }) => ({
      ...rest,
      ...marketFlags(market_type),
      core_bet_types: !market_type || market_type.includes('core_bet_types'),
      player_props: !!market_type?.includes('player_props'),
    }),
    envelope: item('game', 'GAME_NOT_FOUND'),
    errors: [403, 404],
  },
]);
