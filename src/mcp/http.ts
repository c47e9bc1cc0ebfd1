import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import type { Admission } from '../auth/admission';
import { AppError } from '../errors';
import { readBody } from '../rest/body';
import type { RestHandler } from '../rest/router';

// MCP over Streamable HTTP at /mcp (`odds serve`): each POST is admitted as a REST request is (the
// key from `Authorization: Bearer sk_...`, 401 without one, the plan's rate budget counted once per
// request) and answered by itself, in the SDK's stateless mode. No session is kept between requests
// and no stream outlives its request, so nothing grows with the number of clients: a GET (the
// optional server-to-client stream) and a DELETE (ending a session) are answered 405, as the
// protocol allows a server that offers neither.

export interface McpHttpDeps {
  schema: GraphQLSchema;
  admit(req: IncomingMessage): Promise<Admission>;
  /** REST's in-process route runner (src/rest/router.ts). */
  call: RestHandler['call'];
  /** Logs unexpected errors. */
  onError(error: unknown, req: IncomingMessage): void;
  /** Path of the endpoint (default /mcp). */
  path?: string;
}

/** JSON-RPC error codes of refusals before the MCP layer (the SDK uses -32000 for its own transport errors). */
const RPC = { PARSE: -32700, REFUSED: -32000, INTERNAL: -32603 } as const;

function refuse(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}) {
  if (res.headersSent) return void res.end();
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** How to authenticate, told with every 401. */
export const HOW_TO_AUTHENTICATE = 'send the API key as the header Authorization: Bearer sk_... (create one with `odds keys create --plan pro`; docs/mcp.md)';

/** The /mcp endpoint: `handle` answers the requests to its path and returns false for every other. */
export function serveMcpHttp(deps: McpHttpDeps) {
  const path = deps.path ?? '/mcp';

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') {
      return refuse(res, 405, RPC.REFUSED, `method not allowed: ${path} takes POST (JSON-RPC requests, each answered by itself; no session and no GET stream are kept)`, { Allow: 'POST' });
    }
    const admission = await deps.admit(req);
    const headers = admission.headers;
    if (admission.refused) return refuse(res, admission.refused.status, RPC.REFUSED, admission.refused.message, headers);
    const { auth } = admission;
    if (auth.kind === 'none') {
      const unauthenticated = auth.error.code === 'UNAUTHENTICATED';
      const message = unauthenticated ? `${auth.error.message}: ${HOW_TO_AUTHENTICATE}` : auth.error.message;
      return refuse(res, auth.error.status, RPC.REFUSED, message, unauthenticated ? { 'WWW-Authenticate': 'Bearer realm="odds"' } : {});
    }
    let json: unknown;
    try {
      json = JSON.parse((await readBody(req)).toString('utf8'));
    } catch (error) {
      if (error instanceof AppError) return refuse(res, error.status, RPC.REFUSED, error.message, headers);
      return refuse(res, 400, RPC.PARSE, `parse error: the body must be a JSON-RPC message (${(error as Error).message})`, headers);
    }
    // A batch would run many tool calls on one request of the budget (and the protocol dropped batches in 2025-06-18).
    if (Array.isArray(json)) return refuse(res, 400, RPC.REFUSED, 'one JSON-RPC message per request: batches are not accepted (each request counts once against the rate budget)', headers);
    // The MCP SDK (and the JSON-schema validators it brings) is loaded with the first request to
    // /mcp: about 12 MB of resident memory that an API process serving no agent does not carry.
    const { answerMcp } = await import('./http-answer.js');
    await answerMcp(req, res, json, { auth, headers, schema: deps.schema, call: deps.call, onError: (error) => deps.onError(error, req) });
  }

  return {
    /** Answers a request to the endpoint (true), or leaves it to the next handler (false). */
    handle(req: IncomingMessage, res: ServerResponse): boolean {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const pathname = q === -1 ? url : url.slice(0, q);
      if (pathname !== path && pathname !== `${path}/`) return false;
      (req as IncomingMessage & { routePattern?: string }).routePattern = path;
      serve(req, res).catch((error: unknown) => {
        deps.onError(error, req);
        refuse(res, 500, RPC.INTERNAL, 'internal error');
      });
      return true;
    },
  };
}
