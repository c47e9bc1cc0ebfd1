import type { Auth } from '../auth/authenticate';
import type { Route } from '../rest/routes';
import type { RouteAnswer, RouteArguments, RestHandler } from '../rest/router';
import { budgetOfHeaders, type Budget, type ToolBackend } from './server';

// What the tools run on: REST's routes in this process (for a caller the transport admitted), or a
// running instance's REST API over HTTP (`odds mcp --url`). Either way a tool's data is the route's.

/** The operator of the local store (`odds mcp` without --url): every plan's routes, no key, no budget. */
export const OPERATOR: Auth = { kind: 'viewer', viewer: { keyId: 'local-operator', accountId: 'local-operator', plan: 'elite', subscriptionEndsAt: null } };

/** What the local store's answers say of the budget: no key is counted there. */
export const UNMETERED = 'Rate budget: not metered (the local store, read by its operator).';

/** The routes in this process for `auth`, whose request was counted already (`budget` is what it left). */
export function inProcessBackend(call: RestHandler['call'], auth: Auth, budget: Budget): ToolBackend {
  return { call: async (route, args) => ({ answer: await call(route, args, auth), budget }), budget: () => budget };
}

/** Path prefix of the REST routes on an instance. */
const PREFIX = '/api/v1/nba/odds';

/**
 * A running instance's REST API at `baseUrl` (`http://localhost:3000`, with or without the
 * /api/v1/nba/odds prefix) with `key`: each tool call is one request of the key's budget there.
 */
export function remoteBackend(baseUrl: string, key: string, fetchFn: typeof fetch = fetch, timeoutMs = 60_000): ToolBackend {
  const root = baseUrl.replace(/\/+$/, '');
  const base = root.endsWith(PREFIX) ? root : root + PREFIX;
  let last: Budget = 'Rate budget: not known yet (no request sent to the service so far).';
  const call = async (route: Route, args: RouteArguments): Promise<{ answer: RouteAnswer; budget: Budget }> => {
    const pathname = route.path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => encodeURIComponent(args.path?.[name] ?? ''));
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(args.query ?? {})) for (const v of Array.isArray(value) ? value : [value]) search.append(name, v);
    const query = search.size ? `?${search}` : '';
    const method = route.method ?? 'GET';
    let response: Response;
    let text: string;
    try {
      response = await fetchFn(`${base}${pathname}${query}`, {
        method,
        headers: { authorization: `Bearer ${key}`, accept: 'application/json', ...(route.body && { 'content-type': 'application/json' }) },
        ...(route.body && { body: JSON.stringify(args.body ?? null) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      // The instance is down, unreachable or too slow: the agent is told, as a tool error, what to check.
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      return { answer: { status: 503, body: { success: false, error: `cannot reach the service at ${base} (${cause}): is it running, and is --url right?` } }, budget: last };
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = { success: false, error: `the service at ${base} answered ${response.status} without JSON` };
    }
    last = budgetOfHeaders((name) => response.headers.get(name)) ?? last;
    return { answer: { status: response.status, body }, budget: last };
  };
  return { call, budget: () => (typeof last === 'string' ? 'Rate budget: unchanged (computed here, no request sent).' : last) };
}
