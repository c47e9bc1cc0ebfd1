import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ingestDocuments } from '../../src/ingest/ingest';
import { readSources } from '../../src/ingest/sources';
import { startTestApp, type TestApp } from '../support/app';
import { doc, feedPath, readSeries } from '../support/feeds';
import { connectMcp, restQuery } from '../support/mcp';

// The MCP server at /mcp (docs/mcp.md), driven by the official SDK client on the real capture of
// 2026-01-24 (final, postponed, halftime, live and scheduled games) at 18:00Z, and the first capture of
// The Odds API's WNBA player props (2023-05-20, one game, 6 players): each tool's data is its
// REST route's for the same arguments, bad arguments and unknown ids are tool errors naming them, a
// Starter key is refused by a tool exactly where REST answers it 403, and a request without a key is a 401.

const BASE = '/api/v1/nba/odds';
const DAY = '2026-01-24';
const FINAL = 264314; // closed 119-115 (home 158)
const LIVE = 264316; // in progress
const DK = 68;
const PROPS_DAY = '2023-05-20';

/** A tool call and the REST request it stands for. */
interface Case {
  tool: string;
  args: Record<string, unknown>;
  rest: { path: string; method?: 'POST'; body?: unknown };
  /** The records of REST's data the tool keeps (find_value, find_arbitrage). */
  keep?: (record: any) => boolean;
}

const bets = [
  { game_id: FINAL, market_type: 'spread', side: 'home', line: -11.5 },
  { game_id: FINAL, market_type: 'moneyline', side: 'away' },
  { game_id: FINAL, market_type: 'total', side: 'over', line: 232.5, period: 'first_half' },
];
const clvBets = [
  { game_id: FINAL, book_id: DK, market_type: 'spread', side: 'home', line: -11.5, price: -110 },
  { game_id: FINAL, book_id: DK, market_type: 'moneyline', side: 'home', price: -450 },
];

const CASES: Case[] = [
  { tool: 'list_games', args: { date: DAY, include_boxscore: false }, rest: { path: '/games' } },
  { tool: 'list_games', args: { team_id: [158], status: 'finished', include_markets: false }, rest: { path: '/games' } },
  { tool: 'get_game', args: { game_id: FINAL }, rest: { path: `/games/${FINAL}` } },
  { tool: 'get_game_odds', args: { game_id: LIVE, market_type: ['spread', 'total'], book_id: [DK, 15] }, rest: { path: `/games/${LIVE}/markets` } },
  { tool: 'get_game_odds', args: { game_id: FINAL, period: 'first_half' }, rest: { path: `/games/${FINAL}/markets` } },
  { tool: 'find_value', args: { market_type: 'spread', date: DAY }, rest: { path: '/markets/spread?sort=value&' }, keep: (r) => r.ev?.profitable === true },
  { tool: 'find_value', args: { market_type: 'moneyline', date: DAY, devig: 'multiplicative', reference: 'consensus' }, rest: { path: '/markets/moneyline?sort=value&' }, keep: (r) => r.ev?.profitable === true },
  { tool: 'find_value', args: { market_type: 'player_props', date: DAY }, rest: { path: '/markets/player_props?sort=value&' }, keep: (r) => r.ev?.profitable === true },
  { tool: 'find_arbitrage', args: { market_type: 'total', date: DAY, live: 'all' }, rest: { path: '/markets/total' }, keep: (r) => r.ev?.arbitrage === true },
  { tool: 'find_arbitrage', args: { market_type: 'moneyline', date: DAY }, rest: { path: '/markets/moneyline' }, keep: (r) => r.ev?.arbitrage === true },
  { tool: 'player_props', args: { date: PROPS_DAY, limit: 5, prop_type: ['points'] }, rest: { path: '/markets/player_props' } },
  { tool: 'player_props', args: { date: PROPS_DAY, side: ['over'], sort: 'odds' }, rest: { path: '/markets/player_props' } },
  { tool: 'find_value', args: { market_type: 'player_props', date: PROPS_DAY, reference: 'consensus' }, rest: { path: '/markets/player_props?sort=value&' }, keep: (r) => r.ev?.profitable === true },
  { tool: 'find_arbitrage', args: { market_type: 'player_props', date: PROPS_DAY }, rest: { path: '/markets/player_props' }, keep: (r) => r.ev?.arbitrage === true },
  { tool: 'line_movement', args: { market_type: ['spread'] }, rest: { path: '/live/movement' } },
  { tool: 'historical_odds', args: { start_date: DAY, end_date: DAY, limit: 3 }, rest: { path: '/historical' } },
  { tool: 'closing_lines', args: { game_id: [FINAL], book_id: [DK] }, rest: { path: '/closing' } },
  { tool: 'consensus', args: { date: DAY }, rest: { path: '/consensus' } },
  { tool: 'grade_bets', args: { bets }, rest: { path: '/grade', method: 'POST', body: { bets } } },
  { tool: 'bet_clv', args: { bets: clvBets, devig: 'shin' }, rest: { path: '/clv', method: 'POST', body: { bets: clvBets, devig: 'shin' } } },
  { tool: 'signals', args: { date: DAY }, rest: { path: '/signals' } },
  { tool: 'middles', args: { date: DAY, market_type: ['spread', 'total'] }, rest: { path: '/markets/middles' } },
  { tool: 'live_odds', args: { market_type: 'spread' }, rest: { path: '/live' } },
  { tool: 'sportsbooks', args: {}, rest: { path: '/sportsbooks' } },
  { tool: 'teams', args: { league_id: 4, conference: 'east' }, rest: { path: '/teams' } },
  { tool: 'players', args: { limit: 4, league_id: 5 }, rest: { path: '/players' } },
  { tool: 'players', args: { name: 'wilson' }, rest: { path: '/players' } },
];

