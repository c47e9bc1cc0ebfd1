import type { DocumentNode, GraphQLSchema } from 'graphql';
import { ERRORS, type ErrorCode } from '../errors';
import { rootFieldSchema, loadOperations, selectsPerKeyField } from '../graphql';
import { ERROR_SCHEMA, type JsonSchema } from './envelope';
import EXAMPLES from './examples/responses.json';
import { paramMeta } from './params';
import type { Route } from './route';
import { ROUTES } from './routes';

// The OpenAPI 3.1 document (/api/v1/openapi.json), derived from the route table: parameters from each
// route's parameter schemas, response bodies from the GraphQL types its operation selects (with their
// SDL descriptions), wrapped by its envelope, and one real response per status from
// src/rest/examples/responses.json (npm run generate:api-examples). `redocly lint` passes it with
// the recommended rules (test/integration/rest-openapi.test.ts).

/** Real answers of the service on the test fixtures: one per route and one per error status. */
export interface ApiExamples {
  /** By operationId: the request and the 200 body. */
  operations: Partial<Record<string, { request: string; body: unknown }>>;
  /** By HTTP status: the request and the error body. */
  errors: Partial<Record<string, { request: string; body: unknown }>>;
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

/** Response headers the service sends (src/app.ts, src/auth/rate-limit.ts, src/rest/router.ts). */
const HEADERS: Record<string, JsonSchema> = {
  'X-Request-Id': {
    description: "Id of this request in the service's logs: the client's own X-Request-Id when it is 1 to 128 characters of letters, digits and _ . : -, else a new UUID",
    required: true,
    schema: { type: 'string', maxLength: 128 },
  },
  'X-RateLimit-Limit': {
    description: "Requests per minute allowed to the key's plan (RATE_LIMIT_STARTER, _PRO, _ELITE); sent once the key is accepted",
    schema: { type: 'integer', minimum: 1 },
  },
  'X-RateLimit-Remaining': { description: 'Requests left in the current one-minute window of the key', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Reset': { description: 'Seconds until the current one-minute window ends and the budget is whole again', schema: { type: 'integer', minimum: 1 } },
  'Retry-After': { description: 'Seconds to wait before asking again', required: true, schema: { type: 'integer', minimum: 1 } },
  ETag: {
    description: 'Strong validator of the body (a hash of its bytes, the same in every API process); send it back in If-None-Match to get a 304 while the data has not changed',
    required: true,
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description: 'private (answers depend on the key) and how long the body may be reused without asking: 1 s live, 5 s odds (1 h once every game shown is closed), 5 min history, 1 h reference data',
    required: true,
    schema: { type: 'string' },
  },
  Vary: { description: 'The request headers the body depends on: Authorization, Accept-Encoding', required: true, schema: { type: 'string' } },
};

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const RATE_HEADERS = { 'X-RateLimit-Limit': header('X-RateLimit-Limit'), 'X-RateLimit-Remaining': header('X-RateLimit-Remaining'), 'X-RateLimit-Reset': header('X-RateLimit-Reset') };
const CACHE_HEADERS = { ETag: header('ETag'), 'Cache-Control': header('Cache-Control'), Vary: header('Vary') };

/** The error responses every route may give, by status: component name, description, extra headers. */
const ERROR_RESPONSES: Record<number, { name: string; description: string; headers: Record<string, unknown> }> = {
  400: {
    name: 'BadRequest',
    description: 'A parameter is invalid, missing or refused: `error` reads "invalid parameter <name>: <what is allowed>"',
    headers: { 'X-Request-Id': header('X-Request-Id'), ...RATE_HEADERS },
  },
  401: { name: 'Unauthorized', description: `No API key, or an unknown or revoked one (${ERRORS.UNAUTHENTICATED.message})`, headers: { 'X-Request-Id': header('X-Request-Id') } },
  403: {
    name: 'Forbidden',
    description: "The key's subscription expired or is inactive, or its plan does not include this endpoint (live movement and historical need Pro or Elite)",
    headers: { 'X-Request-Id': header('X-Request-Id'), ...RATE_HEADERS },
  },
  413: {
    name: 'PayloadTooLarge',
    description: 'The JSON body of a POST route is larger than 100 kB',
    headers: { 'X-Request-Id': header('X-Request-Id'), ...RATE_HEADERS },
  },
  404: { name: 'NotFound', description: `No game, or no webhook of the calling key, with this id (${ERRORS.GAME_NOT_FOUND.message}; ${ERRORS.WEBHOOK_NOT_FOUND.message})`, headers: { 'X-Request-Id': header('X-Request-Id'), ...RATE_HEADERS } },
  429: {
    name: 'TooManyRequests',
    description: "The key's requests of this minute are spent; Retry-After says when to ask again",
    headers: { 'X-Request-Id': header('X-Request-Id'), 'Retry-After': header('Retry-After'), ...RATE_HEADERS },
  },
  500: {
    name: 'InternalError',
    description: 'An unexpected failure; `error` carries the request id under which the logs hold the details',
    headers: { 'X-Request-Id': header('X-Request-Id'), ...RATE_HEADERS },
  },
  503: {
    name: 'Unavailable',
    description: `The database is not reachable (${ERRORS.UNAVAILABLE.message}); Retry-After says when to ask again`,
    headers: { 'X-Request-Id': header('X-Request-Id'), 'Retry-After': header('Retry-After'), ...RATE_HEADERS },
  },
};

/** Statuses every route can answer besides 200 and 304. */
const COMMON_ERRORS = [400, 401, 403, 429, 500, 503];

function errorComponents(examples: ApiExamples): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(ERROR_RESPONSES)) {
    const example = examples.errors[status];
    responses[r.name] = {
      description: r.description,
      headers: r.headers,
      content: {
        'application/json': { schema: { $ref: '#/components/schemas/Error' }, ...(example && { examples: { [r.name]: { summary: example.request, value: example.body } } }) },
      },
    };
  }
  return responses;
}

