import type { IncomingMessage, ServerResponse } from 'node:http';
import querystring from 'node:querystring';
import { execute, GraphQLError, Kind, type DocumentNode, type GraphQLSchema } from 'graphql';
import { LRUCache } from 'lru-cache';
import { BoundedCache, stringBytes, type CacheEvent } from './bounded-cache';
import { match, type MatchFunction } from 'path-to-regexp';
import type { Admission } from '../auth/admission';
import type { Auth } from '../auth/authenticate';
import { planVisibility } from '../auth/viewer';
import { AppError, ERRORS, isDatabaseUnavailable } from '../errors';
import { type GraphQLContext, loadOperations, variablesFor, selectsPerKeyField } from '../graphql';
import { bodyError, parseJson, readBody } from './body';
import { errorBody } from './envelope';
import { enumTree, lowerEnums, type EnumTree } from './enum-values';
import { matchesEtag, negotiateEncoding, representation, type Representation, type ResponseCache } from './response-cache';
import { cacheControlOf, type Route } from './route';
import { ROUTES } from './routes';

export interface RestDeps {
  schema: GraphQLSchema;
  /** Authentication and rate limiting, the same for REST and /graphql. */
  admit(req: IncomingMessage): Promise<Admission>;
  /** A GraphQL context for an authenticated request (the same one /graphql uses). */
  createContext(auth: Auth): GraphQLContext;
  /** The data version (src/events/data-version.ts): part of every cache key. */
  dataVersion(): number;
  /** Logs unexpected errors (500); `req` is absent for an in-process call (RestHandler.call). */
  onError(error: unknown, req?: IncomingMessage): void;
  /** Told what the cache of parsed URLs does (metrics). */
  onParsedUrlEvent?(event: CacheEvent): void;
  /** Bytes the parsed URLs may hold, keys included (default 8 MiB). */
  parsedUrlMaxBytes?: number;
  routes?: readonly Route[];
  /** Bodies kept per data version (response-cache.ts); every request runs its operation when absent. */
  cache?: ResponseCache | undefined;
  /** How many recently asked answers `warm()` computes again at most (default 16). */
  warmCount?: number;
  /**
   * An answer whose body was larger than this (bytes) is not warmed (default 512 KiB). The body's size
   * stands for its cost: computing and serializing an answer takes time in proportion to it (about
   * 250 ms of CPU per MB on the real data), and unlike a timing it does not vary with the load.
   */
  warmMaxBytes?: number;
  /** A warm-up round starts no computation after this long (ms, default 500). */
  warmBudgetMs?: number;
  /** Path prefix of the routes (default /api/v1/nba/odds). */
  prefix?: string;
}

/** The AppError a GraphQL execution error stands for; anything unexpected is INTERNAL. */
export function appErrorOf(error: GraphQLError): AppError {
  const original = error.originalError;
  if (original instanceof AppError) return original;
  if (isDatabaseUnavailable(original)) return new AppError('UNAVAILABLE');
  if (original && original.name !== 'GraphQLError') return new AppError('INTERNAL');
  // Coercion of a variable or argument (e.g. a Date scalar) is the client's mistake.
  return new AppError('BAD_REQUEST', error.message);
}

/** The masked 500: what failed is in the logs under the request id the client is given (X-Request-Id). */
function internalError(req: IncomingMessage): AppError {
  return new AppError('INTERNAL', `${ERRORS.INTERNAL.message} (request id ${(req as IncomingMessage & { id?: string }).id ?? 'unknown'})`);
}

/** First issue of a zod error as "invalid parameter <name>: <what is allowed>". */
function paramError(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): AppError {
  const issue = issues[0]!;
  return new AppError('BAD_REQUEST', `invalid parameter ${String(issue.path[0])}: ${issue.message}`);
}

/** A request's parameters parsed and turned into variables, or why they are refused. */
type ParsedRequest = { params: Record<string, unknown>; variables: Record<string, unknown>; variablesKey: string };
type Parsed = ParsedRequest | { error: AppError };

type Outcome = { representation: Representation } | { error: AppError; cause: unknown };

/**
 * How many data versions after its last request an answer is still warmed: 2, since an ingest may
 * advance the version twice (its commit, then the clock state it changed).
 */