const REQUIRED_TOOLS = ['list_games', 'get_game', 'get_game_odds', 'find_value', 'find_arbitrage', 'player_props', 'line_movement', 'historical_odds', 'closing_lines', 'consensus', 'grade_bets', 'bet_clv'];
const EXTRA_TOOLS = ['signals', 'middles', 'sportsbooks', 'teams', 'players', 'convert_odds', 'devig', 'kelly_stake'];

let t: TestApp;
let keys: Record<'pro' | 'starter', string>;
const clients: Client[] = [];
let pro: Client;
let starter: Client;

beforeAll(async () => {
  t = await startTestApp({ feeds: ['test/fixtures/feeds/nba-2026-01-24-mixed-status.json'], now: () => new Date('2026-01-24T18:00:00Z'), env: { RATE_LIMIT_PRO: '100000', RATE_LIMIT_STARTER: '100000' } });
  const [props] = readSeries('theoddsapi/wnba-props-2023-05_2023-07.jsonl.gz');
  expect(await ingestDocuments([doc(props!.body, props!.fetched_at, 'props')], { db: t.db })).toMatchObject({ rejected: 0 });
  keys = { pro: (await t.createKey('pro')).key, starter: (await t.createKey('starter')).key };
  pro = await connectMcp(t.baseUrl, keys.pro);
  starter = await connectMcp(t.baseUrl, keys.starter);
  clients.push(pro, starter);
}, 120_000);
afterAll(async () => {
  for (const c of clients) await c.close();
  await t?.close();
});

/** The REST answer of a case with `key`. */
async function rest(c: Case, key: string) {
  const [path, fixed = ''] = c.rest.path.split('?');
  if (c.rest.method === 'POST') return t.request('POST', BASE + path, key, c.rest.body);
  const args = c.tool.startsWith('find_') ? Object.fromEntries(Object.entries(c.args).filter(([k]) => k !== 'market_type')) : c.args;
  const inPath = c.args.game_id !== undefined && path!.includes(String(c.args.game_id)) ? Object.fromEntries(Object.entries(args).filter(([k]) => k !== 'game_id')) : args;
  const query = restQuery(inPath);
  return t.get(`${BASE}${path}${fixed ? `?${fixed}${query.slice(1)}` : query}`, key);
}

const textOf = (result: any): string => result.content.map((c: any) => c.text).join('\n');
const firstText = (result: any): string => result.content[0].text;

