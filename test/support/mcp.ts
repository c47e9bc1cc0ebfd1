import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** An MCP client (the official SDK's) connected to `baseUrl`/mcp with `key` as the bearer token. */
export async function connectMcp(baseUrl: string, key?: string): Promise<Client> {
  const client = new Client({ name: 'odds-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers: key ? { authorization: `Bearer ${key}` } : {} } });
  await client.connect(transport);
  return client;
}

/** The REST request a route tool stands for: the route's URL with the arguments as query parameters (lists comma-separated). */
export function restQuery(args: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) search.append(name, Array.isArray(value) ? value.join(',') : String(value));
  return search.size ? `?${search}` : '';
}
