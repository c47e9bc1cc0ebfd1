import createClient from 'openapi-fetch';
import type { paths } from './api-types';

export type { paths };

/**
 * The typed REST client of the tests: openapi-fetch over the types generated from the service's
 * OpenAPI document (test/support/api-types.ts, npm run generate:api-client). A call that the
 * document does not allow (an unknown path or parameter, a wrong type) does not compile.
 */
export function apiClient(baseUrl: string, key?: string) {
  return createClient<paths>({ baseUrl, headers: key ? { authorization: `Bearer ${key}` } : {} });
}

export type ApiClient = ReturnType<typeof apiClient>;

/**
 * Status, headers and body (data on success, the error envelope otherwise) of a typed call, the way
 * the tests read answers of `TestApp.get`.
 */
export async function answer(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<{ status: number; headers: Headers; body: any }> {
  const { data, error, response } = await call;
  return { status: response.status, headers: response.headers, body: data ?? error };
}