describe('tools/list', () => {
  test('when an agent lists the tools, then every tool of the issue and the extras are there, each with a description, an input schema and an output schema', async () => {
    const { tools } = await pro.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining([...REQUIRED_TOOLS, ...EXTRA_TOOLS]));
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(60);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
  });

  test('when a tool stands for a route, then its arguments are the route\'s parameters with the route\'s words (the vocabulary is not spelled again)', async () => {
    const { tools } = await pro.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const openapi = (await t.get('/api/v1/openapi.json')).body;
    const games = openapi.paths[`${BASE}/games`].get.parameters.filter((p: any) => p.name);
    const props = byName.get('list_games')!.inputSchema.properties as Record<string, any>;
    expect(Object.keys(props).sort()).toEqual(games.map((p: any) => p.name).sort());
    for (const p of games) expect(props[p.name]).toMatchObject(p.schema);
    expect((byName.get('get_game')!.inputSchema as any).required).toEqual(['game_id']);
    // find_value chooses among the listing routes; it sorts by value itself.
    const findValue = byName.get('find_value')!.inputSchema as any;
    expect(findValue.properties.market_type.enum).toEqual(['moneyline', 'spread', 'total', 'player_props']);
    expect(findValue.properties.sort).toBeUndefined();
    expect(findValue.properties.devig.enum).toEqual(openapi.paths[`${BASE}/markets/spread`].get.parameters.find((p: any) => p.name === 'devig').schema.enum);
    expect(byName.get('grade_bets')!.inputSchema).toMatchObject({ required: ['bets'], properties: { bets: { type: 'array', maxItems: expect.any(Number) } } }); // the route's own limit (POST /grade)
    expect((byName.get('devig')!.inputSchema as any).properties.method.enum).toEqual(['multiplicative', 'additive', 'power', 'shin', 'odds_ratio', 'worst_case']);
  });
});

describe('tools/call: the data of the REST route', () => {
  test.each(CASES.map((c) => [c.tool, JSON.stringify(c.args), c] as const))('when %s is called with %s, then its data equals the REST route\'s for the same arguments', async (_tool, _args, c) => {
    const [result, answer] = [await pro.callTool({ name: c.tool, arguments: c.args }), await rest(c, keys.pro)];
    expect(answer.status).toBe(200);
    expect(result.isError).toBeFalsy();
    const expected = c.keep ? answer.body.data.filter(c.keep) : answer.body.data;
    expect((result.structuredContent as any).data).toEqual(expected);
    if (Array.isArray(expected)) expect((result.structuredContent as any).count).toBe(expected.length);
    if (answer.body.pagination) expect((result.structuredContent as any).pagination).toEqual(answer.body.pagination);
    // The JSON of the answer is there too, for clients that show the model only text.
    expect(JSON.parse((result.content as any)[1].text)).toEqual(result.structuredContent);
  });

  test('when the captures have records, then the answers are not empty (the comparisons are not vacuous)', async () => {
    const props = (await pro.callTool({ name: 'player_props', arguments: { date: PROPS_DAY } })).structuredContent as any;
    expect(props.data.length).toBeGreaterThan(10);
    const players = (await pro.callTool({ name: 'players', arguments: { league_id: 5 } })).structuredContent as any;
    expect(players.pagination.total).toBeGreaterThan(3);
  });

  test('when the capture has value, then find_value finds some (the filter is not vacuous; no capture at hand has an arbitrage)', async () => {
    let found = 0;
    for (const c of CASES.filter((x) => x.keep)) found += ((await pro.callTool({ name: c.tool, arguments: c.args })).structuredContent as any).data.length;
    expect(found).toBeGreaterThan(0);
  });

  test('when a tool answers, then its text says what it found and ends with what the call left of the key\'s rate budget', async () => {
    const first = firstText(await pro.callTool({ name: 'sportsbooks', arguments: {} }));
    const second = await pro.callTool({ name: 'list_games', arguments: { date: DAY, include_boxscore: false, include_markets: false } });
    expect(first).toMatch(/^\d+ sportsbooks\. Rate budget: \d+ of 100000 requests left this minute \(whole again in \d+ s\)\.$/);
    expect(firstText(second)).toMatch(/^7 games; records 1-7 of 7\. Rate budget: \d+ of 100000 requests left/);
    const remaining = (text: string) => Number(/(\d+) of 100000/.exec(text)![1]);
    expect(remaining(firstText(second))).toBeLessThan(remaining(first));
    expect((second.structuredContent as any).rate_limit).toMatchObject({ limit: 100000, remaining: remaining(firstText(second)) });
  });
});