/**
 * JSON Schema of a route's successful body: its envelope around the JSON Schema of what its operation
 * selects (what the OpenAPI document shows; the MCP tools' output schemas are made from it too).
 */
export function bodySchemaOf(schema: GraphQLSchema, route: Route, operations: ReadonlyMap<string, DocumentNode> = loadOperations(schema)): JsonSchema {
  const document = route.eventStream ? route.eventStream.document(schema) : operations.get(route.operation);
  if (!document) throw new Error(`route ${route.path}: no operation ${route.operation}`);
  return route.envelope.schema(rootFieldSchema(schema, document, route.envelope.field));
}

/** The ERRORS codes a status stands for, for the document's description of the catalogue. */
const codesOf = (status: number) => (Object.keys(ERRORS) as ErrorCode[]).filter((c) => ERRORS[c].status === status);

/**
 * The OpenAPI 3.1 document of `routes` (default: the whole route table).
 * @throws Error when two routes share an operationId
 */
export function buildOpenApi(schema: GraphQLSchema, routes: readonly Route[] = ROUTES, prefix = '/api/v1/nba/odds', examples: ApiExamples = EXAMPLES): JsonSchema {
  const operations = loadOperations(schema);
  const paths: Record<string, Record<string, unknown>> = {};
  const seen = new Set<string>();
  for (const route of routes) {
    // An event stream's subscription is built from the live operations (it is not an operation file).
    const document = route.eventStream ? route.eventStream.document(schema) : operations.get(route.operation);
    if (!document) throw new Error(`route ${route.path}: no operation ${route.operation}`);
    const operationId = route.operationId ?? route.operation;
    if (seen.has(operationId)) throw new Error(`route ${route.path}: operationId ${operationId} is taken; give the route its own operationId`);
    seen.add(operationId);
    const parameters: unknown[] = Object.entries(route.params.shape).map(([name, param]) => {
      const meta = paramMeta(param);
      const inPath = route.path.includes(`:${name}`);
      return {
        name,
        in: inPath ? 'path' : 'query',
        required: inPath || Boolean(meta.required),
        description: meta.description + (meta.list ? ' (comma-separated and/or repeated)' : ''),
        schema: meta.openapi,
        ...(meta.list && { style: 'form', explode: true }),
      };
    });
    const method = route.method ?? 'GET';
    const post = method !== 'GET';
    // A POST/PATCH/DELETE answer is one caller's own question or change, a key's webhooks are its own
    // (@perKey) and a stream never ends: none is cached, so none has a conditional request.
    const cached = !post && !route.eventStream && !selectsPerKeyField(schema, document);
    if (cached) parameters.push({ $ref: '#/components/parameters/IfNoneMatch' });
    // A route without an example yet still serves (rest-openapi.test.ts asks for one per response).
    const example = examples.operations[operationId];
    const responses: Record<string, unknown> = {
      [route.status ?? 200]: {
        description: route.summary,
        headers: { 'X-Request-Id': header('X-Request-Id'), ...(cached && CACHE_HEADERS), ...RATE_HEADERS },
        content: {
          [route.eventStream ? 'text/event-stream' : 'application/json']: {
            schema: route.envelope.schema(rootFieldSchema(schema, document, route.envelope.field)),
            ...(example && { examples: { [operationId]: { summary: example.request, value: example.body } } }),
          },
        },
      },
      ...(cached && { 304: { $ref: '#/components/responses/NotModified' } }),
    };
    for (const status of [...new Set([...COMMON_ERRORS, ...(route.body ? [413] : []), ...(route.errors ?? [])])].sort()) {
      responses[status] = { $ref: `#/components/responses/${ERROR_RESPONSES[status]!.name}` };
    }
    const refused = Object.entries(route.refuses ?? {}).map(([name, why]) => `The parameter ${name} is refused with a 400: ${why}.`);
    const description = [route.description, ...refused].filter(Boolean).join(' ');
    // Routes of one path differ by method (GET, PATCH and DELETE /webhooks/{id}): one path item holds them.
    paths[prefix + openApiPath(route.path)] = {
      ...paths[prefix + openApiPath(route.path)],
      [method.toLowerCase()]: {
        operationId,
        summary: route.summary,
        ...(description && { description }),
        ...(route.tags && { tags: route.tags }),
        parameters,
        ...(route.body && {
          requestBody: { required: true, description: route.body.description, content: { 'application/json': { schema: route.body.openapi } } },
        }),
        responses,
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Odds Data Service',
      version: '1.0.0',
      summary: 'Basketball games, boxscores and sportsbook odds with value metrics, live odds and history',
      description:
        'Every route is under /api/v1/nba/odds (a GET, except the POST routes that take a list of bets and the webhook routes that register and change webhooks) and needs an API key (Authorization: Bearer sk_...). ' +
        'Successful answers are `{ success: true, data, ... }`, failures `{ success: false, error }`. ' +
        'Unknown query parameters are ignored (except those a route refuses, named in its description). ' +
        `Error codes behind each status: ${COMMON_ERRORS.concat(404).sort().map((s) => `${s} ${codesOf(s).join('/')}`).join('; ')}. ` +
        'Live pushes (Socket.IO /live-odds) are described by the AsyncAPI document at /api/v1/asyncapi.json; docs/contracts.md tells how to generate a client.',
      license: { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This service (the host that served this document)' }],
    security: [{ bearerAuth: [] }],
    tags: TAGS,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key, sk_... (created with `odds keys create` or the admin GraphQL mutations)' } },
      schemas: { Error: ERROR_SCHEMA },
      headers: HEADERS,
      parameters: {
        IfNoneMatch: {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description: 'The ETag of a body already held: the answer is a 304 without a body while the data is unchanged',
          schema: { type: 'string' },
        },
      },
      responses: {
        NotModified: { description: 'The body held by the client (If-None-Match) is still current', headers: { 'X-Request-Id': header('X-Request-Id'), ...CACHE_HEADERS, ...RATE_HEADERS } },
        ...errorComponents(examples),
      },
    },
    paths,
  };
}

/** Tags of the document: the areas of the route table (src/rest/routes.ts). */
const TAGS = [
  { name: 'games', description: 'Games, boxscores and the markets of a game (spec 4.1-4.4)' },
  { name: 'markets', description: 'Prices across games with value metrics: true probability, edge, EV (spec 4.5-4.7)' },
  { name: 'live', description: 'Live odds and line movement of the games being played (spec 4.8-4.9)' },
  { name: 'historical', description: 'Closing lines and past states of the odds (spec 4.10)' },
  { name: 'closing', description: 'Closing lines with provenance, closing-line value of bets and grading from final scores' },
  { name: 'reference', description: 'Teams, leagues, sportsbooks, consensus and public betting (spec 4.11-4.15)' },
  { name: 'webhooks', description: 'Alerts by webhook (Pro, Elite): signed deliveries of EV, arbitrage, line move and status change events, with a delivery log (docs/webhooks.md)' },
];
