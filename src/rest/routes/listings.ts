import { z } from 'zod';
import { SIDES_BY_MARKET, ENUM_VOCABULARY, LISTING_DEFAULT_DEVIG_METHOD, LISTING_DEFAULT_REFERENCE, MARKET_TYPE_TABLE, PROP_TYPES } from '../../graphql';
import { list } from '../envelope';
import { date, ids, instant, integer, oneOf, someOf, withDefault } from '../params';
import { defineRoutes, type Route } from '../route';
import { PERIOD_ALIASES } from './periods';

// Cross-game market listings with value metrics (spec 4.5-4.7): one route per market type with a
// listing in the market-type table (src/domain/market-types.ts), all running the one operation
// ListingMarket with their market type; definitions of every number: README, "Market listings and value metrics".

const common = {
  date: date('League-local day (LEAGUE_TIME_ZONE), default today; without it, game_id is not limited to a day'),
  game_id: ids('One or more game ids'),
  book_id: ids('Listed sportsbooks (references, consensus and arbitrage still use every book)'),
  period: oneOf('full_game (default; full is an alias), first_half, second_half, first_quarter..fourth_quarter', ENUM_VOCABULARY.ListingPeriod, PERIOD_ALIASES),
  devig: oneOf(`De-vig method of the reference probability (default ${LISTING_DEFAULT_DEVIG_METHOD})`, ENUM_VOCABULARY.DevigMethod),
  reference: oneOf(
    `Which fair price ev.true_probability comes from: sharp (Pinnacle), exchange (an exchange's back prices) or consensus (default ${LISTING_DEFAULT_REFERENCE}); ` +
      'the consensus where the preferred book does not quote the market; ev.reference says which it was',
    ENUM_VOCABULARY.ReferenceChoice,
  ),
  live: oneOf(
    'Which prices by when they are offered: pregame, live (in-game) or all (default all; each entry says is_live, and only bettable prices are profitable or arbitrage legs)',
    ENUM_VOCABULARY.ListingLiveFilter,
  ),
  as_of: instant(
    "Extension (Pro, Elite): an ISO 8601 instant, not in the future; the listing from the prices known then, ages and staleness measured then, date defaulting to that instant's day (docs/point-in-time.md)",
  ),
};
const teamId = ids("The outcome's team (home or away side)");
const sort = (byDefault: 'odds' | 'value') =>
  oneOf(`odds (highest decimal price first) or value (highest ev_per_100 first); default ${byDefault}`, ENUM_VOCABULARY.ListingSort);

type ListedType = (typeof ENUM_VOCABULARY.MarketType)[number];

function listing(marketType: ListedType): Route {
  const { title, defaultSort, filter } = MARKET_TYPE_TABLE[marketType].listing;
  const summary = `${title} prices across games with value metrics (default sort: ${defaultSort})`;
  const params =
    filter === 'team'
      ? z.object({ ...common, team_id: teamId, sort: sort(defaultSort) })
      : z.object({ ...common, side: someOf(SIDES_BY_MARKET[marketType].join(' and/or '), SIDES_BY_MARKET[marketType]), sort: sort(defaultSort) });
  return {
    path: `/markets/${marketType}`,
    summary,
    // One operation, three routes: each needs its own name in the OpenAPI document (and in generated clients).
    operationId: `${marketType[0]!.toUpperCase()}${marketType.slice(1)}Listing`,
    description:
      'One entry per available price of a real sportsbook (aggregates Consensus and Open are left out), pregame and live alike (is_live). ' +
      'ev.true_probability comes from the sharp book (or, with reference, an exchange or the consensus) at the same point, else the consensus of the books at that point, else the nearest ' +
      'point moved with the key-number model; value is ev.ev_per_100. Ties sort by game_id, book_id, side.',
    params,
    operation: 'ListingMarket',
    variables: (p) => ({ ...p, market_type: marketType }),
    envelope: list('market_listing'),
    errors: [403],
    tags: ['markets'],
    // A listing at a past instant only changes if the history before it does (a late feed document).
    asOfFreshness: 'history',
    // Spec 4.7: totals have no team_id filter. Ignoring it like an unknown parameter would answer every
    // team's totals to a client that believes it filtered; a 400 tells it at once.
    ...(filter !== 'team' && { refuses: { team_id: `not accepted by /markets/${marketType} (an over/under belongs to no team); filter by game_id` } }),
  };
}

/** Player props (issue 22, docs/player-props.md): the same value metrics, one market per player, prop and game. */
const propListing: Route = {
  path: '/markets/player_props',
  summary: 'Player prop prices across games with value metrics (default sort: value)',
  operationId: 'PlayerPropsListing',
  description:
    'One entry per available player-prop price of a real sportsbook, main and alternate lines (is_alternate), pregame and live. ' +
    "ev.true_probability comes from the sharp book (or, with reference, an exchange or the consensus) at the same player, prop and line, else the consensus of the books there; props have no key-number model, so a line no book quotes on both sides has no reference. " +
    'arbitrage pairs the best over and under (yes and no) across books at one player, prop and line. Ties sort by game_id, player, prop, book_id, side.',
  params: z.object({
    date: common.date,
    game_id: common.game_id,
    team_id: ids('Games of these teams (a prop names its player; the players\' teams are not known from every source)'),
    player_id: ids('Only these players (GET /players)'),
    prop_type: someOf('Only these props', PROP_TYPES),
    book_id: common.book_id,
    side: someOf('over, under (props with a line), yes, no (double_double, triple_double)', ['over', 'under', 'yes', 'no'] as const),
    sort: sort('value'),
    devig: common.devig,
    reference: common.reference,
    limit: withDefault(integer('Page size', 1, 1000), 100),
    offset: withDefault(integer('Index of the first entry', 0, 2_147_483_647), 0),
    as_of: common.as_of,
    live: common.live,
  }),
  operation: 'PropListing',
  envelope: list('market_listing'),
  errors: [403],
  tags: ['markets'],
  asOfFreshness: 'history',
};

export const listingRoutes = defineRoutes([...ENUM_VOCABULARY.MarketType.map(listing), propListing]);