describe('tools/call: refusals are tool errors', () => {
  test.each([
    ['list_games', { date: '2026-02-30' }, /invalid parameter date: .*/],
    ['list_games', { limit: 0 }, /invalid parameter limit: must be an integer from 1 to 1000/],
    ['list_games', { status: 'asleep' }, /invalid parameter status: must be one of/],
    ['list_games', { bogus: 1 }, /invalid parameter bogus: unknown argument; list_games takes date, /],
    ['list_games', { team_id: { id: 1 } }, /invalid parameter team_id: must be a number, a text/],
    ['get_game', { game_id: 'abc' }, /invalid parameter game_id: must be an integer/],
    ['get_game', {}, /invalid parameter game_id: is required/],
    ['get_game', { game_id: 999999 }, /game not found \(game_id 999999\)/],
    ['get_game_odds', { game_id: 999999 }, /game not found \(game_id 999999\)/],
    ['get_game_odds', { game_id: FINAL, period: 'fifth_quarter' }, /invalid parameter period: must be one of full, full_game, /],
    ['find_value', {}, /invalid parameter market_type: is required, one of moneyline, spread, total, player_props/],
    ['find_value', { market_type: 'corners' }, /invalid parameter market_type: must be one of moneyline, spread, total, player_props/],
    ['find_arbitrage', { market_type: ['spread', 'total'] }, /invalid parameter market_type: must be one of moneyline, spread, total, player_props \(one word\)/],
    ['find_value', { market_type: 'total', team_id: [158] }, /invalid parameter team_id: not accepted by \/markets\/total/],
    ['find_value', { market_type: 'spread', player_id: [1] }, /invalid parameter player_id: not taken with market_type spread/],
    ['find_arbitrage', { market_type: 'spread', devig: 'magic' }, /invalid parameter devig: must be one of multiplicative, /],
    ['historical_odds', { start_date: DAY }, /invalid parameter end_date: is required/],
    ['grade_bets', { bets: [{ game_id: FINAL, market_type: 'spread', side: 'sideways', line: -1.5 }] }, /invalid parameter bets\[0\]\.side: must be one of/],
    ['grade_bets', { bets: [] }, /invalid parameter bets: must hold at least one bet/],
    ['bet_clv', { bets: [{ game_id: FINAL, book_id: DK, market_type: 'moneyline', side: 'home' }] }, /invalid parameter bets\[0\]\.price: is required/],
    ['convert_odds', { american: 50 }, /invalid parameter american: must be American odds/],
    ['convert_odds', { american: -110, decimal: 1.9 }, /invalid parameter american: give exactly one of/],
    ['convert_odds', { fractional: 'ten to one' }, /invalid parameter: Invalid fractional odds/],
    ['devig', { american: [-110] }, /invalid parameter american: /],
    ['devig', { decimal: [1.9, 1.9], method: 'vibes' }, /invalid parameter method: /],
    ['kelly_stake', { probability: 1.2, american: 100 }, /invalid parameter probability: must be a probability/],
    ['no_such_tool', {}, /unknown tool no_such_tool; the tools are list_games, /],
  ])('when %s is called with %j, then the result is a tool error naming the problem', async (name, args, message) => {
    const result = await pro.callTool({ name, arguments: args });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toMatch(message);
    expect(firstText(result)).toMatch(/Rate budget: \d+ of 100000 requests left/);
  });
});

describe('plans', () => {
  test.each(CASES.map((c) => [c.tool, JSON.stringify(c.args), c] as const))('when a Starter key calls %s with %s, then it is a tool error exactly where REST answers 403, naming the plan', async (_tool, _args, c) => {
    const [result, answer] = [await starter.callTool({ name: c.tool, arguments: c.args }), await rest(c, keys.starter)];
    expect([200, 403]).toContain(answer.status);
    expect(Boolean(result.isError)).toBe(answer.status === 403);
    if (answer.status === 403) {
      expect(firstText(result)).toContain(answer.body.error);
      expect(firstText(result)).toMatch(/requires the Pro or Elite plan \(your plan: starter\)/);
    } else {
      const expected = c.keep ? answer.body.data.filter(c.keep) : answer.body.data;
      expect((result.structuredContent as any).data).toEqual(expected);
    }
  });

  test('when a Starter key is refused somewhere, then the same tools answer a Pro key (the gates are REST\'s, not the tools\')', async () => {
    const movement = await starter.callTool({ name: 'line_movement', arguments: {} });
    expect(movement.isError).toBe(true);
    expect((await pro.callTool({ name: 'line_movement', arguments: {} })).isError).toBeFalsy();
  });
});

