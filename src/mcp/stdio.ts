import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { GraphQLSchema } from 'graphql';
import { createMcpServer, type ToolBackend } from './server';

/**
 * MCP over stdin and stdout (`odds mcp`): serves `backend` until the client closes stdin (how a
 * desktop agent or an IDE ends the server it started) or sends SIGTERM or SIGINT. stdout carries
 * the protocol only: logs go to stderr.
 */
export async function serveStdio(backend: ToolBackend, options: { schema: GraphQLSchema; onError?: (error: unknown) => void }): Promise<void> {
  const server = createMcpServer(backend, options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    process.stdin.once('end', () => void server.close());
    process.stdin.once('close', () => void server.close());
    // A client may end the server with a signal instead: close all the same, so the caller closes the store.
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void server.close());
  });
  await server.connect(transport);
  await closed;
}
