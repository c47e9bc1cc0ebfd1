import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { startTestApp, type TestApp } from '../support/app';
import { ROUTES } from '../../src/rest/routes';

// Real responses of every route, success and error, validate against /api/v1/openapi.json.

let t: TestApp;
let key: string;
let doc: any;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

beforeAll(async () => {
  t = await startTestApp({ feeds: ['test/fixtures/feeds/nba-2026-01-24-mixed-status.json'], now: () => new Date('2026-01-24T18:00:00Z') });
  key = (await t.createKey('elite')).key;
  doc = (await t.get('/api/v1/openapi.json')).body;
  ajv.addSchema({ $id: 'openapi', components: doc.components }, 'openapi');
});
afterAll(() => t.close());

function validate(path: string, status: number, body: unknown) {
  const response = doc.paths[path].get.responses[status];
  expect(response).toBeDefined();
  const schema = JSON.parse(JSON.stringify(response.content['application/json'].schema).replaceAll('"#/components', '"openapi#/components'));
  const ok = ajv.validate(schema, body);
  if (!ok) throw new Error(`${path} ${status}: ${ajv.errorsText(ajv.errors)}`);
}

const SAMPLES: Record<string, string[]> = {
  '/games': ['?date=2026-01-24', '?date=2026-01-24&include_markets=false&include_boxscore=false&limit=2'],
  '/games/:game_id': ['264315', '264317?include_markets=0'],
  '/games/:game_id/boxscore': ['264315', '264318'],
  '/games/:game_id/markets': ['264317', '264317?market_type=total&period=first_half'],
  '/teams': [''],
  '/leagues': [''],
  '/sportsbooks': [''],
  '/consensus': ['', '?market_type=spread'],
  '/betting-info': [''],
};

test('every route of the table is in the document with its parameters', () => {
  for (const route of ROUTES) {
    const op = doc.paths['/api/v1/nba/odds' + route.path.replace(/:([a-z_]+)/g, '{$1}')]?.[(route.method ?? 'GET').toLowerCase()];
    expect(op).toBeDefined();
    expect(op.parameters.map((p: any) => p.name).sort()).toEqual(Object.keys(route.params.shape).sort());
  }
});

test.each(Object.entries(SAMPLES))('responses of %s validate against the document', async (route, samples) => {
  const openPath = '/api/v1/nba/odds' + route.replace(/:([a-z_]+)/g, '{$1}');
  for (const sample of samples) {
    const url = '/api/v1/nba/odds' + route.replace(/\/:game_id/, '/' + sample).replace(/\?.*$/, '') + (route.includes(':') ? '' : sample);
    const res = await t.get(route.includes(':') ? '/api/v1/nba/odds' + route.replace(':game_id', sample) : url, key);
    expect(res.status).toBe(200);
    validate(openPath, 200, res.body);
  }
  const unauthorized = await t.get(openPath.replace('{game_id}', '1'));
  validate(openPath, 401, unauthorized.body);
});

test('error responses validate too (400, 404)', async () => {
  const bad = await t.get('/api/v1/nba/odds/games?limit=0', key);
  validate('/api/v1/nba/odds/games', 400, bad.body);
  const missing = await t.get('/api/v1/nba/odds/games/5', key);
  validate('/api/v1/nba/odds/games/{game_id}', 404, missing.body);
});
