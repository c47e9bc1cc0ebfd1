import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { startTestApp, type TestApp } from '../support/app';
import { apiClient, type ApiClient } from '../support/api-client';
import { ROUTES } from '../../src/rest/routes';

// /api/v1/openapi.json: redocly's recommended rules pass it, every example in it validates, the
// responses of every route (success and error, through the typed client generated from it) validate
// against it, and the headers it declares are the ones the service sends.

const BASE = '/api/v1/nba/odds';
let t: TestApp;
let key: string;
let api: ApiClient;
let doc: any;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

beforeAll(async () => {
  t = await startTestApp({ feeds: ['test/fixtures/feeds/nba-2026-01-24-mixed-status.json'], now: () => new Date('2026-01-24T18:00:00Z') });
  key = (await t.createKey('elite')).key;
  api = apiClient(t.baseUrl, key);
  doc = (await t.get('/api/v1/openapi.json')).body;
  ajv.addSchema({ $id: 'openapi', components: doc.components }, 'openapi');
});
afterAll(() => t.close());

/** A `$ref`'d component (responses, headers, parameters), or the object itself. */
const deref = (value: any) => (value?.$ref ? value.$ref.split('/').slice(1).reduce((o: any, k: string) => o[k], doc) : value);
const openPath = (route: string) => BASE + route.replace(/:([a-z_]+)/g, '{$1}');
/** The operation of a path for `method` (default: its GET, or its POST for the routes that take a body). */
const opOf = (path: string, method?: string) => (method ? doc.paths[path]?.[method.toLowerCase()] : (doc.paths[path]?.get ?? doc.paths[path]?.post));
/** Every operation of the document with its path and method (paths such as /webhooks/{id} hold several). */
const operations = () =>
  Object.entries<any>(doc.paths).flatMap(([path, item]) => ['get', 'post', 'patch', 'delete'].filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m] })));

function validate(path: string, status: number, body: unknown, method?: string) {
  const response = deref(opOf(path, method).responses[status]);
  expect(response).toBeDefined();
  const schema = JSON.parse(JSON.stringify(response.content['application/json'].schema).replaceAll('"#/components', '"openapi#/components'));
  const ok = ajv.validate(schema, body);
  if (!ok) throw new Error(`${path} ${status}: ${ajv.errorsText(ajv.errors)}`);
}

