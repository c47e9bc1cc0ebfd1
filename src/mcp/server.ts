import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { GraphQLSchema } from 'graphql';
import { loadOperations } from '../graphql';
import type { Route } from '../rest/routes';
import type { RouteAnswer, RouteArguments } from '../rest/router';
import { MATH_TOOLS, mathInputSchema, runMathTool, type MathTool } from './math-tools';
import { inputSchemaOf, outputSchemaOf, paramsOf, pathParamsOf, RATE_LIMIT_SCHEMA, ROUTE_TOOLS, routeFor, type RouteTool } from './tools';

// One MCP server over a backend that answers routes: in this process for a caller already admitted
// (/mcp on `odds serve`, `odds mcp` on the local store) or over HTTP (`odds mcp --url`). Built on the
// SDK's low-level Server: the tools' JSON Schemas are the route table's own (the OpenAPI document's),
// and their arguments are checked by the routes' own parsers, so McpServer's zod layer would only
// check them a second time, with other words.

/** A key's request budget after a call, as REST's X-RateLimit-* headers say it. */
export interface RateLimit {
  limit: number;
  remaining: number;
  reset_seconds: number;
}

/** The budget after a call: its figures, or a sentence where no key is counted. */
export type Budget = RateLimit | string;

/** What the tools run on. */
export interface ToolBackend {
  /** Answers a route as a request with these arguments would be answered, and the budget it left. */
  call(route: Route, args: RouteArguments): Promise<{ answer: RouteAnswer; budget: Budget }>;
  /** The budget as it stands, for a tool that calls no route (the math tools). */
  budget(): Budget;
}

/** The budget of REST's X-RateLimit-* headers, or undefined when they are absent. */
export function budgetOfHeaders(get: (name: string) => string | null | undefined): RateLimit | undefined {
  const [limit, remaining, reset] = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].map((name) => Number(get(name) ?? NaN));
  return Number.isFinite(limit) && Number.isFinite(remaining) ? { limit: limit!, remaining: remaining!, reset_seconds: Number.isFinite(reset) ? reset! : 60 } : undefined;
}

const budgetText = (budget: Budget) =>
  typeof budget === 'string' ? budget : `Rate budget: ${budget.remaining} of ${budget.limit} requests left this minute (whole again in ${budget.reset_seconds} s).`;

const VERSION = (JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

const INSTRUCTIONS =
  'NBA and WNBA games, every sportsbook\'s odds with value metrics (fair probability, EV, arbitrage), line movement, closing lines, history and bet grading. ' +
  'Find ids first: list_games (games of a date), sportsbooks, teams, players. Prices are American odds unless a field says decimal; dates are league-local days (YYYY-MM-DD). ' +
  'Each answer is structuredContent { data, ... } (the REST API\'s data) with a one-line summary that ends with the key\'s remaining rate budget.';

/** The tool list and the runners by name, built once per schema (the schemas cost a walk of every operation). */
const built = new WeakMap<GraphQLSchema, { list: Tool[]; routeTools: Map<string, RouteTool>; mathTools: Map<string, MathTool> }>();

function toolsOf(schema: GraphQLSchema) {
  let tools = built.get(schema);
  if (!tools) {
    const operations = loadOperations(schema);
    const annotations = { readOnlyHint: true, openWorldHint: false };
    const list: Tool[] = [
      ...ROUTE_TOOLS.map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description + routeNote(t),
        inputSchema: inputSchemaOf(t) as Tool['inputSchema'],
        outputSchema: outputSchemaOf(t, schema, operations) as Tool['outputSchema'],
        annotations: { ...annotations, title: t.title },
      })),
      ...MATH_TOOLS.map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: mathInputSchema(t) as Tool['inputSchema'],
        outputSchema: { type: 'object', required: ['data'], properties: { data: t.data, rate_limit: RATE_LIMIT_SCHEMA } } as Tool['outputSchema'],
        annotations: { ...annotations, title: t.title },
      })),
    ];
    tools = { list, routeTools: new Map(ROUTE_TOOLS.map((t) => [t.name, t])), mathTools: new Map(MATH_TOOLS.map((t) => [t.name, t])) };
    built.set(schema, tools);
  }
  return tools;
}

/** The REST route(s) a tool answers like, for its description. */
function routeNote(tool: RouteTool): string {
  const routes = tool.routes instanceof Map ? [...(tool.routes as ReadonlyMap<string, Route>).values()] : [tool.routes as Route];
  const paths = routes.map((r) => `${r.method ?? 'GET'} ${r.path.replace(/:([a-z_]+)/g, '{$1}')}`).join(', ');
  return ` Data as REST ${paths}: ${routes[0]!.summary}.`;
}

const errorResult = (text: string, budget: Budget): CallToolResult => ({ isError: true, content: [{ type: 'text', text: `${text}${/[.?!]$/.test(text) ? '' : '.'} ${budgetText(budget)}` }] });

/** A tool argument as a query parameter carries it (text, or a list of texts), or undefined when it cannot be one. */
function asQueryValue(value: unknown): string | string[] | undefined {
  const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined);
  if (Array.isArray(value)) {
    const texts = value.map(text);
    return texts.every((t) => t !== undefined) ? (texts as string[]) : undefined;
  }
  return text(value);
}

