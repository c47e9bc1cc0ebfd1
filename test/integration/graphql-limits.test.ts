import { getIntrospectionQuery, isEnumType, Kind, print } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { buildSchema } from '../../src/graphql/schema';
import { loadOperations } from '../../src/graphql/operations';
import { PLAN_GATES, type GatedFeature } from '../../src/auth/viewer';
import { PLANS } from '../../src/domain';
import { COST_BUDGETS, MAX_ALIASES, MAX_DIRECTIVES, MAX_TOKENS, operationCost } from '../../src/graphql/limits';
import { startTestApp, type TestApp } from '../support/app';

// GraphQL abuse limits: every refusal is a GraphQL error with QUERY_TOO_COMPLEX before any resolver
// runs, over HTTP and graphql-ws alike, whether or not the request carries a key.

/** `levels` fragments, each spreading the previous one twice: 2^levels selections once expanded. */
function fragmentBomb(levels: number, type = 'Query', leaf = 'ok'): string {
  let doc = `fragment F0 on ${type} { ${leaf} }\n`;
  for (let i = 1; i <= levels; i++) doc += `fragment F${i} on ${type} { ...F${i - 1} ...F${i - 1} }\n`;
  return `${doc}query Bomb { ...F${levels} }`;
}

let t: TestApp;
let elite: string;
let starter: string;

beforeAll(async () => {
  t = await startTestApp({ feeds: ['test/fixtures/feeds/nba-2026-01-24-mixed-status.json'] });
  elite = (await t.createKey('elite')).key;
  starter = (await t.createKey('starter')).key;
});
afterAll(() => t.close());

test.each([
  ['without a key', undefined],
  ['with a key', 'starter'],
])('when a 24-level fragment bomb is posted %s, then it is refused with QUERY_TOO_COMPLEX and the server stays responsive', async (_name, plan) => {
  const [res, health] = await Promise.all([t.graphql(fragmentBomb(24), {}, plan ? starter : undefined), t.get('/healthz')]);
  expect(res.status).toBe(400);
  expect(res.body.data).toBeUndefined();
  expect(res.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  expect(res.body.errors[0].message).toMatch(/too costly/);
  expect(health.status).toBe(200);
});

test('when a fragment bomb is sent over graphql-ws, then the subscription errors with QUERY_TOO_COMPLEX and the socket stays open', async () => {
  const client = createClient({ url: t.baseUrl.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { apiKey: elite }, retryAttempts: 0 });
  try {
    const errors = await new Promise<unknown>((resolve) => {
      client.subscribe({ query: fragmentBomb(24) }, { next: () => {}, error: resolve, complete: () => resolve(null) });
    });
    expect(errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'QUERY_TOO_COMPLEX' }) })]);
    const ok = await new Promise<unknown>((resolve, reject) => {
      client.subscribe({ query: '{ ok }' }, { next: resolve, error: reject, complete: () => {} });
    });
    expect(ok).toEqual({ data: { ok: true } });
  } finally {
    await client.dispose();
  }
});

test('when the standard introspection query is sent with a key, then it is answered', async () => {
  const res = await t.graphql(getIntrospectionQuery(), {}, elite);
  expect(res.body.errors).toBeUndefined();
  expect(res.body.data.__schema.queryType.name).toBe('Query');
});

