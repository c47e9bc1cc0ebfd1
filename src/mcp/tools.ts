import type { GraphQLSchema } from 'graphql';
import { loadOperations } from '../graphql';
import { bodySchemaOf } from '../rest/openapi';
import { paramMeta } from '../rest/params';
import { ROUTES, type Route } from '../rest/routes';
import type { JsonSchema } from '../rest/envelope';

// The MCP tools that read the service: each one is a REST route (or, for find_value and
// find_arbitrage, one of the listing routes chosen by market_type) run with the same arguments, so
// its `data` is the route's `data`. Names, descriptions and the tool-specific rules are here; the
// parameters, their checks and the answers' JSON Schemas come from the route table
// (src/rest/routes/*), so no list of values is written twice.

/** A tool backed by REST routes. */
export interface RouteTool {
  name: string;
  title: string;
  /** What the tool is for and how to use it; the route's own summary and description follow. */
  description: string;
  /** The route it runs, or, by the word of the `market_type` argument, one of several. */
  routes: Route | ReadonlyMap<string, Route>;
  /** Arguments the tool sets itself (find_value sorts by value): not offered in its input schema. */
  fixed?: Record<string, string>;
  /** Keeps some of the route's records (find_value: the profitable prices). */
  keep?: (record: Record<string, unknown>) => boolean;
  /** What one record is called in the answer's text (`games`, `prices`). */
  noun: string;
}

const routeOf = (method: string, path: string): Route => {
  const route = ROUTES.find((r) => (r.method ?? 'GET') === method && r.path === path);
  if (!route) throw new Error(`no route ${method} ${path} in the route table`);
  return route;
};
const get = (path: string) => routeOf('GET', path);

/** The listing routes of /markets/<market type> (every market type with a listing, and player props), by market type. */
const LISTINGS: ReadonlyMap<string, Route> = new Map(
  ROUTES.filter((r) => (r.method ?? 'GET') === 'GET' && /^\/markets\/[a-z_]+$/.test(r.path) && ['ListingMarket', 'PropListing'].includes(r.operation)).map((r) => [r.path.slice('/markets/'.length), r]),
);

type Ev = { ev?: { profitable?: boolean; arbitrage?: boolean } | null };

const GAME_IDS = 'Game ids come from list_games (or get_game with a date).';