const WARM_VERSIONS = 2;

/** An answer asked for recently: what warm() needs to compute it again, how often and when it was asked, what it cost. */
interface Recent {
  c: CompiledRoute;
  request: ParsedRequest;
  auth: Auth;
  asks: number;
  /** The data version of its last request. */
  askedVersion: number;
  /** Size of its last body, bytes (its cost). */
  bytes: number;
}

interface CompiledRoute {
  route: Route;
  document: DocumentNode;
  /** Parameters (the spec's lower-case words) to the operation's variables (enum value names). */
  variables: (values: Record<string, unknown>) => Record<string, unknown>;
  match: MatchFunction<Record<string, string>>;
  /** Result keys holding enum values, lowered for REST (`WON` -> `won`). */
  enums: EnumTree;
  /** The answer depends on the calling key itself (a @perKey field) or is a change's (a mutation): never cached, shared or warmed. */
  perKey: boolean;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Writes a 200 with `r` (compressed as the client accepts) or a 304 when If-None-Match matches its
 * ETag, with `headers` (rate limits) on both.
 */
export async function sendRepresentation(req: IncomingMessage, res: ServerResponse, r: Representation, headers: Record<string, string | number>, status = 200): Promise<void> {
  // keeps a Vary set before (Origin, when CORS is on: the answer's headers depend on it)
  const vary = [res.getHeader('Vary'), 'Authorization, Accept-Encoding'].filter(Boolean).join(', ');
  const common = { ...headers, ETag: r.etag, 'Cache-Control': r.cacheControl, Vary: vary };
  if (matchesEtag(req.headers['if-none-match'], r.etag)) {
    res.writeHead(304, common);
    res.end();
    return;
  }
  const encoding = negotiateEncoding(req.headers['accept-encoding']);
  const body = await r.encoded(encoding);
  res.writeHead(status, { ...common, 'Content-Type': JSON_TYPE, 'Content-Length': body.length, ...(body !== r.body && { 'Content-Encoding': encoding }) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** A route's arguments as a request carries them: path parameters, query values (text), the JSON body of a POST route. */
export interface RouteArguments {
  path?: Record<string, string>;
  query?: Record<string, string | string[]>;
  body?: unknown;
}

/** What a route answered: its status and body (the spec's envelope, or `{ success: false, error }`). */
export interface RouteAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** A request handler of the REST routes: true when it answers the request, false to pass it on. */
export interface RestHandler {
  (req: IncomingMessage, res: ServerResponse): boolean;
  /**
   * Answers `route` in-process for a caller already admitted (authenticated and counted), exactly as
   * a request would be answered: the same parameter checks, response cache, operation and envelope
   * (the MCP tools, src/mcp). Never throws: a refusal is its status and error body.
   */
  call(route: Route, args: RouteArguments, auth: Auth): Promise<RouteAnswer>;
  /**
   * Computes again, under the current data version, the answers asked for most recently (the app
   * calls it when the version advances), so the first poll after an ingest finds its bytes ready or
   * joins the run already under way instead of starting one.
   */
  warm(): Promise<void>;
}

/**
 * The REST adapter, on node:http directly (the hot path of the service: a cached answer costs a key
 * lookup in memory, a rate-limit count and one write). Each GET route checks the caller, parses the
 * parameters, and answers from the response cache or runs the route's GraphQL operation in-process
 * on the shared schema and writes the envelope. No business logic lives here. Requests that match no
 * route (or are not GET/HEAD) are passed on, so the rest of the app answers them.
 */
export function createRestHandler(deps: RestDeps): RestHandler {
  const prefix = deps.prefix ?? '/api/v1/nba/odds';
  const operations: ReadonlyMap<string, DocumentNode> = loadOperations(deps.schema);
  // Event streams have their own transport (src/live/use/sse.ts).
  const compiled: CompiledRoute[] = (deps.routes ?? ROUTES).filter((route) => !route.eventStream).map((route) => {
    const document = operations.get(route.operation);
    if (!document) throw new Error(`route ${route.path}: no operation file src/graphql/operations/${route.operation}.graphql`);
    // Express's matching: case-insensitive, an optional trailing slash, parameters URI-decoded.
    return {
      route,
      document,
      variables: variablesFor(deps.schema, document),
      match: match<Record<string, string>>(route.path, { decode: decodeURIComponent, sensitive: false, trailing: true }),
      enums: enumTree(deps.schema, document),
      perKey: selectsPerKeyField(deps.schema, document) || document.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === 'mutation'),
    };
  });
  const inFlight = new Map<string, Promise<Outcome>>();
  const warmCount = deps.warmCount ?? 16;
  const warmMaxBytes = deps.warmMaxBytes ?? 512 * 1024;
  const warmBudgetMs = deps.warmBudgetMs ?? 500;
  // The answers asked for recently (what to warm), with how often since the last warm-up and what
  // their last computation cost. The caller's Auth is kept only for its plan's visibility: answers
  // never depend on who the key belongs to.
  const recent = new LRUCache<string, Recent>({ max: warmCount * 4 });
  // Pollers repeat the same URLs: parsing (zod) is a pure function of the URL, so it is done once per
  // URL; bounded in bytes, the URL and its parsed values counted (a list of ids costs about three times
  // its text: the parameters, the variables and their JSON).
  const parsedUrls = new BoundedCache<Parsed>({
    maxBytes: deps.parsedUrlMaxBytes ?? 8 * 1024 * 1024,
    sizeOf: (p) => ('error' in p ? 2 * p.error.message.length : 3 * stringBytes(p.variablesKey)),
    ...(deps.onParsedUrlEvent && { onEvent: deps.onParsedUrlEvent }),
  });

  function parse(c: CompiledRoute, pathParams: Record<string, string>, search: string): Parsed {
    return parseValues(c, pathParams, querystring.parse(search) as Record<string, unknown>);
  }

  function parseValues(c: CompiledRoute, pathParams: Record<string, string>, query: Record<string, unknown>): Parsed {
    const refused = Object.keys(c.route.refuses ?? {}).find((name) => Object.hasOwn(query, name));
    if (refused) return { error: new AppError('BAD_REQUEST', `invalid parameter ${refused}: ${c.route.refuses![refused]}`) };
    const parsed = c.route.params.safeParse({ ...query, ...pathParams });
    if (!parsed.success) return { error: paramError(parsed.error.issues) };
    const params = parsed.data as Record<string, unknown>;
    const variables = c.variables(c.route.variables ? c.route.variables(params) : params);
    return { params, variables, variablesKey: JSON.stringify(variables) };
  }

  /** Runs a route's operation and shapes the envelope: the part of a request that can be shared. */
  async function runOperation(c: CompiledRoute, variables: Record<string, unknown>, params: Record<string, unknown>, auth: Auth): Promise<Outcome> {
    const result = await execute({ schema: deps.schema, document: c.document, variableValues: variables, contextValue: deps.createContext(auth) });
    if (result.errors?.length) return { error: appErrorOf(result.errors[0]!), cause: result.errors[0]!.originalError ?? result.errors[0] };
    const data = Object.keys(c.enums).length ? lowerEnums(result.data, c.enums) : result.data;
    const body = c.route.envelope.body(data as Record<string, unknown>, params);
    // A key's own data, or the answer of a change, is for this caller and this moment only.
    const cacheControl = c.perKey ? 'private, no-store' : cacheControlOf(c.route, body, params);
    return { representation: representation(Buffer.from(JSON.stringify(body)), cacheControl) };
  }

  /**
   * The answer of `c` for these variables: from the cache, from a run in flight, or a new run. A
   * client's request (`asked`) counts towards the answer's popularity; a warm-up's does not.
   */
  function outcomeOf(c: CompiledRoute, request: ParsedRequest, auth: Auth, asked = true): Promise<Outcome> {
    const { params, variables } = request;
    if (!deps.cache) return runOperation(c, variables, params, auth);
    // Only the plan's gates can make two callers' answers differ, so callers that pass the same gates share.
    const visibility = auth.kind === 'viewer' ? planVisibility(auth.viewer.plan) : auth.kind;
    const version = deps.dataVersion();
    const answer = `${c.route.operation}|${visibility}|${request.variablesKey}`;
    let seen = recent.get(answer);
    if (asked) {
      if (!seen) recent.set(answer, (seen = { c, request, auth, asks: 0, askedVersion: version, bytes: 0 }));
      seen.asks++;
      seen.askedVersion = version;
    }
    const key = `${version}|${answer}`;
    const cached = asked ? deps.cache.get(key) : deps.cache.peek(key);
    if (cached) return Promise.resolve({ representation: cached });
    // Identical requests arriving together share one execution instead of each running it.
    let pending = inFlight.get(key);
    if (!pending) {
      pending = runOperation(c, variables, params, auth);
      inFlight.set(key, pending);
      void pending.then(
        (outcome) => {
          inFlight.delete(key);
          if (seen && 'representation' in outcome) seen.bytes = outcome.representation.body.length;
          // A result begun under an older version is for that version only, which nobody asks any more.
          if ('representation' in outcome && version === deps.dataVersion()) deps.cache!.set(key, outcome.representation);
        },
        () => inFlight.delete(key),
      );
    }
    return pending;
  }

  /** The outcome of a request whose parameters passed, with the JSON body of a POST route. */
  async function outcomeFor(c: CompiledRoute, parsed: ParsedRequest, json: unknown, auth: Auth): Promise<Outcome> {
    if (c.route.body) {
      // A POST body is one caller's own question: it is run, never cached or warmed.
      const body = c.route.body.schema.safeParse(json);
      if (!body.success) return { error: bodyError(body.error.issues), cause: undefined };
      return runOperation(c, { ...parsed.variables, ...body.data }, parsed.params, auth);
    }
    // A DELETE changes something, a key's own data is its own: run every time, never from the cache.
    if ((c.route.method ?? 'GET') !== 'GET' || c.perKey) return runOperation(c, parsed.variables, parsed.params, auth);
    return outcomeOf(c, parsed, auth);
  }

  async function handle(c: CompiledRoute, url: string, pathParams: Record<string, string>, search: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    let headers: Record<string, string> = {};
    const send = (status: number, extra: Record<string, string | number>, body?: Buffer) => {
      res.writeHead(status, { ...headers, ...extra });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const fail = (error: AppError) => {
      const body = Buffer.from(JSON.stringify(errorBody(error)));
      // A database outage is short-lived (a restart, a failover): say when to try again, as /graphql does.
      const retry: Record<string, number> = error.code === 'UNAVAILABLE' ? { 'Retry-After': 1 } : {};
      send(error.status, { 'Content-Type': JSON_TYPE, 'Content-Length': body.length, ...retry }, body);
    };
    // The matched pattern, for the request metrics' route label.
    (req as IncomingMessage & { routePattern?: string }).routePattern = `${prefix}${c.route.path}`;
    try {
      const admission = await deps.admit(req);
      headers = admission.headers;
      if (admission.refused) return fail(admission.refused);
      const auth = admission.auth;
      if (auth.kind === 'none') return fail(auth.error);
      // Routes of one path differ by method (GET and DELETE /webhooks/:id): the method is part of the key.
      const parsedKey = `${c.route.method ?? 'GET'} ${url}`;
      let parsed = parsedUrls.get(parsedKey);
      if (!parsed) {
        parsed = parse(c, pathParams, search);
        parsedUrls.set(parsedKey, parsed);
      }
      if ('error' in parsed) return fail(parsed.error);
      const outcome = await outcomeFor(c, parsed, c.route.body ? parseJson(await readBody(req, c.route.body.maxBytes)) : undefined, auth);
      if ('error' in outcome) {
        if (outcome.error.code !== 'INTERNAL') return fail(outcome.error);
        deps.onError(outcome.cause, req);
        return fail(internalError(req));
      }
      await sendRepresentation(req, res, outcome.representation, headers, c.route.status ?? 200);
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof AppError) return fail(error);
      if (isDatabaseUnavailable(error)) return fail(new AppError('UNAVAILABLE'));
      deps.onError(error, req);
      fail(internalError(req));
    }
  }

  let warming: Promise<void> | null = null;
  let again = false;
  const warm = (): Promise<void> => {
    if (!deps.cache) return Promise.resolve();
    if (warming) {
      again = true; // the version moved while warming: go round once more
      return warming;
    }
    warming = (async () => {
      do {
        again = false;
        // Only answers asked for under one of the last WARM_VERSIONS data versions (one asked once is
        // warmed after the next ingest or two, then no more), cheap ones (small bodies), most asked
        // first, and no computation started past the round's time budget.
        const version = deps.dataVersion();
        const chosen = [...recent.values()]
          .filter((r) => r.askedVersion >= version - WARM_VERSIONS && r.bytes <= warmMaxBytes)
          .sort((a, b) => b.asks - a.asks)
          .slice(0, warmCount);
        const started = performance.now();
        for (const { c, request, auth } of chosen) {
          if (performance.now() - started > warmBudgetMs) break;
          // An error is the requester's to see when it asks; nothing to do here.
          await outcomeOf(c, request, auth, false).catch(() => undefined);
        }
      } while (again);
    })().finally(() => {
      warming = null;
    });
    return warming;
  };

  const byRoute = new Map(compiled.map((c) => [c.route, c]));
  const answerOf = (error: AppError): RouteAnswer => ({ status: error.status, body: errorBody(error) });
  const call = async (route: Route, args: RouteArguments, auth: Auth): Promise<RouteAnswer> => {
    const c = byRoute.get(route);
    if (!c) throw new Error(`route ${route.method ?? 'GET'} ${route.path} is not served here`);
    try {
      if (auth.kind === 'none') return answerOf(auth.error);
      const parsed = parseValues(c, args.path ?? {}, args.query ?? {});
      if ('error' in parsed) return answerOf(parsed.error);
      const outcome = await outcomeFor(c, parsed, args.body, auth);
      if ('error' in outcome) {
        if (outcome.error.code !== 'INTERNAL') return answerOf(outcome.error);
        deps.onError(outcome.cause);
        return answerOf(outcome.error);
      }
      return { status: c.route.status ?? 200, body: JSON.parse(outcome.representation.body.toString('utf8')) as Record<string, unknown> };
    } catch (error) {
      if (error instanceof AppError) return answerOf(error);
      if (isDatabaseUnavailable(error)) return answerOf(new AppError('UNAVAILABLE'));
      deps.onError(error);
      return answerOf(new AppError('INTERNAL'));
    }
  };

  // Every route's pattern and methods (a GET answers HEAD too, an event stream only GET), to answer
  // other methods with 405.
  const methodsOf = (deps.routes ?? ROUTES).map((route) => ({
    methods: route.eventStream ? ['GET'] : route.method ? [route.method] : ['GET', 'HEAD'],
    match: match(route.path, { decode: decodeURIComponent, sensitive: false, trailing: true }),
  }));
  /** The methods the routes of `path` take, or none when no route has that path. */
  const allowed = (path: string): string[] => {
    const methods = new Set(methodsOf.filter((r) => r.match(path)).flatMap((r) => r.methods));
    return ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'].filter((m) => methods.has(m));
  };
  const answer = (req: IncomingMessage, res: ServerResponse, error: AppError, headers: Record<string, string> = {}) => {
    const body = Buffer.from(JSON.stringify(errorBody(error)));
    res.writeHead(error.status, { ...headers, 'Content-Type': JSON_TYPE, 'Content-Length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const handler = (req: IncomingMessage, res: ServerResponse): boolean => {
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const url = req.url ?? '/';
    if (!url.startsWith(prefix)) return false;
    const q = url.indexOf('?');
    const path = q === -1 ? url.slice(prefix.length) : url.slice(prefix.length, q);
    const search = q === -1 ? '' : url.slice(q + 1);
    try {
      for (const c of compiled) {
        if ((c.route.method ?? 'GET') !== method) continue;
        const found = c.match(path);
        if (found) {
          void handle(c, url, found.params, search, req, res);
          return true;
        }
      }
      // A known path asked with another method (PUT /games, POST /games/1): 405 and what it takes.
      const methods = allowed(path);
      if (!methods.length) return false;
      answer(req, res, new AppError('METHOD_NOT_ALLOWED', `${ERRORS.METHOD_NOT_ALLOWED.message}: ${req.method} ${prefix}${path} takes ${methods.join(', ')}`), { Allow: methods.join(', ') });
      return true;
    } catch {
      // a malformed %-escape in a path parameter
      answer(req, res, new AppError('BAD_REQUEST', 'invalid request: malformed URL encoding'));
      return true;
    }
  };
  return Object.assign(handler, { warm, call });
}