describe('the document', () => {
  test('when linted by redocly with the recommended rules, then it has no error and no warning', async () => {
    const { createConfig, lintFromString } = await import('@redocly/openapi-core');
    const config = await createConfig({ extends: ['recommended'] });
    const lint = async (document: unknown) =>
      (await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config })).map(
        (p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? ''})`,
      );
    expect(await lint(doc)).toEqual([]);
    // The linter does see problems: two operations sharing an id (as the three listings once did).
    const broken = structuredClone(doc);
    broken.paths[`${BASE}/markets/spread`].get.operationId = broken.paths[`${BASE}/markets/moneyline`].get.operationId;
    expect((await lint(broken)).some((p) => p.includes('operation-operationId-unique'))).toBe(true);
  });

  test('when listing operations, then every route of the table is there once with its parameters', () => {
    const ids = new Set<string>();
    for (const route of ROUTES) {
      const op = opOf(openPath(route.path), route.method ?? 'GET');
      expect(op).toBeDefined();
      ids.add(op.operationId);
      const names = op.parameters.map(deref).filter((p: any) => p.in !== 'header').map((p: any) => p.name);
      expect(names.sort()).toEqual(Object.keys(route.params.shape).sort());
      expect(op.parameters.map(deref).every((p: any) => typeof p.description === 'string' && p.description.length > 0)).toBe(true);
    }
    expect(ids.size).toBe(ROUTES.length);
    expect(doc.paths[`${BASE}/markets/total`].get.operationId).toBe('TotalListing');
  });

  test('when reading historical, then start_date and end_date are required, and a request without one is a 400', async () => {
    const params = doc.paths[`${BASE}/historical`].get.parameters;
    expect(params.filter((p: any) => p.required).map((p: any) => p.name)).toEqual(['start_date', 'end_date']);
    const missing = await t.get(`${BASE}/historical?start_date=2026-01-24`, key);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ success: false, error: 'invalid parameter end_date: is required, a day written YYYY-MM-DD' });
    validate(`${BASE}/historical`, 400, missing.body);
  });

  test('when /markets/total is given team_id, then it answers the documented 400 instead of ignoring it', async () => {
    const op = doc.paths[`${BASE}/markets/total`].get;
    expect(op.parameters.map((p: any) => p.name)).not.toContain('team_id');
    expect(op.description).toContain('team_id is refused with a 400');
    const res = await t.get(`${BASE}/markets/total?team_id=158`, key);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid parameter team_id: not accepted by /markets/total (an over/under belongs to no team); filter by game_id');
    validate(`${BASE}/markets/total`, 400, res.body);
    // The listings that have the filter still take it.
    expect((await api.GET('/api/v1/nba/odds/markets/moneyline', { params: { query: { team_id: [158] } } })).response.status).toBe(200);
  });

  test('when reading descriptions, then the envelope, the error body, every header and every tag are described', () => {
    const games = doc.paths[`${BASE}/games`].get.responses[200].content['application/json'].schema;
    for (const name of ['success', 'data', 'count', 'pagination']) expect(games.properties[name].description).toBeTruthy();
    for (const name of ['limit', 'offset', 'total', 'has_more']) expect(games.properties.pagination.properties[name].description).toBeTruthy();
    for (const property of Object.values<any>(doc.components.schemas.Error.properties)) expect(property.description).toBeTruthy();
    for (const header of Object.values<any>(doc.components.headers)) expect(header.description).toBeTruthy();
    for (const tag of doc.tags) expect(tag.description).toBeTruthy();
  });
});

describe('responses against the document', () => {
  const DAY = '2026-01-24';
  const samples: Array<[string, () => Promise<{ data?: unknown; error?: unknown; response: Response }>]> = [
    ['/games', () => api.GET('/api/v1/nba/odds/games', { params: { query: { date: DAY } } })],
    ['/games', () => api.GET('/api/v1/nba/odds/games', { params: { query: { date: DAY, include_markets: false, include_boxscore: false, limit: 2 } } })],
    ['/games/:game_id', () => api.GET('/api/v1/nba/odds/games/{game_id}', { params: { path: { game_id: 264315 } } })],
    ['/games/:game_id', () => api.GET('/api/v1/nba/odds/games/{game_id}', { params: { path: { game_id: 264317 }, query: { include_markets: false } } })],
    ['/games/:game_id/boxscore', () => api.GET('/api/v1/nba/odds/games/{game_id}/boxscore', { params: { path: { game_id: 264318 } } })],
    ['/games/:game_id/markets', () => api.GET('/api/v1/nba/odds/games/{game_id}/markets', { params: { path: { game_id: 264317 } } })],
    [
      '/games/:game_id/markets',
      () => api.GET('/api/v1/nba/odds/games/{game_id}/markets', { params: { path: { game_id: 264317 }, query: { market_type: ['total'], period: 'first_half' } } }),
    ],
    ['/teams', () => api.GET('/api/v1/nba/odds/teams')],
    ['/leagues', () => api.GET('/api/v1/nba/odds/leagues')],
    ['/sportsbooks', () => api.GET('/api/v1/nba/odds/sportsbooks')],
    ['/consensus', () => api.GET('/api/v1/nba/odds/consensus', { params: { query: { market_type: ['spread'] } } })],
    ['/betting-info', () => api.GET('/api/v1/nba/odds/betting-info')],
    ['/markets/moneyline', () => api.GET('/api/v1/nba/odds/markets/moneyline', { params: { query: { sort: 'value' } } })],
    ['/markets/spread', () => api.GET('/api/v1/nba/odds/markets/spread')],
    ['/markets/total', () => api.GET('/api/v1/nba/odds/markets/total', { params: { query: { side: ['over'] } } })],
    ['/live', () => api.GET('/api/v1/nba/odds/live')],
    ['/live/movement', () => api.GET('/api/v1/nba/odds/live/movement')],
    ['/historical', () => api.GET('/api/v1/nba/odds/historical', { params: { query: { start_date: DAY, end_date: DAY } } })],
  ];

  test.each(samples)('when the typed client asks %s, then the 200 validates', async (route, call) => {
    const { data, response } = await call();
    expect(response.status).toBe(200);
    validate(openPath(route), 200, data);
  });

  test('when every route is asked without a key, then its 401 validates', async () => {
    for (const route of ROUTES) {
      const url = openPath(route.path).replace('{game_id}', '1');
      const res = route.method === 'POST' ? await fetch(t.baseUrl + url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' }).then(async (r) => ({ status: r.status, body: await r.json() })) : await t.get(url);
      expect(res.status).toBe(401);
      validate(openPath(route.path), 401, res.body);
    }
  });

  test('when a parameter is bad or a game missing, then the 400 and 404 validate', async () => {
    const bad = await t.get(`${BASE}/games?limit=0`, key);
    validate(`${BASE}/games`, 400, bad.body);
    const missing = await api.GET('/api/v1/nba/odds/games/{game_id}', { params: { path: { game_id: 5 } } });
    expect(missing.response.status).toBe(404);
    validate(`${BASE}/games/{game_id}`, 404, missing.error);
  });
});

describe('declared headers', () => {
  /** The declared headers of a response: name (lower case) -> required. */
  const declared = (path: string, status: number) =>
    new Map(Object.entries<any>(deref(opOf(path).responses[status]).headers ?? {}).map(([name, h]) => [name.toLowerCase(), Boolean(deref(h).required)]));

  /** Every required header is sent, and every X- header and Retry-After sent is declared. */
  function expectDeclared(path: string, status: number, headers: Headers) {
    const names = declared(path, status);
    for (const [name, required] of names) if (required) expect([status, name, headers.has(name)]).toEqual([status, name, true]);
    for (const [name] of headers) if (name.startsWith('x-') || name === 'retry-after') expect([status, name, names.has(name)]).toEqual([status, name, true]);
  }

  test('when answering 200, 304, 400, 401 and 404, then the headers are the declared ones', async () => {
    const ok = await api.GET('/api/v1/nba/odds/teams');
    expect(ok.response.status).toBe(200);
    expectDeclared(`${BASE}/teams`, 200, ok.response.headers);
    expect(ok.response.headers.get('x-ratelimit-limit')).toBe(String(t.config.rateLimits.elite));
    const etag = ok.response.headers.get('etag')!;
    const same = await api.GET('/api/v1/nba/odds/teams', { params: { header: { 'If-None-Match': etag } } });
    expect(same.response.status).toBe(304);
    expectDeclared(`${BASE}/teams`, 304, same.response.headers);
    const bad = await fetch(`${t.baseUrl}${BASE}/teams?league_id=x`, { headers: { authorization: `Bearer ${key}`, 'x-request-id': 'client-chosen.1' } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-request-id')).toBe('client-chosen.1');
    expectDeclared(`${BASE}/teams`, 400, bad.headers);
    const anonymous = await apiClient(t.baseUrl).GET('/api/v1/nba/odds/teams');
    expect(anonymous.response.status).toBe(401);
    expectDeclared(`${BASE}/teams`, 401, anonymous.response.headers);
    const missing = await api.GET('/api/v1/nba/odds/games/{game_id}', { params: { path: { game_id: 5 } } });
    expect(missing.response.status).toBe(404);
    expectDeclared(`${BASE}/games/{game_id}`, 404, missing.response.headers);
  });

  test('when the plan’s requests of the minute are spent, then the 429 carries the declared Retry-After', async () => {
    const limited = await startTestApp({ env: { RATE_LIMIT_STARTER: '1' } });
    try {
      const client = apiClient(limited.baseUrl, (await limited.createKey('starter')).key);
      expect((await client.GET('/api/v1/nba/odds/leagues')).response.status).toBe(200);
      const refused = await client.GET('/api/v1/nba/odds/leagues');
      expect(refused.response.status).toBe(429);
      expectDeclared(`${BASE}/leagues`, 429, refused.response.headers);
      expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      validate(`${BASE}/leagues`, 429, refused.error);
    } finally {
      await limited.close();
    }
  });
});

// Long synchronous walks last: the app shares this process, and a test that blocks the event loop for
// seconds lets keep-alive timers fire late, so a request right after one can meet a reset socket.
describe('examples and descriptions', () => {
  test('when reading the responses, then each has one example and every example validates against its schema', () => {
    let count = 0;
    for (const { path, method, op } of operations()) {
      for (const [status, raw] of Object.entries<any>(op.responses)) {
        const response = deref(raw);
        if (status === '304') {
          expect(response.content).toBeUndefined();
          continue;
        }
        const [type, content] = Object.entries<any>(response.content)[0]!;
        const examples = Object.values<any>(content.examples ?? {});
        expect([path, status, examples.length]).toEqual([path, status, 1]);
        // The event stream's example is the text of its first events (its schema is a string).
        if (type === 'text/event-stream') expect(examples[0].value).toMatch(/^event: live_odds\nid: \d+\ndata: \{/m);
        else validate(path, Number(status), examples[0].value, method);
        count++;
      }
    }
    expect(count).toBeGreaterThanOrEqual(ROUTES.length * 7);
  });

  test('when reading the body schemas, then every property of every response is described', () => {
    const undescribed: string[] = [];
    let properties = 0;
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
      for (const [name, value] of Object.entries(node as Record<string, unknown>)) {
        if (name === 'examples') continue; // real data, not schemas
        if (name === 'properties') {
          for (const [property, schema] of Object.entries(value as Record<string, any>)) {
            properties++;
            if (!schema.description) undescribed.push(`${at}/properties/${property}`);
          }
        }
        walk(value, `${at}/${name}`);
      }
    };
    walk(doc, '#');
    expect(undescribed).toEqual([]);
    expect(properties).toBeGreaterThan(1000);
  });
});
