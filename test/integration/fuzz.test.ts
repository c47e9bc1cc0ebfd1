import fc from 'fast-check';
import { isEnumType, print, type TypeNode } from 'graphql';
import { loadOperations } from '../../src/graphql/operations';
import { buildSchema } from '../../src/graphql/schema';
import { startTestApp, type TestApp } from '../support/app';

// Hostile values over every documented parameter (read from /api/v1/openapi.json) of every REST
// route, and over the variables of every operation the routes run (src/graphql/operations), sent
// to /graphql. Whatever the value: never a 5xx; REST errors in the envelope with the documented
// wording; GraphQL errors never INTERNAL_SERVER_ERROR. Fixed seeds keep a run reproducible.

const FIXTURE_DAY = '2026-01-24';
const RUNS_PER_ROUTE = 40;
const RUNS_PER_OPERATION = 40;

/** Values that broke, or could break, something below the parameter layer. */
const HOSTILE: readonly string[] = [
  '', ' ', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf',
  '\u0000', 'east\u0000', '\u0001\u001f\u007f', '\\', '%', '_', '%_\\', "'", '"', "' OR 1=1 --", ';', '$1',
  '9999-12-31', '0000-01-01', '0001-01-01', '1899-12-31', '3000-01-01', '-000001-01-01T00:00:00Z', '+275760-09-13T00:00:00Z',
  '2026-02-30', '2026-13-01', '2026-01-24T25:00:00Z', '2026-01-24T12:00:00+99:00', '1,1,1', '-1', '0', '1.5', '1e309', '-0', '0x10',
  'NaN', 'Infinity', '2147483648', '-2147483649', '9007199254740993', '1,,2', ',', 'true', 'null', '[]', '{}',
  'x'.repeat(3000), '\uFFFF', '😀', '\u202E', '<script>', '../../etc/passwd', 'full', 'FULL_GAME', ' scheduled ',
];

/** Already percent-encoded values: invalid UTF-8 and broken escapes. */
const RAW_ENCODED: readonly string[] = ['%FF', '%E0%A4%A', '%', '%%', '%C0%80', '%ED%A0%80'];

const hostile = fc.constantFrom(...HOSTILE);
/** `text` with lone surrogates replaced (encodeURIComponent throws on them; RAW_ENCODED sends bad bytes). */
const wellFormed = (text: string): string => (text as string & { toWellFormed(): string }).toWellFormed();
const junk = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 20 }));
const anyInteger = fc.oneof(fc.integer(), fc.integer({ min: -3, max: 300_000 }), fc.constantFrom(2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER + 2)).map(String);
const aDate = fc.oneof(fc.constant(FIXTURE_DAY), fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)));
const anInstant = fc.oneof(fc.constant(`${FIXTURE_DAY}T20:00:00Z`), fc.date({ noInvalidDate: true }).map((d) => d.toISOString()));

/** A query-string value for an OpenAPI parameter schema: mostly plausible, often hostile. */
function scalarValue(schema: any): fc.Arbitrary<string> {
  const plausible: fc.Arbitrary<string>[] = [];
  if (schema.enum) plausible.push(fc.constantFrom(...schema.enum.map(String)), fc.constantFrom(...schema.enum.map((v: string) => String(v).toUpperCase())));
  if (schema.type === 'integer') plausible.push(fc.integer({ min: schema.minimum ?? -10, max: Math.min(schema.maximum ?? 10, 300_000) }).map(String), anyInteger);
  if (schema.type === 'boolean') plausible.push(fc.constantFrom('true', 'false', '1', '0', 'TRUE', 'yes'));
  if (schema.format === 'date') plausible.push(aDate);
  if (schema.format === 'date-time') plausible.push(anInstant, aDate);
  if (schema.type === 'string' && !schema.enum && !schema.format) plausible.push(fc.constantFrom('east', 'basketball', 'atlantic'));
  return fc.oneof(...plausible, hostile, junk);
}

