import { z } from 'zod';
import { events, list, page } from '../envelope';
import { ENUM_VOCABULARY, liveOddsVariables, ODDS_STREAM_FIELD, oddsStreamDocument, OPERATIONS_DIR } from '../../graphql';
import { date, id, ids, instant, integer, interval, oneOf, required, someOf, text, withDefault } from '../params';
import { defineRoutes } from '../route';
import { PERIOD_ALIASES } from './periods';

// Live odds, line movement and historical odds (spec 4.8-4.10). The resolvers (src/graphql/resolvers/
// Live*.ts) check the plans and the arguments; this table only names parameters and envelopes.

/** What a missing start_date or end_date is told (the service's words, src/services/historical.ts). */
const DAY_HINT = 'a day written YYYY-MM-DD';

export const liveRoutes = defineRoutes([
  {
    path: '/live',
    summary: 'Latest odds of the games being played (all paid plans)',
    description:
      'Games with status in_progress or live, with their markets. updated_at is when the newest included quote was last seen, or the time of the data (newest feed document stored) when no game is being played. ' +
      'market_type=player_props answers the games with their player props only (markets.player_props: outcomes with player, prop_type, point, side; docs/player-props.md). ' +
      'Extension: period gives the markets of one period (the pushes carry every period).',
    params: z.object({
      game_id: id('Only this game'),
      market_type: oneOf('Only this market type', ENUM_VOCABULARY.LiveMarketType),
      book_id: id('Only this sportsbook'),
      period: oneOf('full_game (default; full is an alias) or first_half, second_half, first_quarter..fourth_quarter', ENUM_VOCABULARY.Period, PERIOD_ALIASES),
    }),
    operation: 'LiveOdds',
    variables: liveOddsVariables,
    envelope: list('live'),
    errors: [403],
    tags: ['live'],
    freshness: 'live',
  },
  {
    path: '/stream',
    summary: 'The resumable odds stream: Server-Sent Events with the /live-odds snapshot and delta messages (all paid plans)',
    description:
      'A live_odds snapshot (or, with Last-Event-ID, every change since that event from the stored change log, as one odds_change), then one ' +
      'odds_change per ingest that changed something in the filter, a live_odds snapshot every LIVE_PUSH_INTERVAL_MS and heartbeat events. ' +
      'Every event id is a global sequence number that survives restarts; a Last-Event-ID older than the log keeps (at least 24 h) or never ' +
      'issued gets a snapshot with resync_reason. The key may be given as api_key (EventSource cannot set headers). docs/live-protocol.md.',
    params: z.object({
      game_id: id('Only this game'),
      market_type: oneOf('Only this market type', ENUM_VOCABULARY.LiveMarketType),
      book_id: id('Only this sportsbook'),
      api_key: text('The API key, for clients that cannot send Authorization (a browser EventSource)', 200),
      last_event_id: text('Resume after this event id, for clients that cannot send the Last-Event-ID header'),
      signals: text(
        'Opt-in line_signal events (Pro, Elite): all, or a comma-separated list of steam, reverse_line_movement, market_leader; narrowed by game_id and market_type. ' +
          'They carry no id (not part of the sequence); docs/live-protocol.md, signal events',
      ),
    }),
    operation: 'OddsStream',
    envelope: events(ODDS_STREAM_FIELD),
    eventStream: { document: (schema) => oddsStreamDocument(schema, OPERATIONS_DIR) },
    errors: [403],
    tags: ['live'],
    freshness: 'live',
  },
  {
    path: '/live/movement',
    summary: 'Line movement of the games being played (or, games=upcoming, of those not started), one record per game, book, market, period and side (Pro, Elite)',
    description:
      'open_line/open_price: first price seen; current_line/current_price: the current quote (the live one when the book has one); opened_at/changed_at: when each was first seen. ' +
      'direction: towards_favorite / towards_underdog (spread, moneyline), towards_over / towards_under (total and over/under props), none. ' +
      'market_type=player_props adds one record per player, prop_type, line (main and alternates, is_alternate), side and book, with player and prop_type (docs/player-props.md). ' +
      'signals: the stored line-movement signals (steam, reverse_line_movement, market_leader, market_follower) the record\'s book took part in (docs/signals.md).',
    params: z.object({
      games: oneOf('live (default): the games being played; upcoming: the games not started yet (pregame opening -> current)', ENUM_VOCABULARY.MovementGames),
      game_id: ids('Only these games'),
      market_type: someOf('Only these market types (default moneyline, spread, total; player_props: every player prop)', ENUM_VOCABULARY.LiveMarketType),
      book_id: ids('Only these sportsbooks'),
      side: someOf('Only these sides', ENUM_VOCABULARY.Side),
      period: someOf('Only these periods (full is an alias of full_game)', ENUM_VOCABULARY.Period, PERIOD_ALIASES),
    }),
    operation: 'LiveMovement',
    variables: (params) => ({ ...params, player_props: !!params.market_type?.includes('player_props') }),
    envelope: list('movement'),
    errors: [403],
    tags: ['live'],
    freshness: 'live',
  },
  {
    path: '/historical',
    summary: 'Historical odds snapshots, one per game: the closing line, or the state at an instant (Pro, Elite)',
    description:
      'start_date and end_date (league-local days) are required, end_date not before start_date, at most 31 days apart. ' +
      'Without `at`, each snapshot is the closing line (last pregame prices seen before the start); with `at` (ISO 8601), the prices as they stood then. ' +
      'With `interval`, a series: one snapshot per game and instant, fetched_at the instant, paginated over every (game, instant) pair. ' +
      'A page costs its snapshots (at most 25, a full snapshot 1); with market_type=player_props every 250 prop prices cost 1 more, and a page over the budget is refused with a 400 naming the limit that fits.',
    params: z.object({
      start_date: required(date('First league-local day of the games, inclusive'), DAY_HINT),
      end_date: required(date('Last league-local day of the games, inclusive; at most 31 days from start_date to end_date, both included'), DAY_HINT),
      game_id: ids('Only these games'),
      market_type: someOf(
        'Only these market types (default moneyline, spread, total and the team totals; player_props: every player prop, in markets.player_props, each prop price counted in the page cost)',
        ENUM_VOCABULARY.LiveMarketType,
      ),
      book_id: ids('Only these sportsbooks'),
      at: instant('Extension: an ISO 8601 instant; the prices as they stood then instead of the closing line'),
      interval: interval(
        'Extension: a series instead of one snapshot per game, the prices every interval (5m, 15m, 1h, 1d: a whole number and m, h or d, 1m to 31d) from the start of start_date to the end of end_date, at most 2016 instants, instants after now left out; per game from its first price on, ordered by game then instant; not with at; limit at most 288 (docs/point-in-time.md)',
      ),
      limit: withDefault(integer('Page size (at most 288 with interval)', 1, 1000), 100),
      offset: withDefault(integer('Index of the first snapshot', 0, 2_147_483_647), 0),
    }),
    operation: 'HistoricalOdds',
    variables: (params) => ({ ...params, player_props: !!params.market_type?.includes('player_props') }),
    envelope: page('historical'),
    errors: [400, 403],
    tags: ['historical'],
    freshness: 'history',
  },
]);