export const ROUTE_TOOLS: readonly RouteTool[] = [
  {
    name: 'list_games',
    title: 'List games',
    description: `Lists NBA and WNBA games with status, score, teams and (unless include_markets is false) each game's main markets; filter by date (league-local YYYY-MM-DD), date range, team_id, status. Start here to find game ids. Set include_boxscore and include_markets to false for a short answer. Paginated with limit and offset.`,
    routes: get('/games'),
    noun: 'games',
  },
  {
    name: 'get_game',
    title: 'Get a game',
    description: `One game by game_id: teams, status, score, boxscore and its main markets. ${GAME_IDS} Answers "not found" for an unknown id.`,
    routes: get('/games/:game_id'),
    noun: 'game',
  },
  {
    name: 'get_game_odds',
    title: "A game's odds",
    description: `Every sportsbook's prices of one game's markets (moneyline, spread, total; core_bet_types adds team totals; player_props only when named), for one period (full_game by default) and optionally some books (book_id from sportsbooks). ${GAME_IDS}`,
    routes: get('/games/:game_id/markets'),
    noun: 'game',
  },
  {
    name: 'find_value',
    title: 'Find +EV prices',
    description:
      'The prices with positive expected value (ev.profitable true) of one market type across games, highest ev_per_100 first: market_type moneyline, spread, total or player_props, plus the filters of that listing (date, game_id, book_id, period, live, devig, reference...). ' +
      'Each entry has the book, the price, the fair (de-vigged) probability it was measured against and the EV per 100 staked. Same records as the listing route, keeping only the profitable ones.',
    routes: LISTINGS,
    fixed: { sort: 'value' },
    keep: (r) => (r as Ev).ev?.profitable === true,
    noun: 'profitable prices',
  },
  {
    name: 'find_arbitrage',
    title: 'Find arbitrage',
    description:
      'The prices that are one leg of an arbitrage (ev.arbitrage true: the best prices of both sides at different books imply less than 100%) of one market type across games; ev.arbitrage_detail gives the other leg and the stakes. ' +
      'market_type moneyline, spread, total or player_props, plus the filters of that listing. Same records as the listing route, keeping only the arbitrage legs.',
    routes: LISTINGS,
    keep: (r) => (r as Ev).ev?.arbitrage === true,
    noun: 'arbitrage legs',
  },
  {
    name: 'player_props',
    title: 'Player props',
    description: 'Player prop prices (points, rebounds, assists, ...) across games with value metrics, filtered by game, team, player (player_id from players), prop_type, book and side; sorted by value by default; paginated.',
    routes: get('/markets/player_props'),
    noun: 'prop prices',
  },
  {
    name: 'line_movement',
    title: 'Line movement',
    description: 'How each book moved its line and price from the opening to now, for the games being played (games=live, default) or not started (games=upcoming), with the signals each move took part in. Needs the Pro or Elite plan.',
    routes: get('/live/movement'),
    noun: 'movement records',
  },
  {
    name: 'historical_odds',
    title: 'Historical odds',
    description: 'Odds of past games: the closing line of each game between start_date and end_date (both required, at most 31 days apart), the prices at an instant (at), or a series (interval). Needs the Pro or Elite plan.',
    routes: get('/historical'),
    noun: 'snapshots',
  },
  {
    name: 'closing_lines',
    title: 'Closing lines',
    description: 'The closing line (last pregame price before the game went live) of every game, book, market, period and side, with when it was captured, or why there is none.',
    routes: get('/closing'),
    noun: 'closing prices',
  },
  {
    name: 'consensus',
    title: 'Consensus',
    description: "The consensus prices and lines of a day's games across books, with public betting (tickets and money percentages) where known.",
    routes: get('/consensus'),
    noun: 'games',
  },
  {
    name: 'grade_bets',
    title: 'Grade bets',
    description:
      'Grades up to 500 bets (won, lost, push, void) from the final scores: each bet names game_id, market_type, side, and line for spreads and totals (period optional). result is null until the game is final. Nothing is stored.',
    routes: routeOf('POST', '/grade'),
    noun: 'graded bets',
  },
  {
    name: 'bet_clv',
    title: 'Closing-line value of bets',
    description:
      'Closing-line value of up to 500 bets: each bet names game_id, book_id, market_type, side, price (American) and line for spreads and totals. Answers the cents against the close, the fair close and the EV the bet had against it. Nothing is stored.',
    routes: routeOf('POST', '/clv'),
    noun: 'bets',
  },
  {
    name: 'signals',
    title: 'Line signals',
    description: 'Steam moves, reverse line movement and market leaders detected in the pregame price history of a day (or of game_id), newest first. Needs the Pro or Elite plan.',
    routes: get('/signals'),
    noun: 'signals',
  },
  {
    name: 'middles',
    title: 'Middles',
    description: 'Pairs of bettable spread or total prices at different lines that can both win, with the stakes, the middle probability and the EV per 100, highest EV first.',
    routes: get('/markets/middles'),
    noun: 'middles',
  },
  {
    name: 'live_odds',
    title: 'Live odds',
    description: 'The latest odds of the games being played now (in_progress or live), optionally of one game, market type, book or period.',
    routes: get('/live'),
    noun: 'live games',
  },
  {
    name: 'sportsbooks',
    title: 'Sportsbooks',
    description: 'Every sportsbook with its id (the book_id other tools filter by), name and kind (sharp, exchange, aggregate...).',
    routes: get('/sportsbooks'),
    noun: 'sportsbooks',
  },
  {
    name: 'teams',
    title: 'Teams',
    description: 'Teams with their ids (the team_id other tools filter by), names, abbreviations, conference and division; filter by league_id (4 NBA, 5 WNBA), conference or division.',
    routes: get('/teams'),
    noun: 'teams',
  },
  {
    name: 'players',
    title: 'Players',
    description: 'Players of the player props with their ids (the player_id player_props and bets take): search by part of the name (accents, case and order do not matter), team_id or league_id.',
    routes: get('/players'),
    noun: 'players',
  },
];

/** The route a tool runs for its arguments (the market_type word chooses among several). */
export function routeFor(tool: RouteTool, args: Record<string, unknown>): Route | { error: string } {
  if (!(tool.routes instanceof Map)) return tool.routes as Route;
  const routes = tool.routes as ReadonlyMap<string, Route>;
  const words = [...routes.keys()].join(', ');
  if (args.market_type === undefined || args.market_type === null) return { error: `invalid parameter market_type: is required, one of ${words}` };
  const word = typeof args.market_type === 'string' ? args.market_type.trim().toLowerCase() : '';
  return routes.get(word) ?? { error: `invalid parameter market_type: must be one of ${words} (one word)` };
}

