import type { Express } from 'express';
import type { GraphQLSchema } from 'graphql';
import { buildAsyncApi } from '../live/asyncapi';
import { buildOpenApi } from '../rest/openapi';

/** `make`'s value, made on the first call and kept. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | null = null;
  return () => (made ??= { value: make() }).value;
}

/** /api/v1/openapi.json and /api/v1/asyncapi.json on `app`. */
export function addContractRoutes(app: Express, deps: { schema: GraphQLSchema; livePushIntervalMs: number }): void {
  // Both contracts are built on their first request, not at start: a process nobody asks for them
  // (most API processes) never holds them (about 0.5 MB of text and the garbage of building it).
  const openapi = once(() => JSON.stringify(buildOpenApi(deps.schema)));
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.type('application/json').send(openapi());
  });
  // The live channel's contract (Socket.IO /live-odds), like the OpenAPI document readable without a key.
  const asyncapi = once(() => JSON.stringify(buildAsyncApi(deps.schema, { pushIntervalMs: deps.livePushIntervalMs })));
  app.get('/api/v1/asyncapi.json', (_req, res) => {
    res.type('application/json').send(asyncapi());
  });
}
