import { z } from 'zod';
import { list, page } from '../envelope';
import { boolean, date, id, ids, integer, required, someOf, text, withDefault } from '../params';
import { defineRoutes } from '../route';
import { MARKET_TYPES, marketFlags } from './games';

// Teams, leagues, sportsbooks, consensus and betting-info (spec 4.11-4.15).

export const referenceRoutes = defineRoutes([
  {
    path: '/teams',
    summary: 'Teams, ordered by id',
    params: z.object({
      league_id: id('League id'),
      team_id: ids('One or more team ids'),
      conference: text('Conference, case-insensitive prefix (east, EASTERN, western)', 50),
      division: text('Division, case-insensitive prefix (atlantic, PACIFIC)', 50),
    }),
    operation: 'Teams',
    freshness: 'reference',
    envelope: list('teams'),
  },
  {
    path: '/players',
    summary: 'Players of player props (issue 22), ordered by name then id',
    description:
      'A player is one per league and normalised name, whatever source or spelling named them. name matches any part of the name or an alias ' +
      'regardless of case, accents, punctuation and word order. team_id is the current team where a source or the simulator says it; ' +
      "The Odds API's props do not, so their players have team_id null (docs/player-props.md).",
    params: z.object({
      name: text('Part of the name (case, accents and word order do not matter: wilson, A\'ja, Delle Donne)', 100),
      team_id: ids('Players whose current team is one of these'),
      league_id: id('League id (4 NBA, 5 WNBA)'),
      player_id: ids('One or more player ids'),
      limit: withDefault(integer('Page size', 1, 1000), 100),
      offset: withDefault(integer('Index of the first player', 0, 2_147_483_647), 0),
    }),
    operation: 'Players',
    // Not 'reference': the ingest adds players and moves them between teams as captures arrive.
    envelope: page('players'),
  },
  {
    path: '/players/:player_id/games',
    summary: "A player's game log: the player's box-score lines (ESPN's summary), newest game first",
    description:
      'One line per game of the athlete the player is linked to (espn_id; docs/player-props.md): the statistics parsed (null where the box score gives none) ' +
      'and stats, the line exactly as the box score writes it (by column: MIN, FG, 3PT, ...). corrected_at and previous: the last stat correction. ' +
      'A player no box score linked has no lines.',
    params: z.object({
      player_id: required(id('Player id', { in: 'path' })),
      limit: withDefault(integer('Page size', 1, 1000), 100),
      offset: withDefault(integer('Index of the first line', 0, 2_147_483_647), 0),
    }),
    operation: 'PlayerGames',
    envelope: page('games'),
    errors: [404],
  },
  {
    path: '/leagues',
    summary: 'Leagues, ordered by id',
    params: z.object({ league_id: id('League id'), sport: text('Sport (basketball)', 50), is_active: boolean('Active leagues only (true) or inactive only (false)') }),
    operation: 'Leagues',
    freshness: 'reference',
    envelope: list('leagues'),
  },
  {
    path: '/sportsbooks',
    summary: 'Sportsbooks, ordered by id',
    params: z.object({}),
    operation: 'Sportsbooks',
    freshness: 'reference',
    envelope: list('sportsbooks'),
  },
  {
    path: '/consensus',
    summary: 'Consensus prices, lines and public betting per game of a day',
    params: z.object({
      date: date('League-local day, default today'),
      game_id: ids('One or more game ids'),
      market_type: someOf('Markets to include (default all)', MARKET_TYPES),
    }),
    operation: 'Consensus',
    variables: ({ market_type, ...rest }) => ({ ...rest, ...marketFlags(market_type) }),
    envelope: list('consensus'),
  },
  {
    path: '/betting-info',
    summary: 'Public betting (tickets %, money %, bets) per game, market and book',
    params: z.object({
      date: date('League-local day, default today'),
      game_id: ids('One or more game ids'),
      market_type: someOf('Market types', MARKET_TYPES),
      book_id: ids('Sportsbook ids'),
    }),
    operation: 'BettingInfo',
    envelope: list('betting_info'),
  },
]);