/** One parameter as query-string pieces: a value, a comma list, a repetition, a bracketed object or raw bytes. */
function parameterPieces(name: string, schema: any): fc.Arbitrary<string[]> {
  const encode = (v: string) => `${name}=${encodeURIComponent(wellFormed(v))}`;
  const item = schema.type === 'array' ? scalarValue(schema.items) : scalarValue(schema);
  return fc.oneof(
    { weight: 6, arbitrary: item.map((v) => [encode(v)]) },
    { weight: 2, arbitrary: fc.array(item, { minLength: 2, maxLength: 4 }).map((vs) => [encode(vs.join(','))]) },
    { weight: 2, arbitrary: fc.array(item, { minLength: 2, maxLength: 3 }).map((vs) => vs.map(encode)) },
    { weight: 1, arbitrary: item.map((v) => [`${name}[a]=${encodeURIComponent(wellFormed(v))}`, `${name}[__proto__]=1`]) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_ENCODED).map((raw) => [`${name}=${raw}`]) },
  );
}

/** A path segment for a path parameter. */
function pathValue(schema: any): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('264317', '264315', '1'),
    scalarValue(schema).map((v) => encodeURIComponent(wellFormed(v))),
    fc.constantFrom(...RAW_ENCODED.filter((r) => r !== '%' && r !== '%%')),
  );
}

let t: TestApp;
let doc: any;
let requests = 0;
let keyValue = '';

/** An elite key, renewed before the per-minute limit could answer 429 and hide what lies behind it. */
async function key(): Promise<string> {
  if (++requests % 1000 === 0) keyValue = (await t.createKey('elite')).key;
  return keyValue;
}

beforeAll(async () => {
  t = await startTestApp({ feeds: ['test/fixtures/feeds/nba-2026-01-24-mixed-status.json'], now: () => new Date('2026-01-24T18:00:00Z') });
  doc = (await t.get('/api/v1/openapi.json')).body;
  keyValue = (await t.createKey('elite')).key;
});
afterAll(() => t.close());

test('the OpenAPI document lists the REST routes to fuzz', () => {
  expect(Object.keys(doc.paths).length).toBeGreaterThanOrEqual(13);
});

describe('when every documented REST parameter gets hostile values, then no answer is a 5xx', () => {
  // GET routes answering JSON: the POST routes' bodies are fuzzed in closing.test.ts, and the event
  // stream (which never ends when accepted) in sse-stream.test.ts.
  const paths = (): [string, any][] =>
    Object.entries(doc.paths)
      .filter(([, item]: [string, any]) => item.get?.responses[200].content['application/json'])
      .map(([path, item]: [string, any]) => [path, item.get]);

  test('every route, every parameter (generated)', async () => {
    let seed = 12;
    for (const [path, operation] of paths()) {
      const params: any[] = operation.parameters ?? [];
      const query = params.filter((p) => p.in === 'query');
      const inPath = params.filter((p) => p.in === 'path');
      const request = fc.record({
        pieces: fc.tuple(...query.map((p) => fc.option(parameterPieces(p.name, p.schema), { nil: undefined, freq: 2 }))),
        segments: fc.tuple(...inPath.map((p) => pathValue(p.schema))),
      });
      await fc.assert(
        fc.asyncProperty(request, async ({ pieces, segments }) => {
          let url = path;
          inPath.forEach((p, i) => (url = url.replace(`{${p.name}}`, segments[i]!)));
          const qs = pieces.flatMap((p) => p ?? []).join('&');
          const res = await t.get(qs ? `${url}?${qs}` : url, await key());
          expectEnvelope(`${url}?${qs}`, res);
        }),
        { numRuns: RUNS_PER_ROUTE, seed: seed++, endOnFailure: true },
      );
    }
    // Hundreds of requests one after another, as its sibling below: 30 s ran out with the machine at
    // load average 16 on 2 cores.
  }, 120_000);

  test('every route, every parameter, every listed hostile value', async () => {
    const urls = paths().flatMap(([path, operation]) =>
      // Query and path parameters (the If-None-Match header parameter is a $ref without a name here).
      ((operation.parameters ?? []) as any[]).filter((p) => p.in === 'query' || p.in === 'path').flatMap((p) =>
        [...HOSTILE.map((v) => encodeURIComponent(v)), ...RAW_ENCODED].map((value) =>
          p.in === 'path' ? path.replace(`{${p.name}}`, value || '%20') : `${path.replace(/\{\w+\}/g, '264317')}?${p.name}=${value}`,
        ),
      ),
    );
    // a few at a time: thousands of requests, each answered on its own
    for (let i = 0; i < urls.length; i += 8) {
      await Promise.all(urls.slice(i, i + 8).map(async (url) => expectEnvelope(url, await t.get(url, await key()))));
    }
  }, 120_000);
});