/** The parameters of a route a tool offers (all but those it fixes), with their path/query place. */
export function paramsOf(tool: RouteTool, route: Route): string[] {
  return Object.keys(route.params.shape).filter((name) => !tool.fixed || !(name in tool.fixed));
}

/** The names of a route's path parameters (`:game_id`). */
export const pathParamsOf = (route: Route): string[] => [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);

const sameSchema = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** One JSON Schema standing for several (the same one, or anyOf the distinct ones). */
function oneSchema(schemas: JsonSchema[]): JsonSchema {
  const distinct = schemas.filter((s, i) => schemas.findIndex((t) => sameSchema(s, t)) === i);
  return distinct.length === 1 ? distinct[0]! : { anyOf: distinct };
}

/**
 * The input schema of a route tool: each parameter's JSON Schema and description as the OpenAPI
 * document gives them (src/rest/params.ts), the body of a POST route, and market_type when the tool
 * chooses among routes (a parameter some of them take says for which).
 */
export function inputSchemaOf(tool: RouteTool): JsonSchema {
  const routes: Array<[string | undefined, Route]> = tool.routes instanceof Map ? [...(tool.routes as ReadonlyMap<string, Route>)] : [[undefined, tool.routes as Route]];
  const first = routes[0]![1];
  if (first.body) {
    // A body is `{ bets, ... }` or a bare array: a tool's arguments are always the object.
    const openapi = first.body.openapi as { oneOf?: JsonSchema[] };
    return openapi.oneOf?.[0] ?? first.body.openapi;
  }
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  if (tool.routes instanceof Map) {
    properties.market_type = { type: 'string', enum: routes.map(([word]) => word), description: 'The market type whose listing to search' };
    required.add('market_type');
  }
  const names = [...new Set(routes.flatMap(([, route]) => paramsOf(tool, route)))];
  for (const name of names) {
    const takers = routes.filter(([, route]) => paramsOf(tool, route).includes(name));
    const metas = takers.map(([word, route]) => ({ word, meta: paramMeta(route.params.shape[name]!) }));
    const descriptions = [...new Set(metas.map((m) => m.meta.description + (m.meta.list ? ' (a list)' : '')))];
    const only = takers.length < routes.length ? ` (market_type ${takers.map(([word]) => word).join(', ')} only)` : '';
    const description =
      descriptions.length === 1 ? descriptions[0]! + only : metas.map((m) => `${m.word}: ${m.meta.description}`).join('; ');
    properties[name] = { ...oneSchema(metas.map((m) => m.meta.openapi)), description };
    if (takers.length === routes.length && metas.every((m) => m.meta.required)) required.add(name);
  }
  return { type: 'object', properties, ...(required.size && { required: [...required] }), additionalProperties: false };
}

/** What a rate-limited answer says of the key's budget (the X-RateLimit-* headers REST sends). */
export const RATE_LIMIT_SCHEMA: JsonSchema = {
  type: 'object',
  description: "The key's request budget after this call (as REST's X-RateLimit-* headers); absent where no key is counted (the local store)",
  required: ['limit', 'remaining', 'reset_seconds'],
  properties: {
    limit: { type: 'integer', description: 'Requests per minute of the plan' },
    remaining: { type: 'integer', description: 'Requests left in the current minute' },
    reset_seconds: { type: 'integer', description: 'Seconds until the budget is whole again' },
  },
};

/**
 * The output schema of a route tool: the REST body's fields but `success` (data, count, pagination,
 * updated_at as the route has them), and rate_limit.
 */
export function outputSchemaOf(tool: RouteTool, schema: GraphQLSchema, operations = loadOperations(schema)): JsonSchema {
  const routes = tool.routes instanceof Map ? [...(tool.routes as ReadonlyMap<string, Route>).values()] : [tool.routes as Route];
  const bodies = routes.map((route) => bodySchemaOf(schema, route, operations));
  const properties: Record<string, JsonSchema> = {};
  for (const body of bodies) {
    for (const [name, property] of Object.entries((body.properties ?? {}) as Record<string, JsonSchema>)) {
      if (name === 'success') continue;
      const all = bodies.map((b) => (b.properties as Record<string, JsonSchema>)[name]).filter((s): s is JsonSchema => s !== undefined);
      properties[name] = all.length > 1 ? oneSchema(all) : property;
    }
  }
  const required = ((bodies[0]!.required ?? []) as string[]).filter((name) => name !== 'success' && bodies.every((b) => ((b.required ?? []) as string[]).includes(name)));
  return { type: 'object', properties: { ...properties, rate_limit: RATE_LIMIT_SCHEMA }, required };
}
