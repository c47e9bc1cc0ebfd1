import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { GraphQLSchema } from 'graphql';
import type { Auth } from '../auth/authenticate';
import type { RestHandler } from '../rest/router';
import { inProcessBackend } from './backends';
import { budgetOfHeaders, createMcpServer } from './server';

// One admitted MCP request answered by the SDK in its stateless mode (http.ts admits it and loads
// this module, hence the SDK, on the first request to /mcp).

export interface McpAnswerDeps {
  auth: Auth;
  /** The admission's headers (the rate budget): set on the answer and told in every tool result. */
  headers: Record<string, string>;
  schema: GraphQLSchema;
  call: RestHandler['call'];
  onError(error: unknown): void;
}

/** Answers the JSON-RPC message `json` of `req` on `res`; the server and its transport end with the response. */
export async function answerMcp(req: IncomingMessage, res: ServerResponse, json: unknown, deps: McpAnswerDeps): Promise<void> {
  const budget = budgetOfHeaders((name) => deps.headers[name]) ?? 'Rate budget: not reported for this caller.';
  const server = createMcpServer(inProcessBackend(deps.call, deps.auth, budget), { schema: deps.schema, onError: deps.onError });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  for (const [name, value] of Object.entries(deps.headers)) res.setHeader(name, value);
  await server.connect(transport);
  await transport.handleRequest(req, res, json);
}