function expectEnvelope(url: string, res: { status: number; body: any }): void {
  const context = { url, status: res.status, body: res.body };
  if (res.status >= 500) throw new Error(`5xx: ${JSON.stringify(context)}`);
  if (res.status === 429) throw new Error(`rate limited, the fuzz cannot see past it: ${JSON.stringify(context)}`);
  if (res.status >= 400) {
    expect({ ...context, body: Object.keys(res.body ?? {}) }).toEqual({ ...context, body: ['success', 'error'] });
    expect(res.body.success).toBe(false);
    // 400s are parameter errors (or a path Express could not decode), in the README's wording
    if (res.status === 400 && !/^invalid (parameter [a-z][a-z0-9_]*|request): ./.test(res.body.error)) throw new Error(`wording: ${JSON.stringify(context)}`);
  } else {
    expect(res.body?.success).toBe(true);
  }
}

describe('when the GraphQL variables of every REST operation get hostile values, then no error is internal', () => {
  // The REST routes' queries; the subscription documents the transports run are not served over HTTP.
  const schema = buildSchema();
  const operations = [...loadOperations(schema)].filter(([, d]) => d.definitions.some((x) => x.kind === 'OperationDefinition' && x.operation === 'query'));

  /** A JSON value for a variable of `type`: often right-typed, often not. */
  function variableValue(type: TypeNode): fc.Arbitrary<unknown> {
    if (type.kind === 'NonNullType') return variableValue(type.type);
    const wrong = fc.oneof(fc.constantFrom(null, true, 1.5, -1, 2 ** 31, {}, { __proto__: null }, [], ['x']), hostile, fc.jsonValue({ maxDepth: 2 }));
    if (type.kind === 'ListType') return fc.oneof({ weight: 3, arbitrary: fc.array(variableValue(type.type), { maxLength: 4 }) }, { weight: 1, arbitrary: wrong });
    const plausible: Record<string, fc.Arbitrary<unknown>> = {
      Int: fc.oneof(fc.integer({ min: -5, max: 300_000 }), fc.integer(), fc.constantFrom(264317, 0, 2 ** 31 - 1, -(2 ** 31))),
      Boolean: fc.boolean(),
      Date: fc.oneof(aDate, hostile),
      DateTime: fc.oneof(anInstant, hostile),
      String: fc.oneof(fc.constantFrom('moneyline', 'spread', 'total', 'home', 'over', 'full', 'first_half', 'live', 'east', 'value', 'shin'), hostile, junk),
    };
    // An enum variable: its values (MONEYLINE), the REST words (moneyline), or junk.
    const enumType = schema.getType(type.name.value);
    if (isEnumType(enumType)) {
      const names = enumType.getValues().map((v) => v.name);
      plausible[type.name.value] = fc.oneof(fc.constantFrom(...names), fc.constantFrom(...names.map((n) => n.toLowerCase())), hostile, junk);
    }
    return fc.oneof({ weight: 3, arbitrary: plausible[type.name.value] ?? wrong }, { weight: 1, arbitrary: wrong });
  }

  test('every operation, every variable (generated)', async () => {
    let seed = 1200;
    for (const [name, document] of operations) {
      const definition = document.definitions.find((d) => d.kind === 'OperationDefinition')!;
      const variables = definition.variableDefinitions ?? [];
      const query = print(document);
      const arbitrary = fc.record(Object.fromEntries(variables.map((v) => [v.variable.name.value, variableValue(v.type)])), { requiredKeys: [] });
      await fc.assert(
        fc.asyncProperty(arbitrary, async (values) => {
          const res = await t.graphql(query, values, await key());
          const context = JSON.stringify({ name, values, status: res.status, body: res.body });
          if (res.status >= 500) throw new Error(`5xx: ${context}`);
          for (const error of res.body.errors ?? []) {
            if (!['BAD_USER_INPUT', 'NOT_FOUND', 'FORBIDDEN', 'QUERY_TOO_COMPLEX'].includes(error.extensions?.code)) throw new Error(`error code: ${context}`);
          }
        }),
        { numRuns: RUNS_PER_OPERATION, seed: seed++, endOnFailure: true },
      );
    }
  }, 300_000); // every operation of the schema, props and signals included: minutes on a loaded machine
});