describe('math tools', () => {
  test('when odds are converted, then every format comes back from any one of them', async () => {
    const fromAmerican = (await pro.callTool({ name: 'convert_odds', arguments: { american: -110 } })).structuredContent as any;
    expect(fromAmerican.data).toEqual({ decimal: 1.9091, american: -110, fractional: '10/11', implied_probability: 0.52381 });
    const fromFractional = (await pro.callTool({ name: 'convert_odds', arguments: { fractional: '3/2' } })).structuredContent as any;
    expect(fromFractional.data).toEqual({ decimal: 2.5, american: 150, fractional: '3/2', implied_probability: 0.4 });
    const fromProbability = (await pro.callTool({ name: 'convert_odds', arguments: { probability: 0.2 } })).structuredContent as any;
    expect(fromProbability.data).toMatchObject({ decimal: 5, american: 400, fractional: '4/1' });
  });

  test('when a market is de-vigged, then every method of the listings answers (a symmetric market is 50/50 by all but worst_case\'s bound)', async () => {
    const result = await pro.callTool({ name: 'devig', arguments: { american: [-110, -110] } });
    const data = (result.structuredContent as any).data;
    expect(data.map((m: any) => m.method)).toEqual(['multiplicative', 'additive', 'power', 'shin', 'odds_ratio', 'worst_case']);
    for (const m of data) {
      expect(m.overround).toBeCloseTo(0.047619, 6);
      for (const o of m.outcomes) expect(o.fair_probability).toBeCloseTo(0.5, 6);
    }
    expect(data[0].outcomes[0].fair).toEqual({ decimal: 2, american: 100, fractional: '1/1', implied_probability: 0.5 });
    const one = (await pro.callTool({ name: 'devig', arguments: { decimal: [1.5, 2.8], method: 'multiplicative' } })).structuredContent as any;
    expect(one.data).toHaveLength(1);
    const s = 1 / 1.5 + 1 / 2.8;
    expect(one.data[0].outcomes[0].fair_probability).toBeCloseTo(1 / 1.5 / s, 6);
  });

  test('when a Kelly stake is asked, then it is (p*d - 1)/(d - 1) scaled by the fraction, and nothing without an edge', async () => {
    const full = (await pro.callTool({ name: 'kelly_stake', arguments: { probability: 0.55, american: 100, bankroll: 1000 } })).structuredContent as any;
    expect(full.data).toEqual({ full_kelly: 0.1, stake_fraction: 0.1, edge_percentage: 10, decimal: 2, stake: 100 });
    const half = (await pro.callTool({ name: 'kelly_stake', arguments: { probability: 0.55, decimal: 2, fraction: 0.5 } })).structuredContent as any;
    expect(half.data.stake_fraction).toBe(0.05);
    const none = await pro.callTool({ name: 'kelly_stake', arguments: { probability: 0.4, american: 100 } });
    expect((none.structuredContent as any).data.stake_fraction).toBe(0);
    expect(firstText(none)).toMatch(/^No edge \(-20\.00%\): stake nothing\. Rate budget: /);
  });
});

