import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema } from '../../src/graphql/schema';
import { buildOpenApi } from '../../src/rest/openapi';

// The typed REST client of the tests is generated from the OpenAPI document (npm run
// generate:api-client -> test/support/api-types.ts and clients/typescript/src/api-types.ts); `npm run typecheck` compiles it with the tests
// that use it. Here: the committed file is what the generator makes of the current document.

const GENERATOR = path.join(__dirname, '..', '..', 'scripts', 'generate-api-client.mjs');

test('when the client types are generated again from the current document, then they equal the committed file', async () => {
  // A computed path: the generator is an ES module outside the TypeScript program.
  const { renderApiTypes, API_TYPES_FILES } = await import(GENERATOR);
  const text: string = await renderApiTypes(buildOpenApi(buildSchema()));
  expect(text).toContain('"/api/v1/nba/odds/markets/total"');
  // The tests' copy and the TypeScript client's (clients/typescript/src/api-types.ts).
  expect(API_TYPES_FILES).toHaveLength(2);
  for (const file of API_TYPES_FILES as string[]) {
    if (text !== readFileSync(file, 'utf8')) throw new Error(`${path.relative(process.cwd(), file)} is out of date: run npm run generate:api-client and commit it`);
  }
}, 60_000);