// Introspection is on in every environment (this file also runs under NODE_ENV=production: the
// `production` project of jest.config.js); GRAPHQL_INTROSPECTION=false turns it off.
describe('when GRAPHQL_INTROSPECTION is false', () => {
  let closed: TestApp;
  beforeAll(async () => {
    closed = await startTestApp({ db: t.db, env: { GRAPHQL_INTROSPECTION: 'false', REST_CACHE_MS: '300000' } });
  });
  afterAll(() => closed.close());

  test('then introspection is refused over POST and over GET (the cached path too), and ordinary queries still run', async () => {
    const post = await closed.graphql('{ __schema { queryType { name } } }', {}, elite);
    expect(post.body.errors[0]).toMatchObject({ message: expect.stringMatching(/introspection/i), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    for (const query of ['{ __schema { queryType { name } } }', '{ __type(name: "Query") { name } }']) {
      const res = await fetch(`${closed.baseUrl}/graphql?query=${encodeURIComponent(query)}`, { headers: { authorization: `Bearer ${elite}` } });
      const body = (await res.json()) as any;
      expect([query, body.data?.__schema ?? body.data?.__type ?? null, body.errors?.[0]?.extensions?.code]).toEqual([query, null, 'GRAPHQL_VALIDATION_FAILED']);
    }
    expect((await closed.graphql('{ ok }', {}, elite)).body).toEqual({ data: { ok: true } });
  });
});

test.each([
  ['aliases', `{ ${Array.from({ length: MAX_ALIASES + 1 }, (_, i) => `a${i}: ok`).join(' ')} }`, /alias/i],
  ['directives', `{ ok ${'@include(if: true) '.repeat(MAX_DIRECTIVES + 1)}}`, /directive/i],
])('when a query carries too many %s, then it is refused with QUERY_TOO_COMPLEX', async (_name, query, message) => {
  const res = await t.graphql(query, {}, elite);
  expect(res.status).toBe(400);
  expect(res.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  expect(res.body.errors[0].message).toMatch(message);
});

test('when a document has more tokens than the limit, then it fails to parse with a clear message', async () => {
  const res = await t.graphql(`{ ${'ok '.repeat(MAX_TOKENS)}}`, {}, elite);
  expect(res.status).toBe(400);
  expect(res.body.errors[0].message).toMatch(/5000 tokens/);
});

test('when a list is asked for at a size past the plan budget, then it is refused naming cost and budget', async () => {
  const outcomes = '{ outcomes { bookId side gameId marketType } }';
  const page = `games(limit: 100) { items { markets { spread ${outcomes} total ${outcomes} moneyline ${outcomes} } } }`;
  const costly = `{ ${Array.from({ length: 20 }, (_, i) => `p${i}: ${page}`).join(' ')} }`;
  const res = await t.graphql(costly, {}, starter);
  expect(res.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  expect(res.body.errors[0].message).toMatch(/costs \d+, the budget of the starter plan is 250000/);
});

test('when every REST operation runs at its largest page with every switch on, then it fits the smallest budget of the plans that may run it', () => {
  const schema = buildSchema();
  // Operations whose resolvers require a plan (requirePlan): a Starter key is refused them with a 403
  // whatever they cost, so their budget is the smallest of the plans their gate lets in.
  const gates: Record<string, GatedFeature> = { HistoricalOdds: 'historical', LiveMovement: 'lineMovement', LineSignals: 'lineMovement' };
  const budgetOf = (name: string) => Math.min(...(gates[name] ? PLAN_GATES[gates[name]] : PLANS).map((plan) => COST_BUDGETS[plan]));
  // An enum variable takes its first value (MONEYLINE); a list variable accepts one item; a list of input objects (bets) an empty list.
  const valueOf = (name: string, type: string) => {
    const named = schema.getType(type.replace(/[[\]!]/g, ''));
    if (isEnumType(named)) return named.getValues()[0]!.name;
    // A single input object (a webhook's): its smallest valid value.
    const objects: Record<string, unknown> = { CreateWebhookInput: { url: 'https://hooks.example.com/x', predicate: { type: 'STATUS_CHANGE' } }, UpdateWebhookInput: {} };
    if (!type.startsWith('[') && named && named.name in objects) return objects[named.name];
    return /Input/.test(type) ? [] : /Boolean/.test(type) ? true : /Int/.test(type) ? (name === 'limit' ? 100 : 1) : /String/.test(type) ? 'moneyline' : null;
  };
  for (const [name, document] of loadOperations(schema)) {
    const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
    if (operation?.kind !== Kind.OPERATION_DEFINITION) throw new Error(`${name}: no operation`);
    const variables = Object.fromEntries((operation.variableDefinitions ?? []).map((v) => [v.variable.name.value, valueOf(v.variable.name.value, print(v.type))]));
    expect({ name, fits: operationCost(schema, document, { variables }) <= budgetOf(name) }).toEqual({ name, fits: true });
  }
});

test('when a subscription is posted over HTTP, then it is refused with a pointer to graphql-ws', async () => {
  const res = await t.graphql('subscription { liveOdds { count } }', {}, elite);
  expect(res.status).toBe(400);
  expect(res.body.errors[0]).toMatchObject({ message: expect.stringMatching(/graphql-ws/), extensions: { code: 'BAD_REQUEST' } });
});