/** A route tool's arguments as the route's path, query and body, or the argument refused. */
function routeArguments(tool: RouteTool, route: Route, args: Record<string, unknown>): RouteArguments | { error: string } {
  if (route.body) return { body: args };
  const offered = paramsOf(tool, route);
  const pathNames = pathParamsOf(route);
  const out: Required<Pick<RouteArguments, 'path' | 'query'>> = { path: {}, query: { ...tool.fixed } };
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    if (name === 'market_type' && tool.routes instanceof Map) continue;
    // A parameter the route refuses is passed on, so it is refused with the route's own reason.
    if (!offered.includes(name) && !Object.hasOwn(route.refuses ?? {}, name)) {
      const others = tool.routes instanceof Map && inputSchemaOf(tool).properties && name in (inputSchemaOf(tool).properties as object);
      return { error: `invalid parameter ${name}: ${others ? `not taken with market_type ${String(args.market_type)}` : 'unknown argument'}; ${tool.name} takes ${[...(tool.routes instanceof Map ? ['market_type'] : []), ...offered].join(', ')}` };
    }
    const text = asQueryValue(value);
    if (text === undefined) return { error: `invalid parameter ${name}: must be a number, a text, true or false, or a list of them` };
    if (pathNames.includes(name)) {
      if (Array.isArray(text)) return { error: `invalid parameter ${name}: must be one value` };
      out.path[name] = text;
    } else out.query[name] = text;
  }
  return out;
}

/** Runs a route tool: the route's answer as the tool's result. */
async function runRouteTool(tool: RouteTool, args: Record<string, unknown>, backend: ToolBackend): Promise<CallToolResult> {
  const route = routeFor(tool, args);
  if ('error' in route) return errorResult(route.error, backend.budget());
  const routeArgs = routeArguments(tool, route, args);
  if ('error' in routeArgs) return errorResult(routeArgs.error, backend.budget());
  const { answer, budget } = await backend.call(route, routeArgs);
  if (answer.status >= 400) {
    const message = String(answer.body.error ?? `failed with status ${answer.status}`);
    // A missing record is named with the id asked for (REST's 404 says what, the tool also says which).
    const which = answer.status === 404 && routeArgs.path ? Object.entries(routeArgs.path).map(([k, v]) => `${k} ${v}`).join(', ') : '';
    return errorResult(which ? `${message} (${which})` : message, budget);
  }
  const { success: _success, ...fields } = answer.body;
  const data = tool.keep && Array.isArray(fields.data) ? (fields.data as Record<string, unknown>[]).filter(tool.keep) : fields.data;
  const structured: Record<string, unknown> = { ...fields, data, ...('count' in fields && Array.isArray(data) && { count: data.length }), ...(typeof budget !== 'string' && { rate_limit: budget }) };
  return { structuredContent: structured, content: [{ type: 'text', text: `${summaryOf(tool, fields, data)} ${budgetText(budget)}` }, { type: 'text', text: JSON.stringify(structured) }] };
}

/** The answer in one sentence: how many records, and where the page lies. */
function summaryOf(tool: RouteTool, fields: Record<string, unknown>, data: unknown): string {
  if (!Array.isArray(data)) {
    const record = (data ?? {}) as { game_id?: number; id?: number; status?: string; away_team?: { full_name?: string }; home_team?: { full_name?: string } };
    const id = record.game_id ?? record.id;
    const teams = record.away_team?.full_name && record.home_team?.full_name ? `: ${record.away_team.full_name} at ${record.home_team.full_name}` : '';
    return `${tool.noun[0]!.toUpperCase()}${tool.noun.slice(1)}${id !== undefined ? ` ${String(id)}` : ''}${teams}${record.status ? `, ${record.status}` : ''}.`;
  }
  const listed = Array.isArray(fields.data) ? fields.data.length : data.length;
  const kept = tool.keep ? ` (of ${listed} listed)` : '';
  const page = fields.pagination as { offset: number; total?: number; has_more?: boolean } | undefined;
  const where = page?.total !== undefined && listed > 0 ? `; records ${page.offset + 1}-${page.offset + listed} of ${page.total}${page.has_more ? ', more with a higher offset' : ''}` : '';
  // "1 graded bet", "3 graded bets": the nouns are plurals of one word's -s.
  const noun = data.length === 1 ? tool.noun.replace(/s$/, '') : tool.noun;
  return `${data.length} ${noun}${kept}${where}.`;
}

/** Runs a math tool: its data and summary, or the argument refused. */
function runMath(tool: MathTool, args: unknown, budget: Budget): CallToolResult {
  const outcome = runMathTool(tool, args);
  if ('error' in outcome) return errorResult(outcome.error, budget);
  const structured = { data: outcome.data, ...(typeof budget !== 'string' && { rate_limit: budget }) };
  return { structuredContent: structured, content: [{ type: 'text', text: `${tool.summary(outcome.data)} ${budgetText(budget)}` }, { type: 'text', text: JSON.stringify(structured) }] };
}

/**
 * The MCP server of the service's tools over `backend`. A bad argument, an unknown id, a plan's
 * refusal or an unknown tool is a tool result with isError (its text says which), never a protocol
 * error; an unexpected failure is `onError`'s to log and an isError result that says so.
 */
export function createMcpServer(backend: ToolBackend, options: { schema: GraphQLSchema; onError?: (error: unknown) => void }): Server {
  const tools = toolsOf(options.schema);
  const server = new Server({ name: 'odds-data-service', title: 'Odds Data Service', version: VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.list }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name } = request.params;
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    try {
      const routeTool = tools.routeTools.get(name);
      if (routeTool) return await runRouteTool(routeTool, args, backend);
      const mathTool = tools.mathTools.get(name);
      if (mathTool) return runMath(mathTool, args, backend.budget());
      return errorResult(`unknown tool ${name}; the tools are ${tools.list.map((t) => t.name).join(', ')}`, backend.budget());
    } catch (error) {
      options.onError?.(error);
      return errorResult('internal error: the call failed unexpectedly (the server logged it)', backend.budget());
    }
  });
  return server;
}

/** The tools' definitions (names, descriptions, both schemas), as tools/list gives them. */
export const toolDefinitions = (schema: GraphQLSchema): readonly Tool[] => toolsOf(schema).list;

