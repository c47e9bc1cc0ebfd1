import { z } from 'zod';
import { ENUM_VOCABULARY } from '../../graphql';
import { list } from '../envelope';
import { date, decimal, ids, instant, oneOf, someOf } from '../params';
import { defineRoutes } from '../route';
import { PERIOD_ALIASES } from './periods';

// Signals a bettor can act on (issue 23; docs/signals.md): middles between bettable prices
// (operation Middles) and the line-movement signals the ingest stored (operation LineSignals).

export const middleRoutes = defineRoutes([
  {
    path: '/markets/middles',
    summary: 'Middles: pairs of bettable spread or total prices at different lines that both win inside a window, with stakes, probability and EV',
    description:
      'For every pair of lines on opposite sides of one game, period and live flag whose window holds results that win both bets (over 220.5 and under 223.5: ' +
      'totals of 221 to 223), the best bettable price of each side at its line among real books. Stakes equalise the return when one leg wins; ' +
      'middle_probability comes from the key-number model centred on the median line; ev_per_100 is the expected profit of 100 staked on the pair. Highest ev_per_100 first.',
    params: z.object({
      market_type: someOf('spread and/or total (default both)', ENUM_VOCABULARY.MiddleMarketType),
      date: date('League-local day (LEAGUE_TIME_ZONE), default today; without it, game_id is not limited to a day'),
      game_id: ids('One or more game ids'),
      book_id: ids('Only middles with a leg at one of these books'),
      period: oneOf('full_game (default; full is an alias), first_half, second_half, first_quarter..fourth_quarter', ENUM_VOCABULARY.ListingPeriod, PERIOD_ALIASES),
      live: oneOf('pregame, live (in-game) or all (default all); the two legs are always both pregame or both live', ENUM_VOCABULARY.ListingLiveFilter),
      min_ev_per_100: decimal('Only middles whose ev_per_100 is at least this (-100 to 100)', -100, 100),
      as_of: instant('Extension (Pro, Elite): an ISO 8601 instant, not in the future; the middles of the prices known then (docs/point-in-time.md)'),
    }),
    operation: 'Middles',
    envelope: list('middles'),
    errors: [403],
    tags: ['markets'],
    asOfFreshness: 'history',
  },
  {
    path: '/signals',
    summary: 'Line-movement signals: steam, reverse line movement and market leaders, detected at ingest (Pro, Elite)',
    description:
      'Signals the ingest detected from the pregame price history after each capture and stored (nothing is computed per request): steam (3 or more books moving one side the same way within 15 minutes), ' +
      'reverse_line_movement (the line moving toward the side with the minority of tickets, the money split shown) and market_leader (the first book on a new number, and how long the others took). ' +
      'Newest first. Definitions and thresholds: docs/signals.md.',
    params: z.object({
      date: date('League-local day (LEAGUE_TIME_ZONE) of the games, default today; without it, game_id is not limited to a day'),
      game_id: ids('One or more game ids'),
      kind: someOf('steam, reverse_line_movement and/or market_leader (default all)', ENUM_VOCABULARY.SignalKind),
      market_type: someOf('moneyline, spread and/or total (default all)', ENUM_VOCABULARY.MarketType),
    }),
    operation: 'LineSignals',
    envelope: list('line_signals'),
    errors: [403],
    tags: ['markets'],
  },
]);