describe('HTTP', () => {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } };
  const headers = { accept: 'application/json, text/event-stream' };

  test('when a request has no key or an unknown one, then 401 saying how to authenticate, and the SDK client cannot connect', async () => {
    for (const key of [undefined, 'sk_unknown0000000000000000000000000000000000000']) {
      const res = await t.request('POST', '/mcp', key, initialize, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="odds"');
      expect(res.body.error.message).toMatch(/^Unauthorized: missing or invalid API key: send the API key as the header Authorization: Bearer sk_\.\.\./);
    }
    await expect(connectMcp(t.baseUrl)).rejects.toThrow(/401|Authorization: Bearer/);
  });

  test('when a key\'s subscription ended, then 403 as on REST', async () => {
    const { key } = await t.createKey('pro', { expiresAt: new Date('2020-01-01T00:00:00Z') });
    const res = await t.request('POST', '/mcp', key, initialize, headers);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/subscription expired/);
  });

  test('when the body is not JSON, a batch, too large, or the method is not POST, then a clear refusal, never a 500', async () => {
    const broken = await t.request('POST', '/mcp', keys.pro, '{"jsonrpc":', { ...headers, 'content-type': 'application/json' });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toMatchObject({ code: -32700 });
    const batch = await t.request('POST', '/mcp', keys.pro, [initialize, { ...initialize, id: 2 }], headers);
    expect(batch.status).toBe(400);
    expect(batch.body.error.message).toMatch(/one JSON-RPC message per request: batches are not accepted/);
    const large = await t.request('POST', '/mcp', keys.pro, JSON.stringify({ ...initialize, pad: 'x'.repeat(200_000) }), { ...headers, 'content-type': 'application/json' });
    expect(large.status).toBe(413);
    for (const method of ['GET', 'DELETE']) {
      const res = await t.request(method, '/mcp', keys.pro, undefined, headers);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  test('when a key has spent its budget, then /mcp answers 429 with Retry-After, as REST does, and REST and /mcp draw on one budget', async () => {
    const small = await startTestApp({ db: t.db, env: { RATE_LIMIT_STARTER: '3' } });
    try {
      const { key } = await small.createKey('starter');
      expect((await small.get(`${BASE}/sportsbooks`, key)).status).toBe(200);
      expect((await small.request('POST', '/mcp', key, initialize, headers)).status).toBe(200);
      const third = await small.request('POST', '/mcp', key, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'sportsbooks', arguments: {} } }, headers);
      expect(third.status).toBe(200);
      expect(third.body.result.content[0].text).toMatch(/Rate budget: 0 of 3 requests left this minute/);
      const fourth = await small.request('POST', '/mcp', key, initialize, headers);
      expect(fourth.status).toBe(429);
      expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(fourth.body.error.message).toMatch(/3 requests per minute on the starter plan/);
    } finally {
      await small.close();
    }
  });

  test('when many requests come and go, then the server keeps no session: no session id is handed out', async () => {
    const res = await t.request('POST', '/mcp', keys.pro, initialize, headers);
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(res.body.result.serverInfo.name).toBe('odds-data-service');
    expect(textOf({ content: [{ text: res.body.result.instructions }] })).toMatch(/list_games/);
  });
});

describe('find_arbitrage on a market with an arbitrage', () => {
  // No real capture at hand holds an arbitrage; theoddsapi/period-markets-documented.jsonl (the real
  // prices of one WNBA game with its period markets derived from them, README of the fixtures) holds
  // one in the second half's total: the filter is shown keeping exactly REST's arbitrage legs.
  test('when the listing has arbitrage legs, then find_arbitrage answers exactly those, and find_value the profitable ones', async () => {
    const docs = [];
    for await (const d of readSources(feedPath('theoddsapi/period-markets-documented.jsonl'))) docs.push(d);
    const app = await startTestApp({ now: () => new Date('2026-07-17T23:05:00Z') });
    try {
      await ingestDocuments(docs.slice(0, 2), { db: app.db, bus: app.bus });
      const key = (await app.createKey('pro')).key;
      const client = await connectMcp(app.baseUrl, key);
      try {
        const legs = (await client.callTool({ name: 'find_arbitrage', arguments: { market_type: 'total', date: '2026-07-17', period: 'second_half' } })).structuredContent as any;
        const rest = await app.get(`${BASE}/markets/total?date=2026-07-17&period=second_half`, key);
        expect(legs.data).toEqual(rest.body.data.filter((e: any) => e.ev.arbitrage === true));
        expect(legs.data.map((e: any) => [e.side, e.odds.american]).sort()).toEqual([['over', '+110'], ['over', '-104'], ['under', '+105']]);
        const value = (await client.callTool({ name: 'find_value', arguments: { market_type: 'spread', date: '2026-07-17', period: 'first_quarter' } })).structuredContent as any;
        expect(value.data.map((e: any) => [e.book_id, e.side, e.odds.american])).toEqual([[69, 'home', '+120']]);
      } finally {
        await client.close();
      }
    } finally {
      await app.close();
    }
  });
});
